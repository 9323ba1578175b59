// Cooperative cancellation: a long scan polls the token between blocks and stops early when it is set (an MCP
// notifications/cancelled, a closed HTTP stream, a CLI interrupt).
#pragma once
#include <atomic>

namespace csift {

struct CancelToken {
  std::atomic<bool> cancelled{false};
  bool is_cancelled() const { return cancelled.load(std::memory_order_relaxed); }
};

}  // namespace csift
