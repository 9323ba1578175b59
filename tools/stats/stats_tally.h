// One transcript's `stats` aggregates (SPEC.md §9.4): a whole-file read whose line census is a file fact,
// while every other figure counts only the records the --since/--until and --turn windows admit.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/timefmt.h"
#include "core/scan/line_scanner.h"
#include "core/store/store.h"
#include "tools/common/scope_args.h"
#include "tools/stats/token_ledger.h"

namespace csift {

struct StatsWindow {
  TimeWindow time;
  std::optional<RangeSpec> turn;  // 0-based turn indices over the FULL transcript, then ANDed with time
  bool bounded() const { return time.bounded() || turn.has_value(); }
};

using CountByName = std::map<std::string, uint64_t>;

struct TranscriptTally {
  // File facts, never windowed.
  uint64_t lines = 0;
  uint64_t skipped_lines = 0;        // exact whole-file census (every line validated)
  uint64_t values_out_of_range = 0;  // numbers beyond a finite double, read as absent (whole file)
  uint64_t bytes = 0;
  CountByName line_types;
  // Counted over the windowed records.
  uint64_t user_records = 0;
  uint64_t assistant_records = 0;
  uint64_t compactions = 0;
  int turns = 0;
  std::string first_timestamp, last_timestamp;
  TokensByModel tokens;
  CountByName narration_blocks;       // per model
  CountByName unknown_thinking_tags;  // signature tag values that are neither thinking nor narration
  CountByName tools;                  // tool_use calls by name
  // The harness's own cost figure where its transcript records one: Claude Code's last cost-state record.
  std::optional<double> harness_cost_usd;
  std::string error;
  // Cross-transcript facts (SPEC.md §9.4): the counted records' uuids (hashed, sorted, unique), to find
  // records another transcript in scope also holds, and the per-message usage the scope total dedupes.
  std::vector<uint64_t> record_keys;
  TokenLedger ledger;
};

TranscriptTally tally_transcript(const Transcript& t, const StatsWindow& window, const CancelToken* cancel);

}  // namespace csift
