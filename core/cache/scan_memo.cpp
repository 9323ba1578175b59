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
  size_t texts = 0;
  if (f.rendered_texts)
    for (const std::string& s : *f.rendered_texts)
      texts += s.size() + sizeof(std::string);
  return f.grams.bytes() + 2 * path.size() + markers + texts + 160;
}

// The facts with their sketch folded while its fill stays at most kMemoSketchFill (a copy when it folds).
// A sketch is sized from the file's bytes, but a transcript repeats itself: most of a large one's bits were
// clear, and the 3 GiB corpus replica's sketches passed the memo's whole budget, so a warm search screened
// files again on every call.
std::shared_ptr<const ScreenFacts> folded_while_sparse(std::shared_ptr<const ScreenFacts> facts) {
  GramSketch folded = facts->grams;
  if (!folded.fold() || folded.fill() > kMemoSketchFill) return facts;
  GramSketch grams = folded;
  while (folded.fold() && folded.fill() <= kMemoSketchFill)
    grams = folded;
  auto out = std::make_shared<ScreenFacts>(*facts);
  out->grams = std::move(grams);
  return out;
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

std::shared_ptr<const ScreenFacts> ScanMemo::find(const std::string& path, const FileStamp& stamp,
                                                  uint64_t call) {
  auto facts = lru_.lookup(
      path,
      [&](const std::shared_ptr<const ScreenFacts>& f) {
        if (f->stamp == stamp) return LruVerdict::use;
        return grew_from(f->stamp, stamp) ? LruVerdict::miss : LruVerdict::drop;
      },
      call);
  return facts ? *facts : nullptr;
}

std::shared_ptr<const ScreenFacts> ScanMemo::find_grown(const std::string& path, const FileStamp& stamp) {
  auto facts = lru_.lookup(path, [&](const std::shared_ptr<const ScreenFacts>& f) {
    return grew_from(f->stamp, stamp) ? LruVerdict::peek : LruVerdict::miss;
  });
  return facts ? *facts : nullptr;
}

void ScanMemo::remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts, uint64_t call) {
  facts = folded_while_sparse(std::move(facts));
  const size_t cost = memo_entry_bytes(path, *facts);
  lru_.put(path, std::move(facts), cost, call);
}

ScanMemo* process_scan_memo() {
  return memo_slot().get();
}

void install_scan_memo(size_t budget_bytes) {
  memo_slot() = budget_bytes ? std::make_unique<ScanMemo>(budget_bytes) : nullptr;
}

}  // namespace csift
