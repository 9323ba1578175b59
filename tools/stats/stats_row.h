// The JSON of `stats`: one `session` row per transcript and the scope totals the summary carries (totals sum
// the rows; the same API message seen in two transcripts is two genuine per-transcript facts).
#pragma once
#include "core/base/envelope.h"
#include "core/store/store.h"
#include "tools/stats/stats_tally.h"

namespace csift {

json stats_row(const Transcript& t, const TranscriptTally& tally);

// Accumulates rows into the summary's totals.
class StatsTotals {
 public:
  void add(const TranscriptTally& tally);
  void write(json& summary) const;

 private:
  TranscriptTally sum_;
  size_t sessions_ = 0;
  std::optional<EpochMs> first_, last_;
};

}  // namespace csift
