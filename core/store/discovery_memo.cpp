#include "core/store/discovery_memo.h"

#include <time.h>

namespace csift {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<ResultMemo>& discovery_memo_slot() {
  static std::unique_ptr<ResultMemo> memo;
  return memo;
}

DirEntries list_dir_entries(const fs::path& dir) {
  DirEntries out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(*it);
  return out;
}

// A directory_entry holds its full path and a few words of cached status.
size_t dir_entries_cost(const DirEntries& entries) {
  size_t cost = entries.capacity() * sizeof(fs::directory_entry);
  for (const fs::directory_entry& e : entries)
    cost += e.path().native().capacity() + 1;
  return cost;
}

}  // namespace

ResultMemo* process_discovery_memo() {
  return discovery_memo_slot().get();
}

void install_discovery_memo(size_t budget_bytes) {
  discovery_memo_slot() = budget_bytes ? std::make_unique<ResultMemo>(budget_bytes) : nullptr;
}

int64_t realtime_ns() {
  struct timespec ts {};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool settled_stamp(const FileStamp& stamp, int64_t began_ns) {
  return began_ns - stamp.mtime_ns >= kRacyStampSeconds * 1000000000;
}

std::shared_ptr<const DirEntries> remembered_dir_entries(const fs::path& dir,
                                                         std::optional<FileStamp>* stamp_out) {
  ResultMemo* memo = process_discovery_memo();
  if (memo == nullptr) return std::make_shared<const DirEntries>(list_dir_entries(dir));
  const int64_t began = realtime_ns();
  const std::optional<FileStamp> before = stamp_file(dir.native());
  if (stamp_out) *stamp_out = before;
  if (!before) return std::make_shared<const DirEntries>();  // no such directory: nothing to list
  ResultMemoUse unreported;                                  // discovery has no per-call report
  return recall_or_compute(
      memo, unreported, ResultKind<DirEntries>{"dir-entries"}, dir.native(), "", before,
      [&] { return list_dir_entries(dir); }, [&](const DirEntries&) { return settled_stamp(*before, began); },
      dir_entries_cost);
}

}  // namespace csift
