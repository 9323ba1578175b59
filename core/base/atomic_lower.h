// Lowering a shared index from several workers: the first position a parallel pass found something at.
#pragma once
#include <atomic>
#include <cstddef>

namespace csift {

// Lowers `v` to `to` unless it holds a smaller value already.
inline void lower_to(std::atomic<size_t>& v, size_t to) {
  size_t seen = v.load();
  while (to < seen && !v.compare_exchange_weak(seen, to)) {
  }
}

}  // namespace csift
