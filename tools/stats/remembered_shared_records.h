// The records transcripts share (shared_records.h) through a server's result memo: a warm `stats` over an
// unchanged scope takes every tally from memory, and matching their record keys across the scope was then
// the largest cost left (~50 ms for the 1,501 transcripts of a 1.1 GiB store).
#pragma once
#include <memory>
#include <vector>

#include "core/cache/result_memo.h"
#include "tools/stats/shared_records.h"

namespace csift {

// find_shared_records over `counted`, remembered for these very tallies (the same objects, in the same
// order): a tally recomputed since (its file changed) is another object, so the scan is done again.
std::shared_ptr<const SharedRecordsScan> remembered_shared_records(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted, ResultMemoUse& use);

}  // namespace csift
