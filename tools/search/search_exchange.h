// Round-trip exchanges (SPEC.md §9.2): matched records grouped per (transcript, turn), each completed with
// the records that make it a round trip, sorted chronologically across the whole scope and capped.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/timefmt.h"
#include "tools/search/search_types.h"

namespace csift {

// Why an unmatched unit is part of an exchange (SPEC.md §9.2 "the frame"): its turn's opener, the tool
// partner of a matched unit, or the turn's end-of-turn agent text.
enum class FrameRole { none, opener, partner, answer };
const char* frame_role_name(FrameRole r);

// One rendered unit of an exchange: a matched unit (with its span) or a unit of the exchange's frame.
struct ExchangeUnit {
  size_t entry_index = 0;
  size_t unit_index = 0;
  const RecordHit* record_hit = nullptr;  // set for a matched unit
  const UnitHit* unit_hit = nullptr;
  FrameRole frame = FrameRole::none;  // set for a frame unit
};

struct Exchange {
  int turn_index = -1;  // -1: before the first opener, or a superseded draft
  bool superseded_draft = false;
  bool sidechain = false;  // a session file's inline subagent records (Claude Code 1.x)
  std::optional<EpochMs> started;
  std::string started_utc;                // the raw timestamp the start came from
  std::vector<ExchangeUnit> units;        // file order
  std::vector<std::string> record_uuids;  // every record stitched in, file order
};

// One transcript's exchanges, grouped and completed, in turn order.
std::vector<Exchange> transcript_exchanges(const TranscriptHits& th);

struct ExchangeList {
  std::vector<RenderedExchange> kept;  // chronological (oldest first)
  size_t matched = 0;                  // before the cap
  size_t dropped_by_cap = 0;
  std::string dropped_side;  // "later" | "earlier" | ""
  bool undated = false;      // some kept exchange has no timestamp (sorted last)
};

// The one timeline of exchanges across the scope, filled concurrently by the scan's workers and capped as
// it fills: with --max-count N only the N earliest (-N: latest) rows are ever held, so a common word over a
// large store costs the rows it prints, not every row it matched. The order is total — start time, undated
// last, then scope order, then turn order — so the result does not depend on which worker finished first.
class ExchangeTimeline {
 public:
  struct Key {
    bool undated = false;
    EpochMs started{};
    size_t scope_index = 0;
    size_t seq = 0;  // the exchange's place in its transcript (turn order)
    bool operator<(const Key& o) const;
  };
  explicit ExchangeTimeline(int64_t max_count) : max_count_(max_count) {}
  static Key key_of(const std::optional<EpochMs>& started, size_t scope_index, size_t seq);
  // Whether a row with this key would be kept so far (false: do not bother rendering it).
  bool admits(const Key& k) const;
  // Counts one matched exchange; keeps its row when the cap allows (`row` may be null when !admits).
  void offer(const Key& k, const std::optional<EpochMs>& started, json row);
  ExchangeList finish();

 private:
  bool admits_locked(const Key& k) const;
  int64_t max_count_;
  mutable std::mutex mu_;
  std::map<Key, RenderedExchange> kept_;
  size_t matched_ = 0;
};

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
