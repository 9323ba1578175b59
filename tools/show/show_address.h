// Resolves a show address (--line / --uuid / --turn) against one classified transcript (SPEC.md §9.3):
// explicit positions that name nothing are hard errors naming the domain, open forms clamp, and a fetch that
// renders nothing points at --raw.
#pragma once
#include <cstdint>
#include <vector>

#include "core/store/classified_transcript.h"
#include "tools/show/show_request.h"

namespace csift {

struct SelectedEntry {
  size_t entry = 0;           // index into ClassifiedTranscript::entries
  std::vector<size_t> units;  // the entry's units to render, in order
};

struct ShowSelection {
  std::vector<SelectedEntry> entries;  // render order: file order, then merged sidecar records
  uint64_t non_record_lines = 0;       // addressed lines holding no renderable record
  uint64_t gated_omitted = 0;          // gated-leaf records a turn fetch leaves out (reach them with --line)
};

// Throws ToolError(not_found) when the address resolves to nothing renderable.
ShowSelection select_addressed(const ShowRequest& req, const ClassifiedTranscript& ct);

// The lines an address names, as merged inclusive ranges, sorted and disjoint (--raw, the cap continuation
// and the sparse load use them). Throws the same domain errors as select_addressed for explicit positions
// outside the file.
std::vector<LineSpan> resolve_line_spans(const std::vector<RangeSpec>& specs, uint64_t total_lines);

// `no such turn(s): t99 — the transcript has 2 turn(s) (t0..t1); …` (an explicit turn address that names
// nothing).
std::string turn_miss_message(const RangeSpec& turns, int turn_count);

// What stays --raw-only, for every error that points a reader at --raw (v0.10.0 ⑧).
extern const char* const kRawOnlyLines;

}  // namespace csift
