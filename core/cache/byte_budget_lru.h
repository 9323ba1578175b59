// ByteBudgetLru: the bookkeeping both server memos share (scan_memo.h, result_memo.h). Entries live under
// string keys, each with the cost in bytes its owner states; once the costs pass the budget, the least
// recently used go first — but never one the inserting call itself used (below). Thread-safe. What an entry
// holds and whether it is still valid is the owner's business: lookup() shows the entry to the owner's
// verdict, which says to use it, peek at it, pass it by or drop it.
//
// A warm `list` looks up two entries per transcript from every worker thread at once, so a lock is held
// only for the table probe and the recency splice: the key is hashed before it is taken, and it is a spin
// lock (oneTBB's), since a sleeping mutex woke its waiter through a futex call on nearly every one of those
// short sections (a sixth of a warm list call, measured). The servers' memos spread their entries over
// shards, each with its own lock, table and recency list: behind one lock two workers were no faster than
// one (a warm `list` over 9,696 transcripts took 47 ms with either, the spin lock and its yields a quarter).
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

#include <algorithm>
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
#include <vector>

namespace csift {

struct LruUsage {
  size_t entries = 0;
  size_t bytes = 0;
  size_t budget = 0;
  uint64_t evictions = 0;
  uint64_t declined = 0;  // puts not kept: only entries the putting call itself used were left to evict
};

// The shards of a server's memos (ByteBudgetLru's constructor): enough that two to a few dozen workers
// seldom meet on one lock.
inline constexpr size_t kServerMemoShards = 64;

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
  // `shards`: how many independently locked parts the entries are spread over by their keys' hashes (1: one
  // exact LRU). The budget stays one: a put that takes the total over it evicts from its own shard's
  // least recently used first, then from the next shards', so an entry as large as the whole budget still
  // fits. Recency is kept per shard, so with several shards the entry evicted is the oldest of a shard, not
  // of the whole memo.
  explicit ByteBudgetLru(size_t budget_bytes, size_t shards = 1)
      : budget_(budget_bytes), shards_(std::max<size_t>(shards, 1)) {}

  // `call`: the call looking (0: none); an entry it uses is then one of that call's (see put()).
  template <class Verdict>
  std::optional<Entry> lookup(const std::string& key, Verdict verdict, uint64_t call = 0) {
    const KeyView probe{key, hash_of(key)};
    Shard& shard = shard_of(probe.hash);
    std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
    auto it = shard.slots.find(probe);
    if (it == shard.slots.end()) return std::nullopt;
    switch (verdict(static_cast<const Entry&>(it->second.entry))) {
      case LruVerdict::use:
        shard.recency.splice(shard.recency.begin(), shard.recency, it->second.recency);
        if (call != 0) it->second.call = call;
        return it->second.entry;
      case LruVerdict::peek:
        return it->second.entry;
      case LruVerdict::miss:
        return std::nullopt;
      case LruVerdict::drop:
        drop_locked(shard, it);
        return std::nullopt;
    }
    return std::nullopt;
  }

  // Puts the entry under `key` (replacing any), evicting the least recently used to make room for it. An
  // entry costing more than the whole budget is not kept. With a `call` (not 0), entries that call put or
  // used are never evicted for it: when nothing else is left to evict, this entry is declined instead.
  // The entry goes in first and the room is made after, one shard locked at a time (never two, so no order
  // of locks to keep); a declined entry is taken out again.
  void put(const std::string& key, Entry entry, size_t cost, uint64_t call = 0) {
    Key owned{key, hash_of(key)};  // copied before the lock is taken
    const KeyView probe{key, owned.hash};
    const size_t home = shard_index(probe.hash);
    const uint64_t serial = next_serial_.fetch_add(1, std::memory_order_relaxed);
    {
      Shard& shard = shards_[home];
      std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
      if (auto it = shard.slots.find(probe); it != shard.slots.end()) drop_locked(shard, it);
      if (cost > budget_) return;
      auto [it, _] = shard.slots.emplace(std::move(owned), Slot{std::move(entry), cost, {}, call, serial});
      shard.recency.push_front(&it->first);
      it->second.recency = shard.recency.begin();
      bytes_ += cost;
    }
    if (bytes_.load(std::memory_order_relaxed) <= budget_ || make_room(home, serial, call)) return;
    Shard& shard = shards_[home];
    std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
    if (auto it = shard.slots.find(probe); it != shard.slots.end() && it->second.serial == serial) {
      drop_locked(shard, it);
      ++declined_;
    }
  }

  void erase(const std::string& key) {
    const KeyView probe{key, hash_of(key)};
    Shard& shard = shard_of(probe.hash);
    std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
    if (auto it = shard.slots.find(probe); it != shard.slots.end()) drop_locked(shard, it);
  }

  LruUsage usage() const {
    size_t entries = 0;
    for (const Shard& shard : shards_) {
      std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
      entries += shard.slots.size();
    }
    return LruUsage{entries, bytes_.load(), budget_, evictions_.load(), declined_.load()};
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
    uint64_t call = 0;    // the last call that put or used it (0: none named)
    uint64_t serial = 0;  // which put made it: a declined put takes out its own entry, never a later one
  };
  using SlotMap = std::unordered_map<Key, Slot, KeyHash, KeyEqual>;
  // One independently locked part, on its own cache line: a warm `list` looks entries up from every worker
  // at once, and one lock for all of them made two threads no faster than one (measured).
  struct alignas(64) Shard {
    mutable tbb::spin_mutex mutex;
    std::list<const Key*> recency;  // most recently used first (the keys the table holds: nodes never move)
    SlotMap slots;
  };

  // The table's buckets take the hash's low bits; the shard takes its high ones.
  size_t shard_index(size_t hash) const { return (hash >> 40) % shards_.size(); }
  Shard& shard_of(size_t hash) { return shards_[shard_index(hash)]; }

  void drop_locked(Shard& shard, typename SlotMap::iterator it) {
    bytes_ -= it->second.cost;
    shard.recency.erase(it->second.recency);
    shard.slots.erase(it);
  }

  // Evicts least recently used entries, from `home` on, until the total is within the budget, passing over
  // the entry put (`serial`) and stopping at a shard whose oldest entry `call` put or used. False when the
  // total is still over the budget after every shard.
  bool make_room(size_t home, uint64_t serial, uint64_t call) {
    for (size_t i = 0; i < shards_.size(); ++i) {
      Shard& shard = shards_[(home + i) % shards_.size()];
      std::lock_guard<tbb::spin_mutex> lock(shard.mutex);
      while (bytes_.load(std::memory_order_relaxed) > budget_ && !shard.recency.empty()) {
        auto oldest = shard.slots.find(shard.recency.back()->view());
        if (oldest->second.serial == serial || (call != 0 && oldest->second.call == call)) break;
        drop_locked(shard, oldest);
        ++evictions_;
      }
      if (bytes_.load(std::memory_order_relaxed) <= budget_) return true;
    }
    return false;
  }

  const size_t budget_;
  std::vector<Shard> shards_;
  std::atomic<size_t> bytes_{0};
  std::atomic<uint64_t> next_serial_{1};
  std::atomic<uint64_t> evictions_{0};
  std::atomic<uint64_t> declined_{0};
};

}  // namespace csift
