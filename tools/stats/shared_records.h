// Records two transcripts in one stats scope both hold (SPEC.md §9.4): a session copied or forked from
// another without a /fork marker carries the other's records, uuids and all. Each row keeps its own
// per-transcript figures; the row is marked with how many of its records another transcript also holds.
#pragma once
#include <cstddef>
#include <vector>

#include "tools/stats/stats_tally.h"

namespace csift {

struct SharedRecords {
  size_t records = 0;        // this transcript's records some other transcript in scope also holds
  std::vector<size_t> with;  // those transcripts, as indices into the tallies given, ascending
};

struct SharedRecordsScan {
  std::vector<SharedRecords> per_transcript;  // parallel to the tallies given
  size_t distinct_records = 0;                // records held by two or more transcripts, each counted once
};

SharedRecordsScan find_shared_records(const std::vector<const TranscriptTally*>& tallies);

}  // namespace csift
