#include "tools/common/retention_notes.h"

#include "tools/common/text_fields.h"

namespace csift {

json cleanup_days_json(const CleanupPeriod& period) {
  if (period.days == static_cast<double>(static_cast<int64_t>(period.days)))
    return static_cast<int64_t>(period.days);
  return period.days;
}

std::string expiry_phrase(int64_t days_left) {
  return days_left <= 0 ? "Claude Code's cleanup deletes it at its next start"
                        : "Claude Code's cleanup deletes it in " + std::to_string(days_left) + " day(s)";
}

json expiring_summary(size_t sessions, const CleanupPeriod& period) {
  json j{{"sessions", sessions}, {"within_days", kRetentionHorizonDays}};
  j["cleanup_period_days"] = cleanup_days_json(period);
  j["period_from"] = period.from;
  return j;
}

std::string expiring_line(const json& summary) {
  if (!summary.contains("expiring") || !summary["expiring"].is_object()) return "";
  const json& e = summary["expiring"];
  return std::to_string(json_count(e, "sessions")) + " transcript(s) Claude Code's cleanup deletes within " +
         std::to_string(json_count(e, "within_days")) + " days (cleanupPeriodDays " +
         e["cleanup_period_days"].dump() + ", " + json_str(e, "period_from") +
         "): export copies them out of its reach\n";
}

}  // namespace csift
