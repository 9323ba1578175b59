// ResultMemo: what a long-lived server computed from one file's bytes (a `list` probe, a `stats` tally),
// kept across calls so a repeated call over an unchanged store pays a stat(2) per file instead of a read.
// SPEC.md §"Warm result memo" states keying and invalidation.
//
// An entry is keyed by (kind, path, variant): the kind names the computation (and so the result's type), the
// variant spells everything else its answer depends on (a window, a flag). It answers only while the file's
// FileStamp is the one taken BEFORE the result was computed, and a result is remembered only when the stamp
// after computing is the same, so a file written during the read is never remembered. Any change (an
// append, a rewrite, a replaced file) makes the file's entries stale: they are recomputed from scratch,
// unless the caller can extend a result over the lines a grown file appended (recall_extend_or_compute).
// A result made from other remembered results rather than from a file (a list row from its probe, stats'
// shared records from the tallies) is kept under an empty stamp and proves its inputs itself: it holds them
// weakly and matches only the very objects it was made from.
// Bounded by a byte budget over each entry's approximate size, least recently used first out, except that a
// call never evicts what it found or remembered itself (byte_budget_lru.h: scan resistance). Thread-safe.
// The CLI never installs one, so a one-shot run computes exactly what it always computed.
#pragma once
#include <atomic>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/cache/byte_budget_lru.h"
#include "core/cache/disk_cache.h"
#include "core/cache/file_stamp.h"

namespace csift {

// One kind of remembered result: its name (unique per computation) and, through T, its type.
template <class T>
struct ResultKind {
  std::string_view name;
};

// One call's use of the memo (reported in the tool's summary).
struct ResultMemoUse {
  std::atomic<uint64_t> hits{0};      // results taken from memory
  std::atomic<uint64_t> misses{0};    // computed: not remembered, stale, evicted, or not rememberable
  std::atomic<uint64_t> extended{0};  // a grown file's result extended over the appended bytes only
  DiskCacheUse disk;                  // the same call's use of the disk cache behind the memo
  // The call these are (ByteBudgetLru): what it found or remembered is not evicted by what it remembers
  // later.
  const uint64_t call = new_lru_call();
};

class ResultMemo {
 public:
  // `shards`: ByteBudgetLru's (1: one exact LRU, as the unit tests want it).
  explicit ResultMemo(size_t budget_bytes, size_t shards = 1) : lru_(budget_bytes, shards) {}

  // The result remembered under `key` when it was computed from a file stamped `stamp` and has `type`
  // (marks it recently used); an entry with another stamp is dropped, unless the file only grew since
  // (find_grown() wants it). nullptr when there is none.
  // `call`: the call looking (ResultMemoUse::call; 0: none), which keeps a found entry from its own
  // evictions.
  std::shared_ptr<const void> find(const std::string& key, const void* type, const FileStamp& stamp,
                                   uint64_t call = 0);
  // The result remembered under `key` for the same file when it was smaller (same device and inode), with
  // the stamp it was computed under: what an extension over the appended bytes starts from.
  struct Grown {
    std::shared_ptr<const void> value;
    FileStamp stamp;
  };
  std::optional<Grown> find_grown(const std::string& key, const void* type, const FileStamp& stamp);
  // Remembers a result (replacing any under `key`), evicting least recently used entries over the budget,
  // but none `call` found or remembered (then the result is declined). `cost` is the result's approximate
  // size in bytes; a result larger than the budget is not kept.
  void remember(const std::string& key, const void* type, const FileStamp& stamp,
                std::shared_ptr<const void> value, size_t cost, uint64_t call = 0);

  using Usage = LruUsage;
  Usage usage() const { return lru_.usage(); }

