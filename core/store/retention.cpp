#include "core/store/retention.h"

#include <sys/stat.h>

#include <cmath>

#include "core/json/stored_json.h"

namespace csift {

CleanupPeriod claude_cleanup_period(const std::string& claude_home) {
  CleanupPeriod out;
  out.from = "default";
  const std::string file = claude_home + "/settings.json";
  const nlohmann::json settings = read_json_file(file);
  if (!settings.is_object() || !settings.contains("cleanupPeriodDays")) return out;
  const nlohmann::json& v = settings["cleanupPeriodDays"];
  // Claude Code refuses a value below 1 (0 once meant "keep nothing"): the default then stands.
  if (!v.is_number() || !(v.get<double>() >= 1)) {
    out.note = file + " sets cleanupPeriodDays to " + v.dump() +
               ", which Claude Code refuses (at least 1); its default of 30 days is assumed";
    return out;
  }
  out.days = v.get<double>();
  out.from = file;
  return out;
}

std::optional<int64_t> expires_in_days(const Transcript& t, const CleanupPeriod& period, EpochMs now,
                                       int64_t horizon_days) {
  if (t.harness != HarnessId::claude_code) return std::nullopt;
  int64_t mtime_ns = t.mtime_ns;
  struct stat st {};
  if (mtime_ns == 0 && ::stat(t.path.c_str(), &st) == 0)  // a transcript resolved without discovery's stat
    mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  if (mtime_ns == 0) return std::nullopt;
  constexpr double kDayMs = 86400000.0;
  const double deleted_at_ms = static_cast<double>(mtime_ns / 1000000) + period.days * kDayMs;
  // Rounded up: 0 only once the file is past its period (the next start deletes it); 23 hours left is 1.
  const double left = std::ceil((deleted_at_ms - static_cast<double>(now)) / kDayMs);
  if (left > static_cast<double>(horizon_days)) return std::nullopt;
  return left < 0 ? 0 : static_cast<int64_t>(left);
}

}  // namespace csift
