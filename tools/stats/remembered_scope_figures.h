// What `stats` computes over its whole scope of counted tallies, through a server's result memo: the
// summary's totals, the records transcripts share (shared_records.h) and the marks on the rows that share
// them. With every tally from memory, matching record keys across the scope (~50 ms for the 1,501 transcripts
// of a 1.1 GiB store), summing the tallies (token ledgers, census maps) and marking rows were most of what a
// warm stats had left to do.
#pragma once
#include <memory>
#include <vector>

#include "core/base/envelope.h"
#include "core/cache/result_memo.h"
#include "core/store/store.h"
#include "tools/stats/stats_tally.h"

namespace csift {

// A row sharing records: its index among the counted tallies, how many, and the other transcripts' paths.
struct StatsRowShareMark {
  size_t row = 0;
  size_t records = 0;
  json with;  // an array of paths, as mark_shared writes it
};

struct StatsScopeFigures {
  json summary;  // the fields StatsTotals::write sets, in its order
  std::vector<StatsRowShareMark> marks;
};

// The scope figures of `counted` (paths in `counted_transcripts`, parallel), remembered for these very
// tallies (the same objects, in the same order): a tally recomputed since (its file changed) is another
// object, so the figures are computed again. A remembered tally answers only for its own path, so the same
// tallies mean the same paths.
std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemoUse& use);

// Puts the figures on a stats answer: the summary's fields and the marks on `rows` (parallel to the counted
// tallies the figures were made from).
void apply_scope_figures(const StatsScopeFigures& figures, std::vector<json>& rows, json& summary);

}  // namespace csift
