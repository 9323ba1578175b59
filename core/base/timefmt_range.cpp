// The shared range-token grammar (declared in timefmt.h): `N`, `A..B`, `N..`, `..N`, `-k`, `..`.
#include <algorithm>
#include <charconv>

#include "core/base/error.h"
#include "core/base/timefmt.h"

namespace csift {
namespace {

constexpr const char* kRangeForms =
    "accepted forms: N, A..B (inclusive), N.. (to the end), ..N (from the start), -k (the k-th from the end; "
    "-3.. = the last 3), .. (everything)";

[[noreturn]] void range_error(std::string_view arg_name, std::string_view s, const std::string& why) {
  usage_error(std::string(arg_name) + ": " + why + " in \"" + std::string(s) + "\"; " + kRangeForms);
}

// An optionally negative integer filling the whole of `s`.
std::optional<int64_t> parse_endpoint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t v = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr != last) return std::nullopt;
  return v;
}

bool is_dash_range(std::string_view s) {
  const size_t dash = s.find('-', 1);
  if (dash == std::string_view::npos || s.front() == '-') return false;
  return parse_endpoint(s.substr(0, dash)).has_value() &&
         parse_endpoint(s.substr(dash + 1)).value_or(-1) >= 0;
}

// `text` is the endpoint as typed: `-0` reads as 0 but names no from-end position (-1 is the last).
void check_endpoint(std::optional<int64_t> v, std::string_view text, std::string_view arg_name,
                    std::string_view s, bool one_based) {
  if (!v) return;
  if (*v == 0 && !text.empty() && text.front() == '-')
    range_error(arg_name, s, "-0 is not a position (-1 is the last, -k the k-th from the end)");
  if (one_based && *v == 0) range_error(arg_name, s, "0 is not a position (numbering starts at 1)");
}

// -k from the end resolves to last-k+1; non-negative values are absolute.
int64_t absolute(int64_t v, int64_t last) {
  return v < 0 ? last + v + 1 : v;
}

}  // namespace

RangeSpec parse_range(std::string_view s, std::string_view arg_name, bool one_based) {
  RangeSpec r;
  r.text = std::string(s);
  if (s.empty()) range_error(arg_name, s, "empty range");
  const size_t dots = s.find("..");
  if (dots == std::string_view::npos) {
    if (is_dash_range(s)) {
      const size_t dash = s.find('-', 1);
      range_error(arg_name, s,
                  "the dash form A-B is not a range; write " + std::string(s.substr(0, dash)) + ".." +
                      std::string(s.substr(dash + 1)));
    }
    const auto v = parse_endpoint(s);
    if (!v) range_error(arg_name, s, "not a number or range");
    check_endpoint(v, s, arg_name, s, one_based);
    r.lo = r.hi = v;
    r.single = true;
    r.open = *v < 0;
    return r;
  }
  const std::string_view left = s.substr(0, dots), right = s.substr(dots + 2);
  if (!left.empty() && !(r.lo = parse_endpoint(left))) range_error(arg_name, s, "bad start");
  if (!right.empty() && !(r.hi = parse_endpoint(right))) range_error(arg_name, s, "bad end");
  check_endpoint(r.lo, left, arg_name, s, one_based);
  check_endpoint(r.hi, right, arg_name, s, one_based);
  r.open = !r.lo || !r.hi || *r.lo < 0 || *r.hi < 0;
  const bool same_sign = r.lo && r.hi && ((*r.lo < 0) == (*r.hi < 0));
  if (same_sign && *r.lo > *r.hi) {
    range_error(
        arg_name, s,
        "reversed range (start after end); write " + std::to_string(*r.hi) + ".." + std::to_string(*r.lo));
  }
  return r;
}

std::optional<ResolvedRange> resolve_range(const RangeSpec& r, int64_t first, int64_t last) {
  if (last < first) return std::nullopt;
  int64_t lo = r.lo ? absolute(*r.lo, last) : first;
  int64_t hi = r.hi ? absolute(*r.hi, last) : last;
  // Every form clamps to the domain (a closed range partly past the end keeps the part that exists); only a
  // range left with nothing in it is a miss.
  lo = std::max(lo, first);
  hi = std::min(hi, last);
  if (lo > hi) return std::nullopt;
  return ResolvedRange{lo, hi};
}

}  // namespace csift