 private:
  struct Remembered {
    const void* type;
    FileStamp stamp;
    std::shared_ptr<const void> value;
  };
  ByteBudgetLru<Remembered> lru_;
};

// The process's result memo: nullptr unless a server installed one.
ResultMemo* process_result_memo();
// Installs the process's result memo with this budget (0: none). Called once, before serving.
void install_result_memo(size_t budget_bytes);
// The default budget of a server's result memo: room for a 10,000-transcript store's `list` probes and
// `stats` tallies and rows (167 MB measured on a generated one of 1.1 GiB, most files idle; SPEC.md §7). A
// budget is a ceiling: a smaller store holds what it needs.
inline constexpr size_t kDefaultResultMemoBytes = size_t{256} << 20;

// The key of one entry: kind, path and variant joined by NULs (none of them holds one).
std::string result_memo_key(std::string_view kind, const std::string& path, std::string_view variant);

// A distinct address per result type: find() never hands a result to a caller expecting another type.
template <class T>
const void* result_type_tag() {
  static const char tag = 0;
  return &tag;
}

// A result compute() took from a store keyed by the file's stamp (the disk cache) rather than from the file:
// it is the file's at `stamp` by construction. When that is the stamp the memo keys it by, the memo keeps it
// without stat'ing the file again to see that the bytes held still while they were read, for none were
// read. (A fresh server's first call takes nearly every result from the disk: that stat was one in three of
// its syscalls, 15,642 stats for 4,560 transcripts in a first `list`.)
template <class T>
struct Vouched {
  T value;
  std::optional<FileStamp> stamp;  // the stamp the store held `value` under; nullopt: read from the file
};

// compute()'s value, and whether it is vouched for at `before`: a compute() that returns T read the file.
template <class T, class Computed>
T take_computed(Computed&& computed, const std::optional<FileStamp>& before, bool& vouched) {
  if constexpr (std::is_same_v<std::decay_t<Computed>, Vouched<T>>) {
    vouched = computed.stamp.has_value() && computed.stamp == before;
    return std::move(computed.value);
  } else {
    vouched = false;
    return T(std::forward<Computed>(computed));
  }
}

// compute()'s result for the file at `path` (and `variant`), from `memo` while the file is unchanged. On a
// miss the result is computed and remembered when keep(result) holds and the file's stamp did not change
// while it was computed (or compute() returned it Vouched for that stamp); cost(result) is its approximate
// size. Without a memo (or a file that cannot be stat'ed) compute() simply runs. `use` counts this call's
// hits and misses. `known` is the file's stamp when the caller already stat'ed it (discovery does, for every
// transcript): it stands for the stamp before, so a hit costs no stat at all and a miss one, after computing.
template <class T, class Compute, class Keep, class Cost>
std::shared_ptr<const T> recall_or_compute(ResultMemo* memo, ResultMemoUse& use, ResultKind<T> kind,
                                           const std::string& path, std::string_view variant,
                                           const std::optional<FileStamp>& known, Compute&& compute,
                                           Keep&& keep, Cost&& cost);

// The same for a result an append can extend: when the file only grew since a result was remembered,
// extend(old, old_stamp) makes the new result from the old one and the appended bytes (nullopt: it cannot,
// e.g. the first line changed, and compute() runs). An extended result is remembered like a computed one.
template <class T, class Compute, class Extend, class Keep, class Cost>
std::shared_ptr<const T> recall_extend_or_compute(ResultMemo* memo, ResultMemoUse& use, ResultKind<T> kind,
                                                  const std::string& path, std::string_view variant,
                                                  const std::optional<FileStamp>& known, Compute&& compute,
                                                  Extend&& extend, Keep&& keep, Cost&& cost) {
  bool vouched = false;
  if (memo == nullptr) return std::make_shared<const T>(take_computed<T>(compute(), known, vouched));
  const std::optional<FileStamp> before = known ? known : stamp_file(path);
  if (!before) {
    ++use.misses;
    return std::make_shared<const T>(take_computed<T>(compute(), before, vouched));
  }
  std::string key = result_memo_key(kind.name, path, variant);
  if (auto hit = memo->find(key, result_type_tag<T>(), *before, use.call)) {
    ++use.hits;
    return std::static_pointer_cast<const T>(std::move(hit));
  }
  std::shared_ptr<const T> result;
  if (auto grown = memo->find_grown(key, result_type_tag<T>(), *before)) {
    const auto& was = *std::static_pointer_cast<const T>(grown->value);
    if (std::optional<T> extended = extend(was, grown->stamp)) {
      ++use.extended;
      result = std::make_shared<const T>(std::move(*extended));
    }
  }
  if (!result) {
    ++use.misses;
    result = std::make_shared<const T>(take_computed<T>(compute(), before, vouched));
  }
  if (keep(*result) && (vouched || stamp_file(path) == before))
    memo->remember(key, result_type_tag<T>(), *before, result, sizeof(T) + cost(*result), use.call);
  return result;
}

template <class T, class Compute, class Keep, class Cost>
std::shared_ptr<const T> recall_or_compute(ResultMemo* memo, ResultMemoUse& use, ResultKind<T> kind,
                                           const std::string& path, std::string_view variant,
                                           const std::optional<FileStamp>& known, Compute&& compute,
                                           Keep&& keep, Cost&& cost) {
  return recall_extend_or_compute(
      memo, use, kind, path, variant, known, std::forward<Compute>(compute),
      [](const T&, const FileStamp&) { return std::optional<T>(); }, std::forward<Keep>(keep),
      std::forward<Cost>(cost));
}

// The same, stat'ing the file itself before computing.
template <class T, class Compute, class Keep, class Cost>
std::shared_ptr<const T> recall_or_compute(ResultMemo* memo, ResultMemoUse& use, ResultKind<T> kind,
                                           const std::string& path, std::string_view variant,
                                           Compute&& compute, Keep&& keep, Cost&& cost) {
  return recall_or_compute(memo, use, kind, path, variant, std::nullopt, std::forward<Compute>(compute),
                           std::forward<Keep>(keep), std::forward<Cost>(cost));
}

// Approximate heap bytes a value holds beyond its own sizeof (for cost functions). Plain values hold none.
template <class T>
size_t held_bytes(const T&) requires std::is_arithmetic_v<T> {
  return 0;
}
inline size_t held_bytes(const std::string& s) {
  return s.capacity() > 15 ? s.capacity() + 1 : 0;  // libstdc++ keeps up to 15 chars inline
}
template <class T>
size_t held_bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
// A std::map node: the pair, three pointers and a colour, plus what its key and value hold.
template <class K, class V>
size_t held_bytes(const std::map<K, V>& m) {
  size_t n = 0;
  for (const auto& [k, v] : m)
    n += sizeof(std::pair<const K, V>) + 32 + held_bytes(k) + held_bytes(v);
  return n;
}
// An unordered_map node (the pair and a next pointer, plus a cached hash) and its bucket array.
template <class K, class V, class H, class E, class A>
size_t held_bytes(const std::unordered_map<K, V, H, E, A>& m) {
  size_t n = m.bucket_count() * sizeof(void*);
  for (const auto& [k, v] : m)
    n += sizeof(std::pair<const K, V>) + 16 + held_bytes(k) + held_bytes(v);
  return n;
}
template <class K, class H, class E, class A>
size_t held_bytes(const std::unordered_set<K, H, E, A>& s) {
  size_t n = s.bucket_count() * sizeof(void*);
  for (const auto& k : s)
    n += sizeof(K) + 16 + held_bytes(k);
  return n;
}

}  // namespace csift
