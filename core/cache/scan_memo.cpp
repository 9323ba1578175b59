#include "core/cache/scan_memo.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>

#include "core/scan/file_handle.h"

namespace csift {
namespace {

// What an entry costs: the sketch, plus the path and the bookkeeping (a rough constant).
size_t memo_entry_bytes(const std::string& path, const ScreenFacts& f) {
  size_t markers = 0;
  if (f.rendered)
    for (const std::string& m : f.rendered->markers)
      markers += m.size() + sizeof(std::string);
  for (const std::string& m : f.absent_markers)
    markers += m.size() + sizeof(std::string);
  return f.grams.bytes() + 2 * path.size() + markers + 160;
}

std::unique_ptr<ScanMemo>& memo_slot() {
  static std::unique_ptr<ScanMemo> memo;
  return memo;
}

}  // namespace

bool CoverScope::includes(const CoverScope& other) const {
  if ((other.attachments && !attachments) || (other.queued && !queued) || (other.snapshots && !snapshots))
    return false;
  return std::includes(markers.begin(), markers.end(), other.markers.begin(), other.markers.end());
}

std::optional<uint64_t> head_hash_of(const std::string& path) {
  FileHandle f(path);
  if (f.fd < 0) return std::nullopt;
  char head[kHeadBytes];
  const ssize_t got = pread_upto(f.fd, head, sizeof head, 0);
  if (got < 0) return std::nullopt;
  std::string_view line(head, static_cast<size_t>(got));
  if (const void* nl = std::memchr(head, '\n', line.size()))
    line = line.substr(0, static_cast<size_t>(static_cast<const char*>(nl) - head));
  return std::hash<std::string_view>{}(line);
}

void ScanMemo::drop_locked(std::unordered_map<std::string, Slot>::iterator it) {
  bytes_ -= memo_entry_bytes(it->first, *it->second.facts);
  recency_.erase(it->second.recency);
  slots_.erase(it);
}

std::shared_ptr<const ScreenFacts> ScanMemo::find(const std::string& path, const FileStamp& stamp) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(path);
  if (it == slots_.end()) return nullptr;
  const FileStamp& was = it->second.facts->stamp;
  if (!(was == stamp)) {
    // A grown file's entry stays for find_grown(); any other change makes it useless.
    if (was.device != stamp.device || was.inode != stamp.inode || was.size >= stamp.size) drop_locked(it);
    return nullptr;
  }
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  return it->second.facts;
}

std::shared_ptr<const ScreenFacts> ScanMemo::find_grown(const std::string& path, const FileStamp& stamp) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(path);
  if (it == slots_.end()) return nullptr;
  const FileStamp& was = it->second.facts->stamp;
  if (was.device != stamp.device || was.inode != stamp.inode || was.size >= stamp.size) return nullptr;
  return it->second.facts;
}

void ScanMemo::remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts) {
  const size_t cost = memo_entry_bytes(path, *facts);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = slots_.find(path); it != slots_.end()) drop_locked(it);
  if (cost > budget_) return;
  recency_.push_front(path);
  slots_.emplace(path, Slot{std::move(facts), recency_.begin()});
  bytes_ += cost;
  while (bytes_ > budget_ && !recency_.empty()) {
    drop_locked(slots_.find(recency_.back()));
    ++evictions_;
  }
}

void ScanMemo::forget(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = slots_.find(path); it != slots_.end()) drop_locked(it);
}

ScanMemo::Usage ScanMemo::usage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Usage{slots_.size(), bytes_, budget_, evictions_};
}

ScanMemo* process_scan_memo() {
  return memo_slot().get();
}

void install_scan_memo(size_t budget_bytes) {
  memo_slot() = budget_bytes ? std::make_unique<ScanMemo>(budget_bytes) : nullptr;
}

}  // namespace csift
