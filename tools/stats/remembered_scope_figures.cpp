#include "tools/stats/remembered_scope_figures.h"

#include <tbb/parallel_for.h>

#include <functional>
#include <string_view>

#include "core/cache/json_held_bytes.h"
#include "tools/stats/remembered_stats_row.h"
#include "tools/stats/shared_records.h"
#include "tools/stats/stats_row.h"

namespace csift {
namespace {

// Figures and what they were made from: the tallies, held weakly (the memo never keeps a tally alive, and a
// tally freed since, its address possibly reused by a new one, no longer locks, so it cannot be mistaken),
// and each transcript's row inputs.
struct ScopeFiguresEntry {
  std::vector<std::weak_ptr<const TranscriptTally>> from;
  std::vector<std::string> row_inputs;
  StatsScopeFigures figures;
};

size_t scope_figures_entry_cost(const ScopeFiguresEntry& e) {
  size_t n = sizeof(ScopeFiguresEntry) + held_bytes(e.from) + held_bytes(e.row_inputs) +
             json_held_bytes(e.figures.summary) + held_bytes(e.figures.rows);
  for (const std::string& s : e.row_inputs)
    n += held_bytes(s);
  for (const json& row : e.figures.rows)
    n += json_held_bytes(row);
  return n;
}

std::vector<std::string> all_row_inputs(const std::vector<const Transcript*>& transcripts) {
  std::vector<std::string> inputs;
  inputs.reserve(transcripts.size());
  for (const Transcript* t : transcripts)
    inputs.push_back(stats_row_inputs(*t));
  return inputs;
}

bool figures_made_from(const ScopeFiguresEntry& e,
                       const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
                       const std::vector<const Transcript*>& transcripts) {
  if (e.from.size() != counted.size()) return false;
  for (size_t k = 0; k < counted.size(); ++k) {
    if (e.from[k].lock() != counted[k] || e.row_inputs[k] != stats_row_inputs(*transcripts[k])) return false;
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
                                        const std::vector<const Transcript*>& counted_transcripts,
                                        ResultMemoUse& use) {
  StatsScopeFigures figures;
  figures.rows.resize(counted.size());
  tbb::parallel_for(size_t{0}, counted.size(), [&](size_t k) {
    figures.rows[k] = remembered_stats_row(*counted_transcripts[k], counted[k], use);
  });
  StatsTotals totals;
  std::vector<const TranscriptTally*> tallies;
  tallies.reserve(counted.size());
  for (size_t k = 0; k < counted.size(); ++k) {
    totals.add(*counted[k], counted_transcripts[k]->harness, counted_transcripts[k]->project_dir);
    tallies.push_back(counted[k].get());
  }
  const SharedRecordsScan shared = find_shared_records(tallies);
  size_t sharing = 0;
  for (size_t k = 0; k < counted.size(); ++k) {
    const SharedRecords& s = shared.per_transcript[k];
    if (s.records == 0) continue;
    ++sharing;
    std::vector<std::string> with;
    for (const size_t other : s.with)
      with.push_back(counted_transcripts[other]->path);
    mark_shared(figures.rows[k], s.records, with);
  }
  figures.summary = json::object();
  totals.write(figures.summary, shared.distinct_records, sharing);
  return figures;
}

}  // namespace

std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemoUse& use) {
  ResultMemo* memo = process_result_memo();
  if (memo == nullptr)
    return std::make_shared<const StatsScopeFigures>(
        compute_scope_figures(counted, counted_transcripts, use));
  const std::string key = scope_figures_key(counted);
  const void* type = result_type_tag<ScopeFiguresEntry>();
  if (auto hit =
          std::static_pointer_cast<const ScopeFiguresEntry>(memo->find(key, type, FileStamp{}, use.call))) {
    if (figures_made_from(*hit, counted, counted_transcripts)) {
      ++use.hits;
      return std::shared_ptr<const StatsScopeFigures>(hit, &hit->figures);
    }
  }
  ++use.misses;
  auto entry = std::make_shared<ScopeFiguresEntry>();
  entry->from.assign(counted.begin(), counted.end());
  entry->row_inputs = all_row_inputs(counted_transcripts);
  entry->figures = compute_scope_figures(counted, counted_transcripts, use);
  memo->remember(key, type, FileStamp{}, entry, scope_figures_entry_cost(*entry), use.call);
  return std::shared_ptr<const StatsScopeFigures>(entry, &entry->figures);
}

void apply_scope_figures(std::shared_ptr<const StatsScopeFigures> figures, Envelope& env) {
  for (const auto& [name, value] : figures->summary.items())
    env.summary[name] = value;
  // Thousands of rows, of which a page shows a few: each is copied only when the pager makes it.
  env.deferred.count = figures->rows.size();
  env.deferred.make = [figures](size_t k) { return figures->rows[k]; };
}

}  // namespace csift
