// DiskCache: the persisted tier behind the in-memory memos (scan_memo.h, result_memo.h), shared by every
// server and CLI run of one user. Claude Code starts one stdio server per session, so most calls a user waits
// on are a fresh process's first calls: what an earlier process learned from a transcript's bytes (a `list`
// probe, ...) is kept on disk so those calls need not read the files again. SPEC.md §7 "Persisted cache"
// states what is kept and why it is safe.
//
// One SQLite database in WAL mode under `${XDG_CACHE_HOME:-~/.cache}/csift-mcp/`. An entry is keyed by kind
// and transcript path and answers only while the file's stamp (device, inode, size, mtime ns) is the one it
// was computed under; its blob carries a checksum over key, stamp and bytes, verified before decoding (and a
// decoder must bounds-check: the blob is untrusted bytes). A meta row holds the format version, each kind's
// version and the identity of the binary that wrote the entries: any mismatch drops them. A corrupt database
// (SQLITE_CORRUPT / SQLITE_NOTADB) is moved aside and the process goes on uncached until the next call, which
// starts a fresh one. Writes are queued and written by flush() in one transaction at the end of a call; a
// database busy past a short timeout skips them (counted), never blocking or failing an answer. Bounded by a
// byte budget, least recently used first out (use times are updated lazily, at most once an hour per entry).
// Private: the directory is 0700 and the files 0600; a directory writable by others or owned by another user
// is refused (said once on stderr) and the process runs uncached.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/file_stamp.h"

namespace csift {

// One call's use of the disk cache (reported in the tool's summary).
struct DiskCacheUse {
  std::atomic<uint64_t> hits{0};    // results decoded from the disk cache
  std::atomic<uint64_t> misses{0};  // looked up and not there (or stale, or failing its checksum)
  std::atomic<uint64_t> writes{0};  // results this call queued for writing at its end
  // When the call began: before every read it makes, so a stamp settled by then was settled when the read
  // began (disk_settled).
  const int64_t began = realtime_ns();
};

// Git's racy-index rule for a cache that outlives the process: a timestamp has a granularity, so a second
// same-size write in the tick of `stamp`'s mtime would leave the stamp as it was. A result read under
// `stamp` is stored only when its mtime was at least 2 s older than the moment the read began (`began_ns`,
// CLOCK_REALTIME; DiskCacheUse::began is a call's start, before any of its reads). The discovery memo's
// settled_stamp is the same rule.
inline bool disk_settled(const FileStamp& stamp, int64_t began_ns) {
  return began_ns - stamp.mtime_ns >= int64_t{2} * 1000000000;
}

// The cache's totals since the process started, and its size on disk.
struct DiskCacheTotals {
  uint64_t hits = 0, misses = 0, writes = 0;
  uint64_t skipped = 0;    // queued writes dropped: the database was busy (another writer) past the timeout
  uint64_t evictions = 0;  // entries deleted to keep the file under the budget
  uint64_t errors = 0;     // corrupt entries deleted, databases moved aside, failed statements
  uint64_t bytes = 0;      // the database's size (pages in use) at the last flush
  uint64_t budget = 0;
  bool usable = false;  // false: refused or failing; the process runs uncached
};

// The kinds of entries and their versions: bump a kind's version whenever what it encodes (or the code that
// computes it) changes meaning; a database holding another version of a kind drops that kind's entries.
struct DiskCacheKind {
  std::string_view name;
  uint32_t version;
};
inline constexpr DiskCacheKind kDiskProbeKind{"probe", 3};  // 2: SessionProbe::unreadable; 3: anchors cut
// A `stats` tally of an unbounded window (tools/stats/remembered_tally.cpp), without the fold an append
// resumes from: a fresh process tallies a grown file afresh.
inline constexpr DiskCacheKind kDiskTallyKind{"tally", 2};  // 2: message ids as hashes
// A counted search's label census (tools/search/search_label_census.cpp), keyed by path and record-type
// gates, without its resume state.
inline constexpr DiskCacheKind kDiskCensusKind{"census", 1};
// A search screen's facts (core/cache/scan_memo.cpp): skipped-line counts, markers found absent, the byte
// sketch (folded to a fill, see encode_screen), a rendered cover's scope and, when small, its kept texts.
inline constexpr DiskCacheKind kDiskScreenKind{"screen", 2};  // 2: kept texts as one zstd frame
// An unbounded `stats`' scope figures (tools/stats/remembered_scope_figures.cpp): its summary and each row's
// shared records, keyed by the scope's transcripts and stored under a stamp standing for all of their stamps.
inline constexpr DiskCacheKind kDiskStatsScopeKind{"stats-scope", 1};
// The session a legacy flat agent file (`agent-<id>.jsonl` beside the sessions) belongs to, read from its
// head by discovery (core/store/store.cpp).
inline constexpr DiskCacheKind kDiskLegacySessionKind{"legacy-session", 1};
// A server's discovery (core/store/discovery_memo.cpp): a directory's entries with their reported types,
// keyed by the directory's path and stamp, and a subagent's meta.json fields, keyed by its path and stamp. A
// fresh server listed every project, session and subagents directory and read every meta.json (9,105
// listings and 4,129 reads in a first `list` of the generated 10,000-transcript store).
inline constexpr DiskCacheKind kDiskDirEntriesKind{"dir-entries", 1};
inline constexpr DiskCacheKind kDiskAgentMetaKind{"agent-meta", 1};
// A session log's triage facts (core/triage/log_facts.h) up to its watermark's size, keyed by path and that
// size: a status or list call parsed every log again (2,763 on the generated store, most of such a call).
inline constexpr DiskCacheKind kDiskLogFactsKind{"log-facts", 1};

class DiskCache {
 public:
  // `dir`: the cache directory (created 0700 when missing). `build`: the identity of the code writing the
  // entries (a different one drops them). `store_roots`: directories the cache must not lie inside
  // (transcript stores). Nothing is opened until the first lookup.
  DiskCache(std::string dir, uint64_t budget_bytes, std::string build,
            std::vector<std::string> store_roots = {});
  ~DiskCache();
  DiskCache(const DiskCache&) = delete;
  DiskCache& operator=(const DiskCache&) = delete;

