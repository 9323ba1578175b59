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

std::shared_ptr<const void> ResultMemo::find(const std::string& key, const void* type, const FileStamp& stamp,
                                             uint64_t call) {
  auto got = lru_.lookup(
      key,
      [&](const Remembered& r) {
        if (r.type != type) return LruVerdict::drop;
        if (r.stamp == stamp) return LruVerdict::use;
        return grew_from(r.stamp, stamp) ? LruVerdict::miss : LruVerdict::drop;  // a grown file's: find_grown
      },
      call);
  return got ? got->value : nullptr;
}

std::optional<ResultMemo::Grown> ResultMemo::find_grown(const std::string& key, const void* type,
                                                        const FileStamp& stamp) {
  auto got = lru_.lookup(key, [&](const Remembered& r) {
    return r.type == type && grew_from(r.stamp, stamp) ? LruVerdict::peek : LruVerdict::miss;
  });
  if (!got) return std::nullopt;
  return Grown{got->value, got->stamp};
}

void ResultMemo::remember(const std::string& key, const void* type, const FileStamp& stamp,
                          std::shared_ptr<const void> value, size_t cost, uint64_t call) {
  lru_.put(key, Remembered{type, stamp, std::move(value)}, cost + result_slot_bytes(key), call);
}

ResultMemo* process_result_memo() {
  return result_memo_slot().get();
}

void install_result_memo(size_t budget_bytes) {
  result_memo_slot() = budget_bytes ? std::make_unique<ResultMemo>(budget_bytes, kServerMemoShards) : nullptr;
}

}  // namespace csift
