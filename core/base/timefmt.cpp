#include "core/base/timefmt.h"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/base/error.h"
#include "core/base/text.h"

namespace csift {
namespace {

constexpr int64_t kMsPerSecond = 1000;
constexpr int64_t kMsPerMinute = 60 * kMsPerSecond;
constexpr int64_t kMsPerHour = 60 * kMsPerMinute;
constexpr int64_t kMsPerDay = 24 * kMsPerHour;

// Howard Hinnant's days_from_civil: proleptic Gregorian date -> days since 1970-01-01, no libc zone state.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

enum class OffsetForm { none, zulu, numeric };

// The pieces of an ISO-8601 date or datetime, before any zone is applied.
struct IsoParts {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
  bool has_time = false;
  OffsetForm offset = OffsetForm::none;
  int offset_minutes = 0;
};

class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[i_]; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++i_;
    return true;
  }
  // Exactly n ASCII digits.
  bool digits(size_t n, int& out) {
    if (i_ + n > s_.size()) return false;
    int v = 0;
    for (size_t k = 0; k < n; ++k) {
      const char c = s_[i_ + k];
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    i_ += n;
    out = v;
    return true;
  }
  // One or more digits, keeping the first three as milliseconds (sub-millisecond precision is dropped).
  bool fraction_millis(int& out) {
    size_t n = 0;
    int v = 0;
    while (!done() && peek() >= '0' && peek() <= '9') {
      if (n < 3) v = v * 10 + (peek() - '0');
      ++n;
      ++i_;
    }
    for (size_t k = n; k < 3; ++k)
      v *= 10;
    out = v;
    return n > 0;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

bool parse_offset(Cursor& c, IsoParts& p) {
  if (c.done()) return true;
  if (c.eat('Z') || c.eat('z')) {
    p.offset = OffsetForm::zulu;
    return c.done();
  }
  const char sign = c.peek();
  if (sign != '+' && sign != '-') return false;
  c.eat(sign);
  int hh = 0, mm = 0;
  if (!c.digits(2, hh)) return false;
  c.eat(':');
  if (!c.done() && !c.digits(2, mm)) return false;
  if (!c.done() || hh > 23 || mm > 59) return false;
  p.offset = OffsetForm::numeric;
  p.offset_minutes = (sign == '-' ? -1 : 1) * (hh * 60 + mm);
  return true;
}

bool plausible(const IsoParts& p) {
  return p.month >= 1 && p.month <= 12 && p.day >= 1 && p.day <= 31 && p.hour <= 23 && p.minute <= 59 &&
         p.second <= 60;
}

// `YYYY-MM-DD`, optionally followed by `T`/space `HH:MM[:SS[.fff]]` and `Z`/`±hh[:]mm`.
std::optional<IsoParts> parse_iso_parts(std::string_view s) {
  Cursor c(s);
  IsoParts p;
  if (!c.digits(4, p.year) || !c.eat('-') || !c.digits(2, p.month) || !c.eat('-') || !c.digits(2, p.day)) {
    return std::nullopt;
  }
  if (c.done()) return plausible(p) ? std::optional(p) : std::nullopt;
  if (!c.eat('T') && !c.eat('t') && !c.eat(' ')) return std::nullopt;
  p.has_time = true;
  if (!c.digits(2, p.hour) || !c.eat(':') || !c.digits(2, p.minute)) return std::nullopt;
  if (c.eat(':')) {
    if (!c.digits(2, p.second)) return std::nullopt;
    if ((c.eat('.') || c.eat(',')) && !c.fraction_millis(p.millis)) return std::nullopt;
  }
  if (!parse_offset(c, p) || !plausible(p)) return std::nullopt;
  return p;
}

EpochMs utc_epoch_of(const IsoParts& p) {
  const int64_t days = days_from_civil(p.year, static_cast<unsigned>(p.month), static_cast<unsigned>(p.day));
  return days * kMsPerDay + p.hour * kMsPerHour + p.minute * kMsPerMinute + p.second * kMsPerSecond +
         p.millis;
}

// A wall-clock time in the system zone (DST resolved by mktime).
EpochMs local_epoch_of(const IsoParts& p) {
  std::tm tm{};
  tm.tm_year = p.year - 1900;
  tm.tm_mon = p.month - 1;
  tm.tm_mday = p.day;
  tm.tm_hour = p.hour;
  tm.tm_min = p.minute;
  tm.tm_sec = p.second;
  tm.tm_isdst = -1;
  return static_cast<EpochMs>(std::mktime(&tm)) * kMsPerSecond + p.millis;
}

std::tm local_tm(EpochMs t) {
  const std::time_t secs = static_cast<std::time_t>(floor_div(t, kMsPerSecond));
  std::tm tm{};
  localtime_r(&secs, &tm);
  return tm;
}

int millis_part(EpochMs t) {
  return static_cast<int>(t - floor_div(t, kMsPerSecond) * kMsPerSecond);
}

// `+10` for whole hours, `+05:30` otherwise (SPEC.md §5).
std::string compact_offset(long gmtoff_seconds) {
  const long minutes = gmtoff_seconds / 60;
  const char sign = minutes < 0 ? '-' : '+';
  const long abs_minutes = minutes < 0 ? -minutes : minutes;
  char buf[48];
  if (abs_minutes % 60 == 0) {
    std::snprintf(buf, sizeof buf, "%c%ld", sign, abs_minutes / 60);
  } else {
    std::snprintf(buf, sizeof buf, "%c%02ld:%02ld", sign, abs_minutes / 60, abs_minutes % 60);
  }
  return buf;
}

// A zone like Asia/Dubai on some tzdata builds reports tm_zone "+04": a number, not an abbreviation.
bool is_real_abbreviation(const char* zone) {
  if (zone == nullptr || *zone == '\0') return false;
  return *zone != '+' && *zone != '-' && !(*zone >= '0' && *zone <= '9');
}

std::string date_time_text(const std::tm& tm, char separator) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d%c%02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, separator, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string millis_text(EpochMs t) {
  char buf[16];
  std::snprintf(buf, sizeof buf, ".%03d", millis_part(t));
  return buf;
}

[[noreturn]] void when_usage_error(std::string_view arg_name, std::string_view value) {
  usage_error(
      std::string(arg_name) + ": cannot read \"" + std::string(value) +
      "\" as a time; accepted forms: ISO 8601 with an offset or Z (2026-07-13T20:00:00+10:00, "
      "2026-07-13T10:00:00Z), a bare local datetime (2026-07-13T20:00:00 or \"2026-07-13 20:00\", "
      "system-local wall clock), a bare date (2026-07-13 = local midnight), a relative age counted back "
      "from now (90m, 2h, 3d, 2w, 2mo, 1y; a leading '-' is tolerated), or `now`");
}

bool is_leap_year(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

// A typed date or time that names no instant (2026-02-30, 23:59:60) is refused, never normalised by mktime
// into another day.
void check_calendar(const IsoParts& p, std::string_view arg_name, std::string_view value) {
  std::string why;
  if (p.day > days_in_month(p.year, p.month)) {
    why = std::to_string(p.year) + "-" + (p.month < 10 ? "0" : "") + std::to_string(p.month) + " has " +
          std::to_string(days_in_month(p.year, p.month)) + " days";
  } else if (p.second > 59) {
    why = "seconds run from 00 to 59";
  }
  if (why.empty()) return;
  usage_error(std::string(arg_name) + ": \"" + std::string(value) + "\" is not a calendar date and time (" +
              why + ")");
}

// `today` and `yesterday`: the local midnight that starts the day, as a user types them.
std::optional<EpochMs> parse_day_word(std::string_view s, EpochMs now) {
  int back = -1;
  if (s == "today") back = 0;
  if (s == "yesterday") back = 1;
  if (back < 0) return std::nullopt;
  std::tm tm = local_tm(now);
  tm.tm_mday -= back;
  tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
  tm.tm_isdst = -1;
  return static_cast<EpochMs>(std::mktime(&tm)) * kMsPerSecond;
}

// `90m` `2h` `3d` `2w` `2mo` `1y`, optionally with a leading '-'. Months and years are calendar steps in the
// system zone, so `1mo` on 31 March lands on the last days of February/early March as mktime normalises it.
std::optional<EpochMs> parse_relative(std::string_view s, EpochMs now) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  size_t i = 0;
  int64_t n = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i < 12)
    n = n * 10 + (s[i++] - '0');
  if (i == 0) return std::nullopt;
  const std::string_view unit = s.substr(i);
  if (unit == "m") return now - n * kMsPerMinute;
  if (unit == "h") return now - n * kMsPerHour;
  if (unit == "d") return now - n * kMsPerDay;
  if (unit == "w") return now - n * 7 * kMsPerDay;
  if (unit != "mo" && unit != "y") return std::nullopt;
  std::tm tm = local_tm(now);
  if (unit == "mo") tm.tm_mon -= static_cast<int>(n);
  if (unit == "y") tm.tm_year -= static_cast<int>(n);
  tm.tm_isdst = -1;
  return static_cast<EpochMs>(std::mktime(&tm)) * kMsPerSecond + millis_part(now);
}

}  // namespace

std::optional<EpochMs> parse_iso8601(std::string_view s) {
  const auto p = parse_iso_parts(s);
  if (!p || !p->has_time) return std::nullopt;
  const EpochMs wall = utc_epoch_of(*p);
  return wall - static_cast<int64_t>(p->offset_minutes) * kMsPerMinute;
}

EpochMs parse_when(std::string_view raw, EpochMs now, std::string_view arg_name) {
  const std::string_view s = trim(raw, kBlanks);
  if (s == "now") return now;
  if (auto day = parse_day_word(s, now)) return *day;
  if (auto rel = parse_relative(s, now)) return *rel;
  const auto p = parse_iso_parts(s);
  if (!p) when_usage_error(arg_name, raw);
  check_calendar(*p, arg_name, raw);
  if (p->offset != OffsetForm::none) {
    return utc_epoch_of(*p) - static_cast<int64_t>(p->offset_minutes) * kMsPerMinute;
  }
  return local_epoch_of(*p);  // bare datetime = local wall clock; bare date = local midnight
}

std::string format_local(EpochMs t, bool millis) {
  const std::tm tm = local_tm(t);
  std::string out = date_time_text(tm, ' ');
  if (millis) out += millis_text(t);
  out += ' ';
  if (is_real_abbreviation(tm.tm_zone)) out += tm.tm_zone;
  out += "(UTC" + compact_offset(tm.tm_gmtoff) + ")";
  return out;
}

std::string format_utc(EpochMs t) {
  const int64_t days = floor_div(t, kMsPerDay);
  std::tm tm{};
  // Civil-from-days (Hinnant), inverse of days_from_civil.
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  tm.tm_year = static_cast<int>(static_cast<int64_t>(yoe) + era * 400 + (m <= 2)) - 1900;
  tm.tm_mon = static_cast<int>(m) - 1;
  tm.tm_mday = static_cast<int>(d);
  const int64_t ms_of_day = t - days * kMsPerDay;
  tm.tm_hour = static_cast<int>(ms_of_day / kMsPerHour);
  tm.tm_min = static_cast<int>(ms_of_day / kMsPerMinute % 60);
  tm.tm_sec = static_cast<int>(ms_of_day / kMsPerSecond % 60);
  return date_time_text(tm, 'T') + millis_text(t) + "Z";
}

std::string format_local_iso(EpochMs t) {
  const std::tm tm = local_tm(t);
  const long minutes = tm.tm_gmtoff / 60;
  const long abs_minutes = minutes < 0 ? -minutes : minutes;
  char offset[48];
  std::snprintf(offset, sizeof offset, "%c%02ld:%02ld", minutes < 0 ? '-' : '+', abs_minutes / 60,
                abs_minutes % 60);
  return date_time_text(tm, 'T') + millis_text(t) + offset;
}

EpochMs now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace csift
