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
// Marks a row with the records it shares with other rows' transcripts (`shared_records`, and the paths in
// `shares_records_with`).
void mark_shared(json& row, size_t shared, const std::vector<std::string>& with_paths);

// Accumulates rows into the summary's totals.
class StatsTotals {
 public:
  void add(const TranscriptTally& tally);
  // `shared`: what find_shared_records found across the rows added.
  void write(json& summary, size_t shared_records, size_t transcripts_sharing) const;

 private:
  TranscriptTally sum_;
  ScopeTokenLedger api_messages_;
  size_t sessions_ = 0;
  std::optional<EpochMs> first_, last_;
};

}  // namespace csift
