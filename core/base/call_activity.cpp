#include "core/base/call_activity.h"

#include <atomic>
#include <chrono>

namespace csift {
namespace {

std::atomic<uint64_t> g_calls{0};
std::atomic<int64_t> g_last_end{0};

}  // namespace

int64_t steady_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

CallUnderWay::CallUnderWay() {
  g_calls.fetch_add(1, std::memory_order_acq_rel);
}

CallUnderWay::~CallUnderWay() {
  g_last_end.store(steady_clock_ns(), std::memory_order_release);
  g_calls.fetch_sub(1, std::memory_order_acq_rel);
}

uint64_t calls_under_way() {
  return g_calls.load(std::memory_order_acquire);
}

int64_t last_call_end_ns() {
  return g_last_end.load(std::memory_order_acquire);
}

}  // namespace csift
