// The discovery memo: what a long-lived server's discovery read from directories and subagent meta.json
// files, kept across calls so a warm call over an unchanged store stats a directory instead of listing it and
// stats a meta.json instead of reading and parsing it. SPEC.md §7 "Warm discovery memo" states the rules.
//
// A directory's listing is keyed by the directory's stamp (device, inode, size, mtime): adding, removing or
// renaming an entry changes its mtime. A meta.json's fields are keyed by the file's stamp. Timestamps have a
// granularity, so two changes within one tick would leave the stamp alone: a listing or a read is remembered
// only when the stamp's mtime is at least kRacyStampSeconds older than the moment the read began (git's
// racy-index rule), and a recently changed directory is simply read again on every call until it settles.
// Transcript files themselves are still stat'ed on every call by discovery (their size and mtime feed the
// per-file memos). The CLI never installs one. Behind the memo, a server's discovery reads the disk cache
// (kinds `dir-entries` and `agent-meta`), so a fresh server's first walk stats where it used to list and
// read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/result_memo.h"
#include "core/store/store.h"

namespace csift {

// One entry of a directory listing: its name and the type readdir reported, so a regular file or a directory
// is told without a stat (a symlink, or a type the file system did not report, is asked by a stat).
// A listing keeps names, not std::filesystem::directory_entry: that holds the entry's full path split into
// its components (~600 bytes an entry for a subagent file), which made the memo of a 10,000-transcript store
// pass its bound and list every directory again on every call (SPEC.md §7).
struct ListedEntry {
  std::string name;
  std::filesystem::file_type type = std::filesystem::file_type::none;  // none: not reported
};
// A directory's entries, sorted by name (so an entry is found by binary search; the order readdir gave is
// not kept: every caller orders what it builds by path).
using DirEntries = std::vector<ListedEntry>;

// `dir` joined with an entry's name as std::filesystem::path's `/` joins them (no separator after one).
std::string entry_path(const std::string& dir, const ListedEntry& e);
// Whether the entry is of type `want`, following a symlink (a stat for a symlink or an unreported type).
bool entry_is(const std::string& dir, const ListedEntry& e, std::filesystem::file_type want);
// Whether the entry is itself a symlink (an lstat only when readdir did not report its type).
bool entry_is_symlink(const std::string& dir, const ListedEntry& e);
// Whether the sorted listing holds an entry of this name.
bool holds_entry(const DirEntries& entries, std::string_view name);
// The entry named `name`, or nullptr.
const ListedEntry* find_entry(const DirEntries& entries, std::string_view name);

// The process's discovery memo: nullptr unless a server installed one.
ResultMemo* process_discovery_memo();
// Installs it with this budget (0: none). Called once, before serving.
void install_discovery_memo(size_t budget_bytes);
// The bound of a server's discovery memo. A listing costs its key plus ~50 bytes an entry, a meta.json its
// key and fields (~0.7 KB): the discovery of the generated 10,000-transcript store (5,777 subagents) holds ~7
// MB, so 32 MiB holds a store of ~40,000 transcripts, and a larger one keeps the part that fits (each walk
// names its call: byte_budget_lru.h).
inline constexpr size_t kDefaultDiscoveryMemoBytes = size_t{32} << 20;
// A stamp whose mtime is less than this many seconds before the read began may hide a second change made in
// the same timestamp tick: what was read under it is not remembered.
inline constexpr int64_t kRacyStampSeconds = 2;

// The entries of `dir` (empty when it cannot be listed): from the memo while the directory's stamp is
// unchanged, else listed (and remembered when the stamp is settled and did not change during the listing).
// `stamp_out`, when given, receives the directory's stamp as this call took it (nullopt without a memo, whose
// absence means no stat is taken, or when the directory cannot be stat'ed).
std::shared_ptr<const DirEntries> remembered_dir_entries(const std::filesystem::path& dir,
                                                         std::optional<FileStamp>* stamp_out = nullptr);

// read() of the meta.json at `path` (AgentMeta: store.h), from the memo while its stamp is unchanged; read()
// itself without one. The memo's copy is shared, not copied. `stamp`: the file's stamp as the caller just
// took it (a watched stamp: watched_stamps.h), nullopt when it could not.
template <class Read>
std::shared_ptr<const AgentMeta> remembered_agent_meta(const std::string& path,
                                                       const std::optional<FileStamp>& stamp, Read&& read);

// The discovery walk this thread is doing, named for the memo's scan resistance (byte_budget_lru.h): what a
// walk found or remembered is not evicted by what the same walk remembers later, so a store whose discovery
// outgrows the bound keeps the part that fits instead of evicting, in walk order, what the next walk needs.
// Set for the calling thread by a scope's resolution and for each worker task of its walk; restores the
// previous walk when it ends (a worker may run another walk's task meanwhile). 0: no walk named.
class DiscoveryWalk {
 public:
  explicit DiscoveryWalk(uint64_t call);
  ~DiscoveryWalk();
  DiscoveryWalk(const DiscoveryWalk&) = delete;
  DiscoveryWalk& operator=(const DiscoveryWalk&) = delete;
  static uint64_t current();

