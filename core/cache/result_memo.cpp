#include "core/cache/result_memo.h"

namespace csift {
namespace {

// The bookkeeping of one entry beyond its result: the key (in the map and the recency list), the slot, the
// map node and the list node (a rough constant).
size_t result_slot_bytes(const std::string& key) {
  return 2 * key.size() + 160;
}

std::unique_ptr<ResultMemo>& result_memo_slot() {
  static std::unique_ptr<ResultMemo> memo;
  return memo;
}

}  // namespace

std::string result_memo_key(std::string_view kind, const std::string& path, std::string_view variant) {
  std::string key;
  key.reserve(kind.size() + path.size() + variant.size() + 2);
  key.append(kind).push_back('\0');
  key.append(path).push_back('\0');
  key.append(variant);
  return key;
}

void ResultMemo::drop_locked(std::unordered_map<std::string, Slot>::iterator it) {
  bytes_ -= it->second.cost;
  recency_.erase(it->second.recency);
  slots_.erase(it);
}

std::shared_ptr<const void> ResultMemo::find(const std::string& key, const void* type,
                                             const FileStamp& stamp) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = slots_.find(key);
  if (it == slots_.end()) return nullptr;
  if (it->second.type != type || !(it->second.stamp == stamp)) {
    drop_locked(it);
    return nullptr;
  }
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  return it->second.value;
}

void ResultMemo::remember(const std::string& key, const void* type, const FileStamp& stamp,
                          std::shared_ptr<const void> value, size_t cost) {
  cost += result_slot_bytes(key);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = slots_.find(key); it != slots_.end()) drop_locked(it);
  if (cost > budget_) return;
  recency_.push_front(key);
  slots_.emplace(key, Slot{type, stamp, std::move(value), cost, recency_.begin()});
  bytes_ += cost;
  while (bytes_ > budget_ && !recency_.empty()) {
    drop_locked(slots_.find(recency_.back()));
    ++evictions_;
  }
}

ResultMemo::Usage ResultMemo::usage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Usage{slots_.size(), bytes_, budget_, evictions_};
}

ResultMemo* process_result_memo() {
  return result_memo_slot().get();
}

void install_result_memo(size_t budget_bytes) {
  result_memo_slot() = budget_bytes ? std::make_unique<ResultMemo>(budget_bytes) : nullptr;
}

}  // namespace csift
