// Time: the WHEN grammar (--since/--until), range tokens (--turn/--line), and the canonical text and JSON
// timestamp forms (SPEC.md §5).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// Milliseconds since the Unix epoch (UTC).
using EpochMs = int64_t;

// Parses an on-disk ISO-8601 timestamp ("2026-06-07T05:43:00.000Z", with or without fraction/offset).
std::optional<EpochMs> parse_iso8601(std::string_view s);

// WHEN: ISO 8601 with offset/Z; a bare datetime (system-local wall clock); a bare date (local midnight);
// `today` / `yesterday` (local midnight); relative `90m` `2h` `3d` `2w` `2mo` `1y` (a leading '-' tolerated)
// counted back from now; `now`. Throws ToolError(usage) naming the accepted forms, and on a date or time the
// calendar does not have (2026-02-30, 23:59:60) or an empty value.
// `arg_name` is how messages name the argument: an arg_ref() token (core/base/arg_ref.h).
EpochMs parse_when(std::string_view s, EpochMs now, std::string_view arg_name);

// Text form: `YYYY-MM-DD HH:MM:SS[.mmm] <TZ>(UTC±hh[:mm])` in the system zone; no-abbreviation zones
// render `(UTC±hh[:mm])` alone.
std::string format_local(EpochMs t, bool millis = false);
// JSON pair: `_utc` is the raw ISO string when given (kept as on disk) else formatted Z; `_local` is the same
// instant with the system offset, e.g. 2026-06-07T15:43:00.000+10:00.
std::string format_utc(EpochMs t);
std::string format_local_iso(EpochMs t);

EpochMs now_ms();

// A since/until window (either end optional); the tools parse it from their arguments (scope_args.h).
struct TimeWindow {
  std::optional<EpochMs> since, until;
  bool bounded() const { return since || until; }
  bool contains(EpochMs t) const { return (!since || t >= *since) && (!until || t <= *until); }
  // Whether [first, last] meets the window (a point span when only one end is known).
  bool intersects(EpochMs first, EpochMs last) const {
    return (!since || last >= *since) && (!until || first <= *until);
  }
};

// Range tokens: `N`, `A..B`, `N..`, `..N`, `-k` (k-th from the end), `..`. Resolved against a domain size.
struct RangeSpec {
  // Unresolved endpoints; from-end values are negative (-k). nullopt = open.
  std::optional<int64_t> lo, hi;
  bool single = false;  // `N` or `-k` alone
  bool open = false;    // any open or from-end form
  std::string text;
};
// Throws ToolError(usage) on `A-B` (teaches `..`), a reversed closed range, `-0`, or garbage.
RangeSpec parse_range(std::string_view s, std::string_view arg_name, bool one_based);
// Resolves to an inclusive [lo, hi] clamped to [first, last] (a closed range partly past the end keeps the
// part that exists); nullopt when nothing is left.
struct ResolvedRange {
  int64_t lo, hi;
};
std::optional<ResolvedRange> resolve_range(const RangeSpec& r, int64_t first, int64_t last);

}  // namespace csift
