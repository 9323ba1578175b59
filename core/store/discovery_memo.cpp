#include "core/store/discovery_memo.h"
#include "core/store/watched_stamps.h"

#include <dirent.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cerrno>

namespace csift {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<ResultMemo>& discovery_memo_slot() {
  static std::unique_ptr<ResultMemo> memo;
  return memo;
}

fs::file_type type_of(unsigned char d_type) {
  switch (d_type) {
    case DT_REG:
      return fs::file_type::regular;
    case DT_DIR:
      return fs::file_type::directory;
    case DT_LNK:
      return fs::file_type::symlink;
    case DT_BLK:
      return fs::file_type::block;
    case DT_CHR:
      return fs::file_type::character;
    case DT_FIFO:
      return fs::file_type::fifo;
    case DT_SOCK:
      return fs::file_type::socket;
    default:
      return fs::file_type::none;  // DT_UNKNOWN: the file system did not say
  }
}

// The directory's entries sorted by name; nullopt when it cannot be opened or read to its end.
std::optional<DirEntries> read_dir_entries(const std::string& dir) {
  DirEntries out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return std::nullopt;
  errno = 0;
  while (const dirent* ent = ::readdir(d)) {
    const std::string_view name(ent->d_name);
    if (name != "." && name != "..") out.push_back(ListedEntry{std::string(name), type_of(ent->d_type)});
    errno = 0;
  }
  const bool complete = errno == 0;
  ::closedir(d);
  if (!complete) return std::nullopt;
  std::sort(out.begin(), out.end(),
            [](const ListedEntry& a, const ListedEntry& b) { return a.name < b.name; });
  return out;
}

// The directory's entries (none when it cannot be listed), sorted by name.
DirEntries list_dir_entries(const std::string& dir) {
  std::optional<DirEntries> listed = read_dir_entries(dir);
  return listed ? std::move(*listed) : DirEntries();
}

std::string encode_dir_entries(const DirEntries& entries) {
  BlobWriter w;
  w.u64(entries.size());
  for (const ListedEntry& e : entries) {
    w.str(e.name);
    w.u64(static_cast<uint64_t>(static_cast<int>(e.type)));
  }
  return w.take();
}

// A stored listing decodes only whole, with types std::filesystem names and names in strictly ascending order
// (holds_entry's binary search relies on the order).
std::optional<DirEntries> decode_dir_entries(std::string_view blob) {
  BlobReader r(blob);
  DirEntries out;
  for (uint64_t n = r.count(); n > 0 && r.ok(); --n) {
    ListedEntry e;
    e.name = r.str();
    const uint64_t type = r.u64();
    if (type > static_cast<uint64_t>(fs::file_type::unknown) || e.name.empty() ||
        (!out.empty() && !(out.back().name < e.name)))
      return std::nullopt;
    e.type = static_cast<fs::file_type>(static_cast<int>(type));
    out.push_back(std::move(e));
  }
  if (!r.done()) return std::nullopt;
  return out;
}

// A fresh server's listing: the one an earlier process stored for this very stamp (adding, removing or
// renaming an entry changes a directory's mtime), else listed and kept when the disk's rules allow. A
// directory that could not be listed whole is never kept (its permissions may change without its mtime).
Vouched<DirEntries> dir_entries_through_disk(const std::string& dir, const FileStamp& stamp,
                                             DiskCacheUse& use) {
  DiskCache* disk = process_disk_cache();
  if (auto stored = disk_recall(disk, kDiskDirEntriesKind, dir, stamp, &use, decode_dir_entries))
    return {std::move(*stored), stamp};
  std::optional<DirEntries> listed = read_dir_entries(dir);
  if (!listed) return {DirEntries(), std::nullopt};
  disk_keep(disk, kDiskDirEntriesKind, dir, dir, stamp, use, [&] { return encode_dir_entries(*listed); });
  return {std::move(*listed), std::nullopt};
}

std::string encode_agent_meta(const AgentMeta& m) {
  BlobWriter w;
  w.boolean(m.present);
  for (const std::string* f : {&m.agent_type, &m.description, &m.spawn_tool_use_id, &m.parent_agent_id,
                               &m.agent_name, &m.team_name, &m.task_kind})
    w.str(*f);
  return w.take();
}

std::optional<AgentMeta> decode_agent_meta(std::string_view blob) {
  BlobReader r(blob);
  AgentMeta m;
  m.present = r.boolean();
  for (std::string* f : {&m.agent_type, &m.description, &m.spawn_tool_use_id, &m.parent_agent_id,
                         &m.agent_name, &m.team_name, &m.task_kind})
    *f = r.str();
  if (!r.done()) return std::nullopt;
  return m;
}

size_t dir_entries_cost(const DirEntries& entries) {
  size_t cost = entries.capacity() * sizeof(ListedEntry);
  for (const ListedEntry& e : entries)
    cost += held_bytes(e.name);
  return cost;
}

thread_local uint64_t t_discovery_walk = 0;

}  // namespace

