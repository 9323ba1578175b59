// The JSON of `stats`: one `session` row per transcript and the scope totals the summary carries. Rows are
// per-transcript facts; the totals sum the rows, except `tokens`, which counts each API message once across
// the scope (`tokens_sum_of_rows` is the plain sum) — a copied session must not double the bill.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/store/store.h"
#include "tools/stats/stats_tally.h"

namespace csift {

json stats_row(const Transcript& t, const TranscriptTally& tally);
// The summary fields the cost per UTC day and per project are in (stats answers them when cost_by asks).
inline constexpr const char* kCostByDay = "cost_by_day";
inline constexpr const char* kCostByProject = "cost_by_project";
// Marks a row with the records it shares with other rows' transcripts (`shared_records`, and the paths in
// `shares_records_with`).
void mark_shared(json& row, size_t shared, const std::vector<std::string>& with_paths);

// Accumulates rows into the summary's totals.
class StatsTotals {
 public:
  // `project`: the transcript's project, for the cost per project.
  void add(const TranscriptTally& tally, HarnessId harness, const std::string& project);
  // `shared`: what find_shared_records found across the rows added.
  void write(json& summary, size_t shared_records, size_t transcripts_sharing) const;
  // The earliest and latest instants written (as recorded: the summary's `first_*` and `last_*`).
  const std::string& first_timestamp() const { return sum_.first_timestamp; }
  const std::string& last_timestamp() const { return sum_.last_timestamp; }

 private:
  TranscriptTally sum_;
  ScopeTokenLedger api_messages_;
  double rows_usd_ = 0;                              // the rows' costs summed
  double harness_usd_ = 0, ours_where_harness_ = 0;  // over the rows with a harness cost figure
  size_t harness_rows_ = 0;
  size_t sessions_ = 0;
  std::optional<EpochMs> first_, last_;
};

}  // namespace csift