 private:
  uint64_t saved_;
};

// fn(i) for each i in [0, n) on the oneTBB workers, each under the calling thread's discovery walk: a store's
// project directories are looked into in parallel, and what a worker lists belongs to the caller's walk.
void on_walk_workers(size_t n, const std::function<void(size_t)>& fn);

// True when a read that began at `began_ns` (CLOCK_REALTIME) under `stamp` may be remembered.
bool settled_stamp(const FileStamp& stamp, int64_t began_ns);

// read()'s result for the file or directory at `path`, stamped `before` by a stat taken no earlier than
// `began`: from the memo while the stamp is unchanged, else read and remembered when the stamp is settled and
// did not change during the read. Lookups and puts name the thread's discovery walk.
template <class T, class Read, class Cost>
std::shared_ptr<const T> recall_settled(ResultMemo& memo, std::string_view kind, const std::string& path,
                                        const FileStamp& before, int64_t began, Read&& read, Cost&& cost) {
  const std::string key = result_memo_key(kind, path, "");
  const uint64_t call = DiscoveryWalk::current();
  if (std::shared_ptr<const void> hit = memo.find(key, result_type_tag<T>(), before, call))
    return std::static_pointer_cast<const T>(std::move(hit));
  bool vouched = false;  // read() took it from the disk cache, stored there for this very stamp
  auto result = std::make_shared<const T>(take_computed<T>(read(), before, vouched));
  if (vouched || (settled_stamp(before, began) && stamp_file(path) == before))
    memo.remember(key, result_type_tag<T>(), before, result, sizeof(T) + cost(*result), call);
  return result;
}

// The meta.json fields an earlier process stored on disk for `stamp` (nullopt: none, or no disk cache), and
// keeping a read's fields there when the disk's rules allow (disk_keep).
std::optional<AgentMeta> disk_agent_meta(const std::string& path, const FileStamp& stamp, DiskCacheUse& use);
void keep_disk_agent_meta(const std::string& path, const FileStamp& stamp, const AgentMeta& meta,
                          DiskCacheUse& use);

template <class Read>
std::shared_ptr<const AgentMeta> remembered_agent_meta(const std::string& path,
                                                       const std::optional<FileStamp>& stamp, Read&& read) {
  ResultMemo* memo = process_discovery_memo();
  if (memo == nullptr) return std::make_shared<const AgentMeta>(read());
  // Discovery's disk use is not reported per call. Made before the stat: its clock (CLOCK_REALTIME, as
  // realtime_ns) is when the read began, for the disk's rules and the memo's alike.
  DiskCacheUse disk_use;
  const int64_t began = disk_use.began;
  const std::optional<FileStamp>& before = stamp;
  if (!before) return std::make_shared<const AgentMeta>();  // absent: nothing to read (nor would read())
  const auto through_disk = [&]() -> Vouched<AgentMeta> {
    if (auto stored = disk_agent_meta(path, *before, disk_use)) return {std::move(*stored), before};
    AgentMeta meta = read();
    keep_disk_agent_meta(path, *before, meta, disk_use);
    return {std::move(meta), std::nullopt};
  };
  return recall_settled<AgentMeta>(
      *memo, "agent-meta", path, *before, began, through_disk, [](const AgentMeta& m) {
        size_t cost = 0;
        for (const std::string* s : {&m.agent_type, &m.description, &m.spawn_tool_use_id, &m.parent_agent_id,
                                     &m.agent_name, &m.team_name, &m.task_kind})
          cost += held_bytes(*s);
        return cost;
      });
}

}  // namespace csift
