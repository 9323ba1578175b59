#include "tools/common/text_fields.h"

#include "core/base/timefmt.h"
#include "core/json/stored_json.h"

namespace csift {

std::string json_str(const json& obj, const char* key) {
  return json_string_at(obj, key);
}

uint64_t json_count(const json& obj, const char* key) {
  return obj.contains(key) && obj[key].is_number() ? obj[key].get<uint64_t>() : 0;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string local_time_or(const std::string& iso, const char* missing) {
  const auto t = parse_iso8601(iso);
  return t ? format_local(*t) : std::string(missing);
}

std::string transcript_title(const json& row) {
  if (!row.value("is_subagent", false)) return "SESSION " + json_str(row, "session_id");
  std::string line = "SUBAGENT " + json_str(row, "session_id") + " (";
  if (!json_str(row, "agent_type").empty()) line += json_str(row, "agent_type") + ", ";
  const std::string parent = json_str(row, "parent_session_id");
  return line + json_str(row, "shape") + ") of SESSION " + (parent.empty() ? "(unknown)" : parent);
}

std::string scope_banner(const json& header) {
  return "scope " + plural(json_count(header, "sessions_in_scope"), "transcript", "transcripts") + " (" +
         std::to_string(json_count(header, "top_level_sessions")) + " top-level, " +
         std::to_string(json_count(header, "subagent_sessions")) + " subagent)";
}

}  // namespace csift
