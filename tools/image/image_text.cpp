// The text form of `image`: one line per image (`#3 L12i2 image/png ~440 KB <time>`, led by the handle when
// known), or per written file, then a count footer.
#include "core/base/timefmt.h"
#include "tools/image/image.h"

namespace csift {
namespace {

std::string str(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string approx_size(uint64_t bytes) {
  if (bytes < 1024) return "~" + std::to_string(bytes) + " B";
  if (bytes < 1024 * 1024) return "~" + std::to_string((bytes + 512) / 1024) + " KB";
  const uint64_t tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024);
  return "~" + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MB";
}

std::string lane_suffix(const json& row) {
  if (!row.value("is_subagent", false)) return "";
  return " SUBAGENT " + str(row, "session_id") + " \xC2\xB7 parent " + str(row, "parent_session_id");
}

std::string when(const json& row) {
  const auto ms = parse_iso8601(str(row, "ts_utc"));
  return ms ? " " + format_local(*ms) : std::string();
}

std::string list_line(const json& row) {
  std::string s;
  if (row["handle"].is_number_integer()) s += "#" + std::to_string(row["handle"].get<int64_t>()) + " ";
  s += str(row, "id") + " " + (str(row, "media_type").empty() ? "(no media type)" : str(row, "media_type"));
  if (!str(row, "url").empty())
    s += " url " + str(row, "url");
  else
    s += " " + approx_size(row.value("est_bytes", uint64_t{0}));
  if (str(row, "source_kind") == "tool_result") s += " (tool result)";
  s += when(row);
  if (row.value("occurrences", 1) > 1) s += " (sent " + std::to_string(row["occurrences"].get<int>()) + "x)";
  return s + lane_suffix(row) + "\n";
}

std::string extract_line(const json& row) {
  std::string s =
      (row["handle"].is_number_integer() ? "#" + std::to_string(row["handle"].get<int64_t>()) + " " : "") +
      str(row, "id");
  if (!row["error"].is_null()) return s + " NOT WRITTEN: " + str(row, "error") + lane_suffix(row) + "\n";
  s += " -> " + str(row, "path") + " (" + std::to_string(row.value("bytes", uint64_t{0})) + " bytes, " +
       str(row, "media_type") +
       (row.value("converted", false) ? ", converted from " + str(row, "source_media_type") : "") + ")" +
       lane_suffix(row) + "\n";
  for (const auto& note : row["notes"])
    s += "    note: " + note.get<std::string>() + "\n";
  return s;
}

}  // namespace

std::string render_image_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args, (void)ctx;
  std::string out;
  for (const auto& row : env.rows)
    out += row.value("kind", "") == "extract" ? extract_line(row) : list_line(row);
  const json& s = env.summary;
  out += std::to_string(s.value("images", 0)) + " image(s)";
  if (s.value("occurrences", 0) != s.value("images", 0))
    out += " (" + std::to_string(s.value("occurrences", 0)) + " occurrences)";
  out += " \xC2\xB7 " + std::to_string(s.value("transcripts", 0)) + " transcript(s)";
  if (env.header.value("mode", "") == "extract")
    out += " \xC2\xB7 " + std::to_string(s.value("failed", 0)) + " not written";
  if (s.value("skipped_lines", 0) > 0)
    out += " \xC2\xB7 " + std::to_string(s.value("skipped_lines", 0)) + " skipped line(s)";
  if (s.contains("attached"))
    out += " \xC2\xB7 attached " + s["attached"].get<std::string>() + " as image content";
  return out + "\n";
}

}  // namespace csift
