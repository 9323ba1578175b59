// Whether the process is answering a call now: work that should take only idle time (a server's watches,
// core/store/watched_stamps.h) waits while one is under way and for a moment after the last one ended.
#pragma once
#include <cstdint>

namespace csift {

// Marks a call under way for as long as it lives (a tool's run, tools/dispatch/invoke_tool.cpp).
class CallUnderWay {
 public:
  CallUnderWay();
  ~CallUnderWay();
  CallUnderWay(const CallUnderWay&) = delete;
  CallUnderWay& operator=(const CallUnderWay&) = delete;
};

// Calls under way now.
uint64_t calls_under_way();
// When the last call ended (steady clock, nanoseconds; 0 before any did).
int64_t last_call_end_ns();
// The steady clock in nanoseconds.
int64_t steady_clock_ns();

}  // namespace csift
