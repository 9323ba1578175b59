// Who runs when on a server's workers: the calls under way, and the work their replies left
// (core/base/after_reply.h). A reply's work runs once the calls under way have ended, alone; a call that
// arrives meanwhile waits for it (a client's next call, sent the moment it reads the reply, must not start
// first and miss the memo the work fills), but for at most kGrace of the work's run: past that the work is
// stopped and dropped, and the call goes on. On the 3 GiB replica a cold search's work (the screens of 4,503
// files) runs ~6 s, and the next call waited all of it (7.6 s, against 1.5 s for the same call with nothing
// remembered); what the stopped work would have filled, the next call that needs it fills or defers again.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

#include "core/base/after_reply.h"

namespace csift {

class AfterReplyGate {
 public:
  static constexpr std::chrono::milliseconds kGrace{500};

  void call_begins();  // waits while work after a reply is announced (running work: up to kGrace of it)
  void call_ends();
  void announce();             // before the reply is delivered
  void run(AfterReply& work);  // waits for the calls under way, runs `work` alone, then lets calls in
  bool only_after_reply();

  struct Usage {
    size_t stopped = 0;  // runs stopped for a call
  };
  Usage usage();

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  size_t calls_ = 0, announced_ = 0;
  AfterReply* running_ = nullptr;  // the work running now
  std::chrono::steady_clock::time_point run_began_;
  Usage usage_;
};

}  // namespace csift
