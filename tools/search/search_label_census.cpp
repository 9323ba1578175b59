#include "tools/search/search_label_census.h"

#include <set>
#include <tuple>

#include "tools/search/search_scan.h"

namespace csift {
namespace {

constexpr ResultKind<LabelCensus> kCensusKind{"search.label_census"};

uint64_t label_bit(Label l) {
  return uint64_t{1} << static_cast<unsigned>(l);
}

static_assert(kLabelCount <= 64, "a census keeps an entry's labels in one 64-bit set");

// The labels of the Label enum that survive the request (ignore_filter: only the gates apply).
uint64_t surviving_set(const SearchRequest& req, bool ignore_filter) {
  uint64_t set = 0;
  for (size_t i = 0; i < kLabelCount; ++i) {
    const Label l = static_cast<Label>(i);
    if (label_survives(req, l, ignore_filter)) set |= label_bit(l);
  }
  return set;
}

size_t census_cost(const LabelCensus& c) {
  return held_bytes(c.runs);
}

}  // namespace

void LabelCensusBuilder::add(const ClassifiedEntry& e) {
  LabelCensus::Run run;
  for (const Unit& u : e.units)
    for (const Label l : u.labels)
      run.labels |= label_bit(l);
  run.turn = e.turn_index;
  run.draft = e.superseded_draft;
  run.foreign = e.foreign_lane;
  run.entries = 1;
  auto& runs = census_.runs;
  if (!runs.empty()) {
    LabelCensus::Run& last = runs.back();
    if (last.labels == run.labels && last.turn == run.turn && last.draft == run.draft &&
        last.foreign == run.foreign && last.entries < UINT32_MAX) {
      ++last.entries;
      return;
    }
  }
  runs.push_back(run);
}

LabelCensus LabelCensusBuilder::take(const ReadResult& read) {
  census_.skipped_lines = read.skipped_lines;
  census_.values_out_of_range = read.values_out_of_range;
  census_.runs.shrink_to_fit();
  return std::move(census_);
}

bool census_answers(const SearchRequest& req) {
  return (req.mode == SearchMode::count_only || req.mode == SearchMode::sessions_with_matches) &&
         req.compiled->matches_everything() && !req.turn && !req.window.bounded() && !req.resolve_persisted;
}

std::shared_ptr<const LabelCensus> recalled_label_census(const Transcript& t, const std::string& gates,
                                                         ResultMemoUse& use) {
  ResultMemo* memo = process_result_memo();
  if (memo == nullptr) return nullptr;
  const std::optional<FileStamp> now = stamp_of(t);
  if (!now) return nullptr;
  auto hit =
      memo->find(result_memo_key(kCensusKind.name, t.path, gates), result_type_tag<LabelCensus>(), *now);
  if (!hit) {
    ++use.misses;
    return nullptr;
  }
  ++use.hits;
  return std::static_pointer_cast<const LabelCensus>(std::move(hit));
}

void remember_label_census(const Transcript& t, const FileStamp& before, const std::string& gates,
                           LabelCensus&& census) {
  ResultMemo* memo = process_result_memo();
  if (memo == nullptr || stamp_file(t.path) != before) return;
  auto kept = std::make_shared<const LabelCensus>(std::move(census));
  const size_t cost = sizeof(LabelCensus) + census_cost(*kept);
  memo->remember(result_memo_key(kCensusKind.name, t.path, gates), result_type_tag<LabelCensus>(), before,
                 std::move(kept), cost);
}

// scan_entry (search_scan.cpp) for a pattern that matches everything, with no window, per run of entries:
// a record is a hit when one of its labels survives; a draft no label of which survives is still disclosed
// when one survives the gates alone.
void count_from_census(const LabelCensus& census, const SearchRequest& req, TranscriptHits& th) {
  const uint64_t survives = surviving_set(req, false);
  const uint64_t gated_in = surviving_set(req, true);
  std::set<std::tuple<int, bool, bool>> exchanges;
  for (const LabelCensus::Run& run : census.runs) {
    if ((run.labels & survives) != 0) {
      th.census_matches += run.entries;
      if (run.draft) th.draft_hits += run.entries;
      exchanges.insert({run.draft ? -1 : run.turn, run.draft, run.foreign});
    } else if (run.draft && (run.labels & gated_in) != 0) {
      th.drafts_excluded_by_label += run.entries;
    }
  }
  th.exchange_groups = exchanges.size();
  th.skipped_lines = census.skipped_lines;
  th.values_out_of_range = census.values_out_of_range;
  th.from_census = true;
}

}  // namespace csift
