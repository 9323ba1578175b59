// Round-trip exchanges (spec §6.4): matched records grouped per (transcript, turn), each completed with the
// records that make it a round trip, sorted chronologically across the whole scope and capped.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/timefmt.h"
#include "tools/search_types.h"

namespace csift {

// One rendered unit of an exchange: a matched unit (with its span) or a stitched-in partner/context unit.
struct ExchangeUnit {
  size_t entry_index = 0;
  size_t unit_index = 0;
  const RecordHit* record_hit = nullptr;  // set for a matched unit
  const UnitHit* unit_hit = nullptr;
};

struct Exchange {
  size_t transcript = 0;  // index into SearchScan::transcripts
  int turn_index = -1;    // -1: before the first opener, or a superseded draft
  bool superseded_draft = false;
  std::optional<EpochMs> started;
  std::string started_utc;                // the raw timestamp the start came from
  std::vector<ExchangeUnit> units;        // file order
  std::vector<std::string> record_uuids;  // every record stitched in, file order
};

struct ExchangeList {
  std::vector<Exchange> kept;  // chronological (oldest first)
  size_t matched = 0;          // before the cap
  size_t dropped_by_cap = 0;
  std::string dropped_side;  // "later" | "earlier" | ""
  bool undated = false;      // some kept exchange has no timestamp (sorted last)
};

// Groups, completes, sorts and caps (max_count: N earliest, -N latest, 0 all).
ExchangeList build_exchanges(const SearchScan& scan, int64_t max_count);

// How many exchanges one transcript's hits make (build_exchanges' grouping, without building them).
size_t count_exchange_groups(const TranscriptHits& th);

// -c and -l need only how many exchanges there are and how many a cap keeps.
struct ExchangeCount {
  size_t matched = 0;  // before the cap
  size_t kept = 0;
  size_t dropped_by_cap = 0;
};
ExchangeCount count_exchanges(const SearchScan& scan, int64_t max_count);

}  // namespace csift
