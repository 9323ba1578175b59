#include "core/search/search_cover.h"

#include <algorithm>

#include "core/search/search_prefilter.h"

namespace csift {

void SearchPrefilter::remember_cover(const Transcript& t, const FileStamp& stamp,
                                     const ClassifiedTranscript& ct, GramSketch&& raw) const {
  ScanMemo* memo = memo_;
  if (!memo || ct.read.cancelled || !ct.read.error.empty()) return;
  // An append is screened from here: a torn final line is screened again, complete or not.
  const uint64_t screened_end = ct.read.torn_tail ? ct.read.torn_tail_offset : stamp.size;
  const auto head = head_hash_of(t.path);
  const auto tail = tail_hash_of(t.path, screened_end);
  if (!head || !tail || stamp_file(t.path) != stamp) return;  // changed while read: may not cover it
  auto facts = std::make_shared<ScreenFacts>(0);  // its sketch is `raw`: none of the file's size to allocate
  facts->grams = std::move(raw);
  auto texts = std::make_shared<std::vector<std::string>>();
  const uint64_t keep = std::max(stamp.size / kMaxKeptTextShare, kMinKeptTextBytes);
  uint64_t kept = 0;
  for (const ClassifiedEntry& e : ct.entries) {
    for (const Unit& u : e.units) {
      facts->grams.add(u.text);
      if (texts && (kept += u.text.size()) <= keep) {
        texts->push_back(u.text);
      } else {
        texts.reset();  // too much text to keep: a needle the sketch may hold sends the file to a full read
      }
    }
  }
  if (texts) facts->rendered_texts = std::make_shared<const KeptTexts>(KeptTexts::pack(*texts));
  facts->stamp = stamp;
  facts->torn_tail = ct.read.torn_tail;
  facts->malformed_lines = ct.read.skipped_lines - (ct.read.torn_tail ? 1 : 0);
  facts->screened_end = screened_end;
  facts->values_out_of_range = ct.read.values_out_of_range;
  facts->head_hash = *head;
  facts->tail_hash = *tail;
  facts->rendered = cover_scope_;
  memo->remember(t.path, std::move(facts), tally_);
  tally_.covers_built.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace csift
