#include "core/base/timefmt.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <ctime>

#include "core/base/error.h"

namespace timefmt_unit {

using namespace csift;

namespace {

// Sets the process zone for one test and restores the previous one, so tests stay order-independent.
class ScopedTimeZone {
 public:
  explicit ScopedTimeZone(const char* zone) {
    if (const char* old = std::getenv("TZ")) saved_ = old;
    setenv("TZ", zone, 1);
    tzset();
  }
  ~ScopedTimeZone() {
    if (saved_) {
      setenv("TZ", saved_->c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }

 private:
  std::optional<std::string> saved_;
};

constexpr EpochMs k2026_06_07_0543Z = 1780810980000;  // 2026-06-07T05:43:00.000Z

ErrorKind kind_of_failure(auto&& fn) {
  try {
    fn();
  } catch (const ToolError& e) {
    return e.kind();
  }
  FAIL("expected a ToolError");
  return ErrorKind::failure;
}

}  // namespace

TEST_CASE("parse_iso8601 reads Z, offsets and fractions") {
  CHECK(parse_iso8601("2026-06-07T05:43:00.000Z") == k2026_06_07_0543Z);
  CHECK(parse_iso8601("2026-06-07T05:43:00Z") == k2026_06_07_0543Z);
  CHECK(parse_iso8601("2026-06-07T15:43:00+10:00") == k2026_06_07_0543Z);
  CHECK(parse_iso8601("2026-06-07T11:13:00.000+0530") == k2026_06_07_0543Z);
  CHECK(parse_iso8601("2026-06-07T05:43:00.123456Z") == k2026_06_07_0543Z + 123);
  CHECK(parse_iso8601("2026-06-07T05:43:00.5Z") == k2026_06_07_0543Z + 500);
  CHECK(parse_iso8601("1969-12-31T23:59:59.999Z") == -1);
  CHECK_FALSE(parse_iso8601("2026-06-07").has_value());
  CHECK_FALSE(parse_iso8601("yesterday").has_value());
  CHECK_FALSE(parse_iso8601("2026-13-07T05:43:00Z").has_value());
  CHECK_FALSE(parse_iso8601("2026-06-07T05:43:00+1x:00").has_value());
}

TEST_CASE("format_utc and format_local_iso render the JSON pair") {
  ScopedTimeZone tz("Australia/Sydney");
  CHECK(format_utc(k2026_06_07_0543Z) == "2026-06-07T05:43:00.000Z");
  CHECK(format_utc(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(format_local_iso(k2026_06_07_0543Z) == "2026-06-07T15:43:00.000+10:00");
}

TEST_CASE("format_local: abbreviation + compact whole-hour offset, DST-correct") {
  ScopedTimeZone tz("Australia/Sydney");
  CHECK(format_local(k2026_06_07_0543Z) == "2026-06-07 15:43:00 AEST(UTC+10)");
  CHECK(format_local(k2026_06_07_0543Z + 7, true) == "2026-06-07 15:43:00.007 AEST(UTC+10)");
  const EpochMs january = *parse_iso8601("2026-01-15T00:00:00Z");
  CHECK(format_local(january) == "2026-01-15 11:00:00 AEDT(UTC+11)");
}

TEST_CASE("format_local: fractional offsets are zero-padded") {
  ScopedTimeZone tz("Asia/Kolkata");
  CHECK(format_local(k2026_06_07_0543Z) == "2026-06-07 11:13:00 IST(UTC+05:30)");
  CHECK(format_local_iso(k2026_06_07_0543Z) == "2026-06-07T11:13:00.000+05:30");
}

TEST_CASE("format_local: UTC and zones without an abbreviation") {
  {
    ScopedTimeZone tz("UTC");
    CHECK(format_local(k2026_06_07_0543Z) == "2026-06-07 05:43:00 UTC(UTC+0)");
    CHECK(format_local_iso(k2026_06_07_0543Z) == "2026-06-07T05:43:00.000+00:00");
  }
  {
    ScopedTimeZone tz("<+0530>-5:30");  // POSIX TZ whose abbreviation is numeric
    CHECK(format_local(k2026_06_07_0543Z) == "2026-06-07 11:13:00 (UTC+05:30)");
  }
  {
    ScopedTimeZone tz("<-03>3");
    CHECK(format_local(k2026_06_07_0543Z) == "2026-06-07 02:43:00 (UTC-3)");
  }
}

TEST_CASE("parse_when: absolute forms") {
  ScopedTimeZone tz("Australia/Sydney");
  const EpochMs now = k2026_06_07_0543Z;
  CHECK(parse_when("2026-06-07T05:43:00Z", now, "--since") == k2026_06_07_0543Z);
  CHECK(parse_when("2026-06-07T15:43:00+10:00", now, "--since") == k2026_06_07_0543Z);
  // A bare datetime is local wall clock, never midnight (the v0.6.5 bug).
  CHECK(parse_when("2026-06-07T15:43:00", now, "--since") == k2026_06_07_0543Z);
  CHECK(parse_when("2026-06-07 15:43", now, "--since") == k2026_06_07_0543Z);
  CHECK(parse_when("2026-06-07T20:00:00", now, "--since") !=
        parse_when("2026-06-07T08:00:00", now, "--since"));
  // A bare date is local midnight.
  CHECK(parse_when("2026-06-07", now, "--since") == *parse_iso8601("2026-06-06T14:00:00Z"));
}

TEST_CASE("parse_when: relative forms and now") {
  ScopedTimeZone tz("UTC");
  const EpochMs now = k2026_06_07_0543Z;
  const EpochMs minute = 60'000, hour = 60 * minute, day = 24 * hour;
  CHECK(parse_when("now", now, "--since") == now);
  CHECK(parse_when("90m", now, "--since") == now - 90 * minute);
  CHECK(parse_when("2h", now, "--since") == now - 2 * hour);
  CHECK(parse_when("-2h", now, "--since") == now - 2 * hour);
  CHECK(parse_when("3d", now, "--since") == now - 3 * day);
  CHECK(parse_when("2w", now, "--since") == now - 14 * day);
  CHECK(parse_when("2mo", now, "--since") == *parse_iso8601("2026-04-07T05:43:00Z"));
  CHECK(parse_when("1y", now, "--since") == *parse_iso8601("2025-06-07T05:43:00Z"));
}

TEST_CASE("parse_when: garbage is a usage error naming every form") {
  CHECK(kind_of_failure([] { parse_when("tomorrow", 0, "--since"); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_when("2026-06-07T05:43:00+1x", 0, "--since"); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_when("5x", 0, "--since"); }) == ErrorKind::usage);
  try {
    parse_when("soon", 0, "--until");
  } catch (const ToolError& e) {
    const std::string m = e.what();
    CHECK(m.find("--until") != std::string::npos);
    CHECK(m.find("bare date") != std::string::npos);
    CHECK(m.find("2mo") != std::string::npos);
    CHECK(m.find("now") != std::string::npos);
    CHECK(m.find("offset") != std::string::npos);
  }
}

TEST_CASE("parse_range: the token grammar") {
  auto r = parse_range("5", "--turn", false);
  CHECK((r.single && r.lo == 5 && r.hi == 5 && !r.open));
  r = parse_range("2..7", "--turn", false);
  CHECK((!r.single && r.lo == 2 && r.hi == 7 && !r.open));
  r = parse_range("3..", "--turn", false);
  CHECK((r.lo == 3 && !r.hi && r.open));
  r = parse_range("..4", "--turn", false);
  CHECK((!r.lo && r.hi == 4 && r.open));
  r = parse_range("-3..", "--turn", false);
  CHECK((r.lo == -3 && !r.hi && r.open));
  r = parse_range("-1", "--turn", false);
  CHECK((r.single && r.lo == -1 && r.open));
  r = parse_range("..", "--turn", false);
  CHECK((!r.lo && !r.hi && r.open));
  CHECK(r.text == "..");
}

TEST_CASE("parse_range: rejections teach the grammar") {
  try {
    parse_range("3-5", "--line", true);
    FAIL("A-B must be rejected");
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("3..5") != std::string::npos);
  }
  CHECK(kind_of_failure([] { parse_range("9..3", "--turn", false); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_range("-1..-3", "--turn", false); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_range("abc", "--turn", false); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_range("", "--turn", false); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_range("0", "--line", true); }) == ErrorKind::usage);
  CHECK(parse_range("0", "--turn", false).lo == 0);
}

TEST_CASE("resolve_range: every form clamps; only a range with nothing left is a miss") {
  auto resolve = [](const char* s, int64_t first, int64_t last) {
    return resolve_range(parse_range(s, "--turn", false), first, last);
  };
  auto r = resolve("-3..", 0, 9);
  CHECK((r && r->lo == 7 && r->hi == 9));
  r = resolve("-3..", 0, 1);
  CHECK((r && r->lo == 0 && r->hi == 1));
  r = resolve("-1", 0, 9);
  CHECK((r && r->lo == 9 && r->hi == 9));
  CHECK_FALSE(resolve("-5", 0, 1).has_value());
  r = resolve("..", 1, 4);
  CHECK((r && r->lo == 1 && r->hi == 4));
  r = resolve("..100", 0, 4);
  CHECK((r && r->lo == 0 && r->hi == 4));
  r = resolve("2..3", 0, 9);
  CHECK((r && r->lo == 2 && r->hi == 3));
  CHECK_FALSE(resolve("12", 0, 9).has_value());
  CHECK_FALSE(resolve("10..12", 0, 9).has_value());
  CHECK_FALSE(resolve("..", 0, -1).has_value());
}

TEST_CASE("resolve_range: a closed range partly past the end clamps") {
  auto r = resolve_range(parse_range("5..100", "--turn", false), 0, 9);
  CHECK((r && r->lo == 5 && r->hi == 9));
  r = resolve_range(parse_range("6..1000", "--line", true), 1, 8);
  CHECK((r && r->lo == 6 && r->hi == 8));
}

TEST_CASE("parse_range: -0 is refused for turns as for lines") {
  for (const char* token : {"-0", "-0..", "..-0", "2..-0"}) {
    CAPTURE(token);
    try {
      parse_range(token, "--turn", false);
      FAIL("-0 must be refused");
    } catch (const ToolError& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(std::string(e.what()).find("-0 is not a position") != std::string::npos);
    }
  }
  CHECK(kind_of_failure([] { parse_range("-0", "--line", true); }) == ErrorKind::usage);
  CHECK(parse_range("0..", "--turn", false).lo == 0);
}

TEST_CASE("parse_when: today and yesterday are local midnights") {
  ScopedTimeZone tz("Australia/Sydney");
  const EpochMs now = k2026_06_07_0543Z;  // 15:43 on 7 June in Sydney (UTC+10)
  CHECK(parse_when("today", now, "--since") == *parse_iso8601("2026-06-06T14:00:00Z"));
  CHECK(parse_when("yesterday", now, "--since") == *parse_iso8601("2026-06-05T14:00:00Z"));
  CHECK(parse_when(" today ", now, "--since") == parse_when("2026-06-07", now, "--since"));
}

TEST_CASE("parse_when: dates and times the calendar does not have are refused") {
  ScopedTimeZone tz("UTC");
  for (const char* bad : {"2026-02-30", "2025-02-29", "2026-04-31T10:00:00Z", "2026-06-07T23:59:60",
                          "2026-06-07T23:59:60+02:00"}) {
    CAPTURE(bad);
    try {
      parse_when(bad, 0, "--since");
      FAIL("an impossible date must be refused");
    } catch (const ToolError& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(std::string(e.what()).find("is not a calendar date and time") != std::string::npos);
    }
  }
  CHECK(parse_when("2024-02-29", 0, "--since") == *parse_iso8601("2024-02-29T00:00:00Z"));
  CHECK(parse_when("2026-06-07T23:59:59Z", 0, "--since") == *parse_iso8601("2026-06-07T23:59:59Z"));
}

TEST_CASE("parse_when: an empty value is refused") {
  CHECK(kind_of_failure([] { parse_when("", 0, "--since"); }) == ErrorKind::usage);
  CHECK(kind_of_failure([] { parse_when("  ", 0, "--since"); }) == ErrorKind::usage);
}

}  // namespace timefmt_unit
