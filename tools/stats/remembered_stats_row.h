// One `stats` row through a server's result memo: with every tally from memory, building 1,501 rows (~30
// fields and four census objects each) was among the largest costs of a warm stats left.
#pragma once
#include <memory>
#include <string>

#include "core/cache/result_memo.h"
#include "tools/stats/stats_row.h"

namespace csift {

// stats_row(t, *tally), remembered in `memo` (the call's result memo, or null) while its inputs are the
// same: the very tally object it was built from (a tally recomputed since is another object) and the
// transcript's discovered identity, spelled in the key. The row comes unmarked (no shared records); stats
// marks the sharing rows afterwards.
json remembered_stats_row(const Transcript& t, const std::shared_ptr<const TranscriptTally>& tally,
                          ResultMemo* memo, ResultMemoUse& use);

// Every input of stats_row besides the tally and the path, spelled as one string (equal strings, equal
// inputs).
std::string stats_row_inputs(const Transcript& t);

}  // namespace csift
