// Work a call leaves for after its answer is delivered: what only later calls use (a server's scan memo
// filled with the sketches of the files a cold search read, the disk cache's queued entries written), kept
// off the time the caller waits. Claude Code starts one server per session, so a fresh server's first call
// is the one a user waits on most; filling the memos on its path made a cold server's first search 3.7x
// slower than the same search from the CLI, which keeps no memo (SPEC.md §7 "After the reply").
//
// The server runs a call's work once its reply is sent and before it starts another call (the next one
// waits: its memos are then as the eager path would have left them), unless the work has run long enough
// for the wait to cost more than the call would (server/after_reply_gate.h stops it then); a server whose
// input ends runs it before exiting. Code that finds no AfterReply in its context (the CLI, tests) does the
// work at once.
#pragma once
#include <functional>
#include <vector>

#include "core/base/cancel.h"

namespace csift {

class AfterReply {
 public:
  // Queued from the call's own thread (not from its parallel workers). A piece polls the token it is given
  // between files and returns once it is set.
  void defer(std::function<void(const CancelToken&)> work) { work_.push_back(std::move(work)); }
  bool empty() const { return work_.empty(); }
  void clear() { work_.clear(); }  // forgets the work (a cancelled call leaves none)
  // Runs the work in the order it was deferred, then forgets it. A piece that throws ends only itself (said
  // on stderr): the reply is already sent, and a cache left unfilled costs a later call time, never an
  // answer.
  void run();
  // Ends the run early (from another thread): the piece under way returns at its next poll, the pieces
  // after it are skipped, and what they would have filled is filled by the next call that needs it (a
  // search skims and defers again the files it finds no screen for; queued disk entries wait for the next
  // write).
  void stop() { stop_.cancelled.store(true, std::memory_order_relaxed); }

 private:
  std::vector<std::function<void(const CancelToken&)>> work_;
  CancelToken stop_;
};

}  // namespace csift
