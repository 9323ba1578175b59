// The after-reply gate (server/after_reply_gate.h): a call that arrives while a reply's work runs waits for
// work that ends within the grace, and stops work that runs past it (the pieces after it are skipped).
#include "server/after_reply_gate.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace after_reply_gate_unit {

using csift::AfterReply;
using csift::AfterReplyGate;
using csift::CancelToken;

namespace {

// Runs `work` as a worker runs a reply's work, and returns once it has begun.
std::thread run_announced(AfterReplyGate& gate, AfterReply& work, std::atomic<bool>& began) {
  gate.announce();
  std::thread t([&gate, &work] { gate.run(work); });
  while (!began.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return t;
}

}  // namespace

TEST_CASE("after-reply gate: a call waits for work that ends within the grace") {
  AfterReplyGate gate;
  std::atomic<bool> began{false}, finished{false}, saw_stop{false};
  AfterReply work;
  work.defer([&](const CancelToken& stop) {
    began = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    saw_stop = stop.is_cancelled();
    finished = true;
  });
  std::thread t = run_announced(gate, work, began);
  gate.call_begins();
  CHECK(finished.load());  // the call began only once the work was done
  CHECK_FALSE(saw_stop.load());
  CHECK(gate.usage().stopped == 0);
  gate.call_ends();
  t.join();
}

TEST_CASE(
    "after-reply gate: work that outruns the grace is stopped for a call, and its later pieces skipped") {
  AfterReplyGate gate;
  std::atomic<bool> began{false}, saw_stop{false}, later_piece{false};
  AfterReply work;
  work.defer([&](const CancelToken& stop) {
    began = true;
    // Endless unless stopped (a test that hangs here has lost the stop).
    while (!stop.is_cancelled())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    saw_stop = true;
  });
  work.defer([&](const CancelToken&) { later_piece = true; });
  std::thread t = run_announced(gate, work, began);
  const auto asked = std::chrono::steady_clock::now();
  gate.call_begins();
  CHECK(saw_stop.load());
  CHECK_FALSE(later_piece.load());
  CHECK(gate.usage().stopped == 1);
  // Not before the grace: a call arriving the moment a reply's work begins still finds what it filled.
  CHECK(std::chrono::steady_clock::now() - asked >= AfterReplyGate::kGrace - std::chrono::milliseconds(50));
  CHECK_FALSE(gate.only_after_reply());
  gate.call_ends();
  t.join();
}

}  // namespace after_reply_gate_unit
