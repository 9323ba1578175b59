// ByteBudgetLru: the bookkeeping both server memos share (scan_memo.h, result_memo.h). Entries live under
// string keys, each with the cost in bytes its owner states; once the costs pass the budget, the least
// recently used go first. Thread-safe. What an entry holds and whether it is still valid is the owner's
// business: lookup() shows the entry to the owner's verdict, which says to use it, peek at it, pass it by or
// drop it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace csift {

struct LruUsage {
  size_t entries = 0;
  size_t bytes = 0;
  size_t budget = 0;
  uint64_t evictions = 0;
};

enum class LruVerdict {
  use,   // hand it over and mark it recently used
  peek,  // hand it over, recency unchanged
  miss,  // keep it, hand nothing over
  drop,  // forget it, hand nothing over
};

template <class Entry>
class ByteBudgetLru {
 public:
  explicit ByteBudgetLru(size_t budget_bytes) : budget_(budget_bytes) {}

  template <class Verdict>
  std::optional<Entry> lookup(const std::string& key, Verdict verdict) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = slots_.find(key);
    if (it == slots_.end()) return std::nullopt;
    switch (verdict(static_cast<const Entry&>(it->second.entry))) {
      case LruVerdict::use:
        recency_.splice(recency_.begin(), recency_, it->second.recency);
        return it->second.entry;
      case LruVerdict::peek:
        return it->second.entry;
      case LruVerdict::miss:
        return std::nullopt;
      case LruVerdict::drop:
        drop_locked(it);
        return std::nullopt;
    }
    return std::nullopt;
  }

  // Puts the entry under `key` (replacing any), then evicts the least recently used over the budget. An entry
  // costing more than the whole budget is not kept.
  void put(const std::string& key, Entry entry, size_t cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = slots_.find(key); it != slots_.end()) drop_locked(it);
    if (cost > budget_) return;
    recency_.push_front(key);
    slots_.emplace(key, Slot{std::move(entry), cost, recency_.begin()});
    bytes_ += cost;
    while (bytes_ > budget_ && !recency_.empty()) {
      drop_locked(slots_.find(recency_.back()));
      ++evictions_;
    }
  }

  void erase(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = slots_.find(key); it != slots_.end()) drop_locked(it);
  }

  LruUsage usage() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return LruUsage{slots_.size(), bytes_, budget_, evictions_};
  }

 private:
  struct Slot {
    Entry entry;
    size_t cost;
    std::list<std::string>::iterator recency;
  };
  using SlotMap = std::unordered_map<std::string, Slot>;

  void drop_locked(typename SlotMap::iterator it) {
    bytes_ -= it->second.cost;
    recency_.erase(it->second.recency);
    slots_.erase(it);
  }

  mutable std::mutex mutex_;
  std::list<std::string> recency_;  // most recently used first
  SlotMap slots_;
  size_t bytes_ = 0;
  size_t budget_;
  uint64_t evictions_ = 0;
};

}  // namespace csift