ResultMemo* process_discovery_memo() {
  return discovery_memo_slot().get();
}

void install_discovery_memo(size_t budget_bytes) {
  discovery_memo_slot() = budget_bytes ? std::make_unique<ResultMemo>(budget_bytes) : nullptr;
}

bool settled_stamp(const FileStamp& stamp, int64_t began_ns) {
  return began_ns - stamp.mtime_ns >= kRacyStampSeconds * 1000000000;
}

std::string entry_path(const std::string& dir, const ListedEntry& e) {
  if (dir.empty() || dir.back() == '/') return dir + e.name;
  std::string out;
  out.reserve(dir.size() + 1 + e.name.size());
  out.append(dir).push_back('/');
  out.append(e.name);
  return out;
}

bool entry_is(const std::string& dir, const ListedEntry& e, fs::file_type want) {
  if (e.type != fs::file_type::none && e.type != fs::file_type::symlink) return e.type == want;
  std::error_code ec;
  return fs::status(entry_path(dir, e), ec).type() == want;
}

bool entry_is_symlink(const std::string& dir, const ListedEntry& e) {
  if (e.type != fs::file_type::none) return e.type == fs::file_type::symlink;
  std::error_code ec;
  return fs::symlink_status(entry_path(dir, e), ec).type() == fs::file_type::symlink;
}

const ListedEntry* find_entry(const DirEntries& entries, std::string_view name) {
  auto it = std::lower_bound(entries.begin(), entries.end(), name,
                             [](const ListedEntry& e, std::string_view n) { return e.name < n; });
  return it != entries.end() && it->name == name ? &*it : nullptr;
}

bool holds_entry(const DirEntries& entries, std::string_view name) {
  return find_entry(entries, name) != nullptr;
}

DiscoveryWalk::DiscoveryWalk(uint64_t call) : saved_(t_discovery_walk) {
  t_discovery_walk = call;
}

DiscoveryWalk::~DiscoveryWalk() {
  t_discovery_walk = saved_;
}

uint64_t DiscoveryWalk::current() {
  return t_discovery_walk;
}

void on_walk_workers(size_t n, const std::function<void(size_t)>& fn) {
  const uint64_t walk = DiscoveryWalk::current();
  tbb::parallel_for(size_t{0}, n, [&](size_t i) {
    const DiscoveryWalk on_worker(walk);
    fn(i);
  });
}

std::shared_ptr<const DirEntries> remembered_dir_entries(const fs::path& dir,
                                                         std::optional<FileStamp>* stamp_out) {
  ResultMemo* memo = process_discovery_memo();
  if (memo == nullptr) return std::make_shared<const DirEntries>(list_dir_entries(dir.native()));
  // Discovery's disk use is not reported per call. Made before the stat: its clock (CLOCK_REALTIME, as
  // realtime_ns) is when the read began, for the disk's rules and the memo's alike.
  DiskCacheUse disk_use;
  const int64_t began = disk_use.began;
  WatchedStamps* watched = process_watched_stamps();
  const std::optional<FileStamp> before =
      watched ? watched->dir_stamp(dir.native(), DiscoveryWalk::current()) : stamp_file(dir.native());
  if (stamp_out) *stamp_out = before;
  if (!before) return std::make_shared<const DirEntries>();  // no such directory: nothing to list
  return recall_settled<DirEntries>(
      *memo, "dir-entries", dir.native(), *before, began,
      [&] { return dir_entries_through_disk(dir.native(), *before, disk_use); }, dir_entries_cost);
}

std::optional<AgentMeta> disk_agent_meta(const std::string& path, const FileStamp& stamp, DiskCacheUse& use) {
  return disk_recall(process_disk_cache(), kDiskAgentMetaKind, path, stamp, &use, decode_agent_meta);
}

void keep_disk_agent_meta(const std::string& path, const FileStamp& stamp, const AgentMeta& meta,
                          DiskCacheUse& use) {
  disk_keep(process_disk_cache(), kDiskAgentMetaKind, path, path, stamp, use,
            [&] { return encode_agent_meta(meta); });
}

}  // namespace csift
