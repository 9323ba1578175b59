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
  const size_t texts = f.rendered_texts ? f.rendered_texts->held_bytes() : 0;
  return f.grams.bytes() + 2 * path.size() + markers + texts + 160;
}

// The facts with their sketch folded while its fill stays at most kMemoSketchFill, and its wide-character
// tables packed (a copy when either changes anything). A sketch is sized from the file's bytes, but a
// transcript repeats itself: most of a large one's bits were clear, and the 3 GiB corpus replica's sketches
// passed the memo's whole budget, so a warm search screened files again on every call.
std::shared_ptr<const ScreenFacts> kept_form(std::shared_ptr<const ScreenFacts> facts) {
  const std::optional<double> after = facts->grams.fill_after_fold();
  const bool folds = after && *after <= kMemoSketchFill;
  if (!folds && !facts->grams.tables_dense()) return facts;
  auto out = std::make_shared<ScreenFacts>(*facts);
  if (folds) out->grams.fold_while_fill_at_most(kMemoSketchFill);
  out->grams.pack_tables();
  return out;
}

std::unique_ptr<ScanMemo>& memo_slot() {
  static std::unique_ptr<ScanMemo> memo;
  return memo;
}

}  // namespace

bool CoverScope::includes_gates(const CoverScope& other) const {
  return !(other.attachments && !attachments) && !(other.queued && !queued) &&
         !(other.snapshots && !snapshots);
}

bool CoverScope::includes(const CoverScope& other) const {
  return includes_gates(other) &&
         std::includes(markers.begin(), markers.end(), other.markers.begin(), other.markers.end());
}

std::shared_ptr<const ScreenFacts> ScanMemo::find(const std::string& path, const FileStamp& stamp,
                                                  uint64_t call, DiskCacheUse* disk) {
  auto facts = lru_.lookup(
      path,
      [&](const std::shared_ptr<const ScreenFacts>& f) {
        if (f->stamp == stamp) return LruVerdict::use;
        return grew_from(f->stamp, stamp) ? LruVerdict::miss : LruVerdict::drop;
      },
      call);
  if (facts) return *facts;
  // Not in memory: an earlier process's screen of this very stamp, kept in memory from now on.
  auto stored = disk_recall(process_disk_cache(), kDiskScreenKind, path, stamp, disk,
                            [&](std::string_view blob) { return decode_screen(blob, stamp); });
  if (!stored) return nullptr;
  auto kept = std::make_shared<const ScreenFacts>(std::move(*stored));
  keep(path, kept, call);
  return kept;
}

void ScanMemo::remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts, MemoTally& tally) {
  const ScreenFacts& f = *facts;
  disk_keep(process_disk_cache(), kDiskScreenKind, path, path, f.stamp, tally.disk,
            [&] { return encode_screen(f); });
  remember(path, std::move(facts), tally.call);
}

namespace {

void encode_strings(BlobWriter& w, const std::vector<std::string>& v) {
  w.u64(v.size());
  for (const std::string& s : v)
    w.str(s);
}

bool decode_strings(BlobReader& r, std::vector<std::string>& v) {
  v.resize(static_cast<size_t>(r.count()));
  for (std::string& s : v) {
    if (!r.ok()) break;
    s = r.str();
  }
  return r.ok();
}

}  // namespace

std::string encode_screen(const ScreenFacts& f) {
  BlobWriter w;
  for (const uint64_t v :
       {f.malformed_lines, f.screened_end, f.values_out_of_range, f.head_hash, f.tail_hash})
    w.u64(v);
  w.boolean(f.torn_tail);
  const std::optional<double> after = f.grams.fill_after_fold();
  if (after && *after <= kStoredSketchFill) {
    GramSketch grams = f.grams;
    grams.fold_while_fill_at_most(kStoredSketchFill);
    grams.encode(w);
  } else {
    f.grams.encode(w);
  }
  encode_strings(w, f.absent_markers);
  w.boolean(f.rendered.has_value());
  if (f.rendered) {
    encode_strings(w, f.rendered->markers);
    w.u64((f.rendered->attachments ? 1 : 0) | (f.rendered->queued ? 2 : 0) | (f.rendered->snapshots ? 4 : 0));
  }
  const bool texts = f.rendered_texts && f.rendered_texts->raw_bytes() <= f.stamp.size / kMaxStoredTextShare;
  w.boolean(texts);
  if (texts) {  // the packed frame as it is: a fresh server takes it up without packing it again
    w.u64(f.rendered_texts->count());
    w.u64(f.rendered_texts->raw_bytes());
    w.str(f.rendered_texts->frame());
  }
  return w.take();
}

std::optional<ScreenFacts> decode_screen(std::string_view blob, const FileStamp& stamp) {
  BlobReader r(blob);
  ScreenFacts f(0);
  f.stamp = stamp;
  for (uint64_t* v :
       {&f.malformed_lines, &f.screened_end, &f.values_out_of_range, &f.head_hash, &f.tail_hash})
    *v = r.u64();
  f.torn_tail = r.boolean();
  auto grams = GramSketch::decode(r);
  if (!grams || f.screened_end > stamp.size) return std::nullopt;
  f.grams = std::move(*grams);
  if (!decode_strings(r, f.absent_markers)) return std::nullopt;
  if (r.boolean()) {
    CoverScope scope;
    if (!decode_strings(r, scope.markers)) return std::nullopt;
    const uint64_t gates = r.u64();
    if (gates > 7) return std::nullopt;
    scope.attachments = gates & 1;
    scope.queued = gates & 2;
    scope.snapshots = gates & 4;
    f.rendered = std::move(scope);
  }
  if (r.boolean()) {
    const uint64_t count = r.u64();
    const uint64_t raw_bytes = r.u64();
    std::string frame = r.str();
    if (!r.ok()) return std::nullopt;
    f.rendered_texts =
        std::make_shared<const KeptTexts>(KeptTexts::from_frame(std::move(frame), count, raw_bytes));
  }
  if (!r.done()) return std::nullopt;
  return f;
}

std::shared_ptr<const ScreenFacts> ScanMemo::find_grown(const std::string& path, const FileStamp& stamp) {
  auto facts = lru_.lookup(path, [&](const std::shared_ptr<const ScreenFacts>& f) {
    return grew_from(f->stamp, stamp) ? LruVerdict::peek : LruVerdict::miss;
  });
  return facts ? *facts : nullptr;
}

void ScanMemo::remember(const std::string& path, std::shared_ptr<const ScreenFacts> facts, uint64_t call) {
  keep(path, kept_form(std::move(facts)), call);
}

void ScanMemo::keep(const std::string& path, std::shared_ptr<const ScreenFacts> facts, uint64_t call) {
  static_assert(kStoredSketchFill >= kMemoSketchFill, "a recalled sketch would need folding again");
  const size_t cost = memo_entry_bytes(path, *facts);
  lru_.put(path, std::move(facts), cost, call);
}

ScanMemo* process_scan_memo() {
  return memo_slot().get();
}

void install_scan_memo(size_t budget_bytes) {
  memo_slot() = budget_bytes ? std::make_unique<ScanMemo>(budget_bytes, kServerMemoShards) : nullptr;
}

}  // namespace csift
