// What `stats` answers over its whole scope of counted tallies, through a server's result memo: every row
// (marked with the records it shares), the summary's totals and the records transcripts share
// (shared_records.h). With every tally from memory, matching record keys across the scope (~50 ms for the
// 1,501 transcripts of a 1.1 GiB store), summing the tallies (token ledgers, census maps), building and
// marking rows were most of what a warm stats had left to do; now it copies them.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/cache/result_memo.h"
#include "core/store/store.h"
#include "tools/stats/stats_tally.h"

namespace csift {

struct StatsScopeFigures {
  std::vector<json> rows;  // one per counted tally, marked with the records it shares
  json summary;            // the fields StatsTotals::write sets, in its order
};

// The rows and figures of `counted` (transcripts in `counted_transcripts`, parallel), remembered for these
// very tallies (the same objects, in the same order) and the transcripts' row inputs: a tally recomputed
// since (its file changed) is another object, so the figures are computed again (each row through
// remembered_stats_row). A remembered tally answers only for its own path, so the same tallies mean the same
// paths.
std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemoUse& use);

// Puts the figures on a stats answer: the summary's fields, and the rows deferred (Envelope::deferred): a
// row is copied only when a page shows it.
void apply_scope_figures(std::shared_ptr<const StatsScopeFigures> figures, Envelope& env);

}  // namespace csift
