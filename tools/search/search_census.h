// `search --count-by AXIS` (SPEC.md §9.2, v0.5.0 ②, v0.6.0 ②-③, v0.6.3 ③, v0.8.1, v0.8.2): a per-key census
// of the matched RECORDS of a scan along one closed axis. `label` multi-counts (a record counts under every
// leaf of its matched units that passes -t/-T, so a leaf's count is what `-t <leaf>` would surface); every
// other axis counts a record ONCE under the first keyed unit among its hits and excludes — and reports — the
// records outside its domain.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "tools/search/search_types.h"

namespace csift {

struct CensusRow {
  std::string key;
  uint64_t records = 0;
};

struct Census {
  CountAxis axis = CountAxis::label;
  std::vector<CensusRow> rows;    // output order, after the --max-count cap
  uint64_t matched_records = 0;   // every matched record, the excluded ones included
  uint64_t excluded_records = 0;  // matched records outside the axis's domain (never on `label`)
  // pairing: excluded records whose hits are record-text communication units (no tool_use_id to join).
  uint64_t excluded_comm_records = 0;
  size_t distinct_keys = 0;  // before the cap
  size_t dropped_by_cap = 0;
};

// The key of one matched record on a single-count axis; std::nullopt when the record is outside the axis's
// domain. `label` has no single key (see census_labels). `qualify_turns`: turn keys carry the transcript id.
std::optional<std::string> census_key(CountAxis axis, const TranscriptHits& th, const RecordHit& rh,
                                      bool qualify_turns);

// The leaves one matched record counts under on the `label` axis: every label of its matched units that the
// request's -t/-T predicate admits, each once.
LabelSet census_labels(const SearchRequest& req, const TranscriptHits& th, const RecordHit& rh);

// The tally as the scan's workers finish their transcripts (add() is thread-safe and order-independent), so
// no transcript's model outlives its worker. finish() sorts (label richest-first, turn ascending, the rest
// count-descending with ties by key) and caps (--max-count N keeps the first N keys, -N the last N).
// One key's count plus what orders it: the turn axis is a histogram in (scope position, turn) order.
struct CensusKeyTally {
  uint64_t records = 0;
  size_t scope_index = 0;
  int turn = 0;
};

class CensusTally {
 public:
  // qualify_turns: more than one transcript is in scope, so turn keys carry the transcript id.
  CensusTally(const SearchRequest& req, bool qualify_turns);
  void add(const TranscriptHits& th);
  Census finish();

 private:
  const SearchRequest& req_;
  CountAxis axis_;
  bool qualify_turns_;
  std::mutex mu_;
  std::map<std::string, CensusKeyTally> tallies_;
  Census census_;
};

// The same over a scan that kept its transcripts' models.
Census tally_census(const SearchRequest& req, const SearchScan& scan);

// The --count-by envelope: search's header, one `census` row per key, the census summary and the
// record-accounting notes (stderr on the CLI).
Envelope census_envelope(const SearchRequest& req, const Scope& scope, const SearchScan& scan);
Envelope census_envelope(const SearchRequest& req, const Scope& scope, const SearchScan& scan,
                         const Census& census);

// `<count> <key>` per row.
std::string render_census_text(const Envelope& env);

}  // namespace csift