  // The blob stored under (kind, key) for a file stamped `stamp`, its checksum verified; nullopt otherwise
  // (an entry failing its checksum is deleted at the next flush).
  std::optional<std::string> get(const DiskCacheKind& kind, std::string_view key, const FileStamp& stamp,
                                 DiskCacheUse* use = nullptr);
  // Queues a blob for (kind, key) under `stamp`, written by the next flush().
  void put(const DiskCacheKind& kind, std::string_view key, const FileStamp& stamp, std::string blob,
           DiskCacheUse* use = nullptr);
  // Writes the queued entries (and deletions, and lazy use times) in one transaction, then evicts over the
  // budget. Busy past the timeout: the queue is dropped (counted as skipped). Never throws.
  void flush();
  // A blob a decoder found malformed (its checksum held): deleted at the next flush.
  void discard(const DiskCacheKind& kind, std::string_view key);

  DiskCacheTotals totals() const;
  const std::string& path() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The process's disk cache: nullptr unless one was installed (server or CLI).
DiskCache* process_disk_cache();
// Whether the tools' summaries carry `disk_cache` (servers; the CLI's output stays as it was).
bool disk_cache_reported();
// Installs the process's disk cache (budget 0: none). `dir` empty: the default directory. `reported`: the
// summaries carry it. `store_roots`: directories the cache must not lie inside (transcript stores).
void install_disk_cache(const std::string& dir, uint64_t budget_bytes, bool reported,
                        const std::vector<std::string>& store_roots = {});
// `${XDG_CACHE_HOME:-$HOME/.cache}/csift-mcp` ("" when neither is set).
std::string default_disk_cache_dir();
// The default budget of the disk cache.
inline constexpr uint64_t kDefaultDiskCacheBytes = uint64_t{256} << 20;

// The disk tier of one per-file result: the decoded blob stored under (kind, key) for `stamp`, or nullopt.
// A blob that fails to decode (`decode` returns nullopt) is discarded.
template <class Decode>
auto disk_recall(DiskCache* disk, const DiskCacheKind& kind, std::string_view key, const FileStamp& stamp,
                 DiskCacheUse* use, Decode&& decode) -> decltype(decode(std::string_view())) {
  if (disk == nullptr) return std::nullopt;
  auto blob = disk->get(kind, key, stamp, use);
  if (!blob) return std::nullopt;
  auto value = decode(std::string_view(*blob));
  if (!value) disk->discard(kind, key);
  return value;
}

// Queues `encode()` under (kind, key) when the rules for storing hold: the file at `path` is still stamped
// `stamp` (the caller's read saw it unchanged from start to end only if the stamp before is the one after),
// and the stamp was settled when the call began (disk_settled). The caller checks its read had no error.
template <class Encode>
void disk_keep(DiskCache* disk, const DiskCacheKind& kind, std::string_view key, const std::string& path,
               const FileStamp& stamp, DiskCacheUse& use, Encode&& encode) {
  if (disk == nullptr || !disk_settled(stamp, use.began) || stamp_file(path) != stamp) return;
  disk->put(kind, key, stamp, encode(), &use);
}

// A stable 64-bit hash (the same in every build and process): the disk cache's checksums.
uint64_t stable_hash64(std::string_view bytes, uint64_t seed = 0);
// A stable 128-bit name for a string: two stable_hash64 of it under fixed seeds. Stands in for the string
// where only equality is asked (a disk entry's key, an API message's id).
struct Hash128 {
  uint64_t a = 0, b = 0;
  bool operator==(const Hash128&) const = default;
};
Hash128 stable_hash128(std::string_view bytes);
struct Hash128Hasher {
  size_t operator()(const Hash128& h) const {
    return static_cast<size_t>(h.a ^ (h.b * 0x9e3779b97f4a7c15ull));
  }
};
// The key an entry is stored under: the kind's name, a NUL and a 128-bit hash of `key`.
std::string disk_key(const DiskCacheKind& kind, std::string_view key);
// The checksum stored with an entry: over its stored key, stamp and stored bytes.
uint64_t disk_entry_sum(std::string_view stored_key, const FileStamp& stamp, std::string_view stored);

// Bounds-checked encoding of a blob's fields: every read checks what is left and fails the whole decode
// (ok() false) instead of reading past the end.
class BlobWriter {
 public:
  void u64(uint64_t v);
  void str(std::string_view s);
  void boolean(bool b) { u64(b ? 1 : 0); }
  void i64(int64_t v) { u64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }  // zigzag
  void raw(std::string_view bytes) { out_.append(bytes); }
  void hash128(const Hash128& h) {  // 16 bytes as they are (a varint of a hash's word takes 10)
    char bytes[16];
    std::memcpy(bytes, &h.a, 8);
    std::memcpy(bytes + 8, &h.b, 8);
    raw(std::string_view(bytes, sizeof bytes));
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class BlobReader {
 public:
  explicit BlobReader(std::string_view in) : in_(in) {}
  uint64_t u64();
  std::string str();
  bool boolean() {
    const uint64_t v = u64();
    if (v > 1) ok_ = false;
    return v == 1;
  }
  int64_t i64() {
    const uint64_t v = u64();
    return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
  }
  Hash128 hash128() {
    Hash128 h;
    const std::string_view bytes = raw(16);
    if (bytes.size() != 16) return h;
    std::memcpy(&h.a, bytes.data(), 8);
    std::memcpy(&h.b, bytes.data() + 8, 8);
    return h;
  }
  // `n` bytes as they are (fails when fewer are left).
  std::string_view raw(uint64_t n) {
    if (!ok_ || n > in_.size()) {
      ok_ = false;
      return {};
    }
    const std::string_view out = in_.substr(0, static_cast<size_t>(n));
    in_.remove_prefix(static_cast<size_t>(n));
    return out;
  }
  // A count of items that each take at least one byte: fails when more are claimed than bytes are left (a
  // corrupt count must not reserve gigabytes).
  uint64_t count() {
    const uint64_t n = u64();
    if (n > in_.size()) ok_ = false;
    return ok_ ? n : 0;
  }
  // Every read so far fit, and (at the end) nothing is left over.
  bool ok() const { return ok_; }
  bool done() const { return ok_ && in_.empty(); }

 private:
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace csift
