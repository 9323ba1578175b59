#include "tools/stats/remembered_scope_figures.h"

#include <tbb/parallel_for.h>

#include <functional>
#include <string_view>

#include "tools/common/json_held_bytes.h"
#include "tools/stats/shared_records.h"
#include "tools/stats/stats_row.h"

namespace csift {
namespace {

// Figures and the tallies they were made from, held weakly: the memo never keeps a tally alive, and a tally
// freed since (its address possibly reused by a new one) no longer locks, so it cannot be mistaken.
struct ScopeFiguresEntry {
  std::vector<std::weak_ptr<const TranscriptTally>> from;
  StatsScopeFigures figures;
};

size_t scope_figures_entry_cost(const ScopeFiguresEntry& e) {
  size_t n = sizeof(ScopeFiguresEntry) + held_bytes(e.from) + json_held_bytes(e.figures.summary) +
             held_bytes(e.figures.marks);
  for (const StatsRowShareMark& m : e.figures.marks)
    n += json_held_bytes(m.with);
  return n;
}

bool figures_made_from(const ScopeFiguresEntry& e,
                       const std::vector<std::shared_ptr<const TranscriptTally>>& counted) {
  if (e.from.size() != counted.size()) return false;
  for (size_t k = 0; k < counted.size(); ++k) {
    if (e.from[k].lock() != counted[k]) return false;
  }
  return true;
}

// The entry's key names the tallies by address (a hash of them): figures_made_from() proves the match.
std::string scope_figures_key(const std::vector<std::shared_ptr<const TranscriptTally>>& counted) {
  size_t h = counted.size();
  for (const auto& t : counted)
    h = h * 1099511628211ull ^ std::hash<const void*>{}(t.get());
  return result_memo_key("stats-scope-figures", "", std::to_string(h));
}

StatsScopeFigures compute_scope_figures(const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
                                        const std::vector<const Transcript*>& counted_transcripts) {
  StatsTotals totals;
  std::vector<const TranscriptTally*> tallies;
  tallies.reserve(counted.size());
  for (const auto& t : counted) {
    totals.add(*t);
    tallies.push_back(t.get());
  }
  const SharedRecordsScan shared = find_shared_records(tallies);
  StatsScopeFigures figures;
  for (size_t k = 0; k < counted.size(); ++k) {
    const SharedRecords& s = shared.per_transcript[k];
    if (s.records == 0) continue;
    json with = json::array();
    for (const size_t other : s.with)
      with.push_back(counted_transcripts[other]->path);
    figures.marks.push_back({k, s.records, std::move(with)});
  }
  figures.summary = json::object();
  totals.write(figures.summary, shared.distinct_records, figures.marks.size());
  return figures;
}

}  // namespace

std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemoUse& use) {
  ResultMemo* memo = process_result_memo();
  if (memo == nullptr)
    return std::make_shared<const StatsScopeFigures>(compute_scope_figures(counted, counted_transcripts));
  const std::string key = scope_figures_key(counted);
  const void* type = result_type_tag<ScopeFiguresEntry>();
  if (auto hit = std::static_pointer_cast<const ScopeFiguresEntry>(memo->find(key, type, FileStamp{}))) {
    if (figures_made_from(*hit, counted)) {
      ++use.hits;
      return std::shared_ptr<const StatsScopeFigures>(hit, &hit->figures);
    }
  }
  ++use.misses;
  auto entry = std::make_shared<ScopeFiguresEntry>();
  entry->from.assign(counted.begin(), counted.end());
  entry->figures = compute_scope_figures(counted, counted_transcripts);
  memo->remember(key, type, FileStamp{}, entry, scope_figures_entry_cost(*entry));
  return std::shared_ptr<const StatsScopeFigures>(entry, &entry->figures);
}

void apply_scope_figures(const StatsScopeFigures& figures, std::vector<json>& rows, json& summary) {
  // The marks' path lists are most of what a warm call copies: spread over the workers.
  tbb::parallel_for(size_t{0}, figures.marks.size(), [&](size_t k) {
    const StatsRowShareMark& m = figures.marks[k];
    json& row = rows[m.row];
    row["shared_records"] = m.records;
    row["shares_records_with"] = m.with;
  });
  for (const auto& [name, value] : figures.summary.items())
    summary[name] = value;
}

}  // namespace csift
