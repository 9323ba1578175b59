// ByteBudgetLru: the bookkeeping both server memos share (scan_memo.h, result_memo.h). Entries live under
// string keys, each with the cost in bytes its owner states; once the costs pass the budget, the least
// recently used go first — but never one the inserting call itself used (below). Thread-safe. What an entry
// holds and whether it is still valid is the owner's business: lookup() shows the entry to the owner's
// verdict, which says to use it, peek at it, pass it by or drop it.
//
// A warm `list` looks up two entries per transcript from every worker thread at once, so the lock is held
// only for the table probe and the recency splice: the key is hashed before it is taken, and it is a spin
// lock (oneTBB's), since a sleeping mutex woke its waiter through a futex call on nearly every one of those
// short sections (a sixth of a warm list call, measured).
//
// Scan resistance: a call walks every transcript in scope, so a plain LRU walked by a working set larger
// than its budget hits nothing, ever (each call evicts, in order, exactly the entries it is about to need:
// 6,649 misses of 6,649 on a 3,498-transcript store). So every lookup and put may name the call it serves
// (new_lru_call(); 0 names none), and a put never evicts an entry the same call put or used: when only those
// are left over the budget, the new entry is declined instead. A call whose working set exceeds the budget
// thus keeps the part that fits, and the next call over the same scope hits that part (budget / working set
// of it) instead of nothing. Across calls it is plain LRU, so a scope that moves on is let in as before.
#pragma once
#include <oneapi/tbb/spin_mutex.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace csift {

struct LruUsage {
  size_t entries = 0;
  size_t bytes = 0;
  size_t budget = 0;
  uint64_t evictions = 0;
  uint64_t declined = 0;  // puts not kept: only entries the putting call itself used were left to evict
};

// A fresh call id for ByteBudgetLru's lookups and puts (never 0).
inline uint64_t new_lru_call() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

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

  // `call`: the call looking (0: none); an entry it uses is then one of that call's (see put()).
  template <class Verdict>
  std::optional<Entry> lookup(const std::string& key, Verdict verdict, uint64_t call = 0) {
    const KeyView probe{key, hash_of(key)};
    std::lock_guard<tbb::spin_mutex> lock(mutex_);
    auto it = slots_.find(probe);
    if (it == slots_.end()) return std::nullopt;
    switch (verdict(static_cast<const Entry&>(it->second.entry))) {
      case LruVerdict::use:
        recency_.splice(recency_.begin(), recency_, it->second.recency);
        if (call != 0) it->second.call = call;
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

  // Puts the entry under `key` (replacing any), evicting the least recently used to make room for it. An
  // entry costing more than the whole budget is not kept. With a `call` (not 0), entries that call put or
  // used are never evicted for it: when nothing else is left to evict, this entry is declined instead.
  void put(const std::string& key, Entry entry, size_t cost, uint64_t call = 0) {
    Key owned{key, hash_of(key)};
    std::lock_guard<tbb::spin_mutex> lock(mutex_);
    if (auto it = slots_.find(owned.view()); it != slots_.end()) drop_locked(it);
    if (cost > budget_) return;
    while (bytes_ + cost > budget_) {
      auto oldest = slots_.find(recency_.back()->view());
      if (call != 0 && oldest->second.call == call) {
        ++declined_;
        return;
      }
      drop_locked(oldest);
      ++evictions_;
    }
    auto [it, _] = slots_.emplace(std::move(owned), Slot{std::move(entry), cost, {}, call});
    recency_.push_front(&it->first);
    it->second.recency = recency_.begin();
    bytes_ += cost;
  }

  void erase(const std::string& key) {
    const KeyView probe{key, hash_of(key)};
    std::lock_guard<tbb::spin_mutex> lock(mutex_);
    if (auto it = slots_.find(probe); it != slots_.end()) drop_locked(it);
  }

  LruUsage usage() const {
    std::lock_guard<tbb::spin_mutex> lock(mutex_);
    return LruUsage{slots_.size(), bytes_, budget_, evictions_, declined_};
  }

 private:
  // A key with its hash, so the table never hashes under the lock (keys are paths plus variants, ~100+
  // bytes).
  struct KeyView {
    std::string_view text;
    size_t hash;
  };
  struct Key {
    std::string text;
    size_t hash;
    KeyView view() const { return KeyView{text, hash}; }
  };
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(const Key& k) const { return k.hash; }
    size_t operator()(const KeyView& k) const { return k.hash; }
  };
  struct KeyEqual {
    using is_transparent = void;
    static std::string_view text(const Key& k) { return k.text; }
    static std::string_view text(const KeyView& k) { return k.text; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return text(a) == text(b);
    }
  };
  static size_t hash_of(std::string_view key) { return std::hash<std::string_view>{}(key); }

  struct Slot {
    Entry entry;
    size_t cost;
    typename std::list<const Key*>::iterator recency;
    uint64_t call = 0;  // the last call that put or used it (0: none named)
  };
  using SlotMap = std::unordered_map<Key, Slot, KeyHash, KeyEqual>;

  void drop_locked(typename SlotMap::iterator it) {
    bytes_ -= it->second.cost;
    recency_.erase(it->second.recency);
    slots_.erase(it);
  }

  mutable tbb::spin_mutex mutex_;
  std::list<const Key*> recency_;  // most recently used first (the keys the table holds: nodes never move)
  SlotMap slots_;
  size_t bytes_ = 0;
  size_t budget_;
  uint64_t evictions_ = 0;
  uint64_t declined_ = 0;
};

}  // namespace csift
