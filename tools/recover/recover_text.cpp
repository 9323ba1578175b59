#include "tools/recover/recover.h"
#include "tools/recover/replay.h"

namespace csift {
namespace {

std::string ranges_of(const json& ranges) {
  if (!ranges.is_array() || ranges.empty()) return "none";
  std::string out;
  for (const json& r : ranges) {
    if (!out.empty()) out += ", ";
    out += std::to_string(r[0].get<int64_t>());
    if (r[1].is_null()) {
      out += "..?";
    } else if (r[1] != r[0]) {
      out += ".." + std::to_string(r[1].get<int64_t>());
    }
  }
  return out;
}

std::string boundary_line(const json& b) {
  std::string s = std::string(b.value("hard", false) ? "  \xE2\x9A\xA0 " : "  ~ ") + b.value("cause", "") +
                  " L" + std::to_string(b.value("line", uint64_t{0})) + " @" +
                  b.value("source_session_id", "");
  if (b.contains("turn_index") && !b["turn_index"].is_null())
    s += " turn " + std::to_string(b["turn_index"].get<int>());
  if (b.contains("ts_local") && b["ts_local"].is_string()) s += " " + b["ts_local"].get<std::string>();
  return s + ": " + b.value("detail", "") + "\n";
}

std::string coverage_text(const json& row, const ToolContext& ctx) {
  std::string s = "FILE " + row.value("file", "") + "\n";
  const std::string total =
      row["total_lines"].is_null() ? "?" : std::to_string(row["total_lines"].get<int64_t>());
  s += "known " + std::to_string(row.value("known_lines", 0)) + " of " + total + " line(s)" +
       (row.value("complete", false) ? " (complete)" : "") + "; covered " + ranges_of(row["covered"]) +
       "; missing " + ranges_of(row["missing"]) + "\n";
  s += "events: " + std::to_string(row.value("content_events", 0)) + " content";
  for (const auto& [k, v] : row["counts"].items())
    s += ", " + k + " " + std::to_string(v.get<uint64_t>());
  s += "; coverage holes " + std::to_string(row.value("coverage_holes", 0)) + "\n";
  s += "boundaries: " + std::to_string(row["boundaries"].is_array() ? row["boundaries"].size() : 0) + " (" +
       std::to_string(row.value("hard_boundaries", 0)) + " hard \xC2\xB7 " +
       std::to_string(row.value("soft_boundaries", 0)) + " soft), fragments " +
       std::to_string(row.value("fragments", 1)) + "\n";
  if (row["boundaries"].is_array())
    for (const json& b : row["boundaries"])
      s += boundary_line(b);
  const uint64_t opaque =
      row.value("opaque_commands", uint64_t{0}) + row.value("powershell_commands", uint64_t{0});
  if (opaque) {
    s += "opaque mutating commands in the window: " + std::to_string(opaque) + "\n";
    for (const json& o : row["opaque_listed"])
      s += "  L" + std::to_string(o.value("line", uint64_t{0})) + " @" + o.value("session_id", "") + " " +
           o.value("marker", "") + ": " + o.value("command", "") + "\n";
    if (opaque > row["opaque_listed"].size())
      s += "  (+" + std::to_string(opaque - row["opaque_listed"].size()) + " more)\n";
    s += "inspect: " + follow_up_text(row["suggested_search"], ctx) + "\n";
  }
  return s;
}

}  // namespace

std::string render_recover_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args;
  std::string out;
  for (const json& row : env.rows) {
    const std::string kind = row.value("kind", "");
    if (kind == "restore") {
      if (row.contains("content")) return row["content"].get<std::string>();
      out += "wrote " + std::to_string(row.value("wrote", uint64_t{0})) + " bytes to " +
             row.value("path", "") + "\n";
    } else if (kind == "snapshot") {
      out += coverage_text(row, ctx);
      out += "SNAPSHOT at " + row.value("at", "") + "\n";
      if (row.contains("text"))
        out += row["text"].get<std::string>();
      else
        out += "wrote " + row.value("path", "") + "\n";
    } else if (kind == "coverage") {
      out += coverage_text(row, ctx);
    } else if (kind == "boundary") {
      out += "\xE2\x94\x80\xE2\x94\x80 BOUNDARY" + boundary_line(row);
    } else if (kind == "change") {
      out += "\xE2\x94\x80 SEGMENT " + std::to_string(row.value("segment", 0)) + " L" +
             std::to_string(row.value("line", uint64_t{0})) + " @" + row.value("session_id", "") + " " +
             row.value("tool", "") +
             (row["turn_index"].is_null() ? "" : " turn " + std::to_string(row["turn_index"].get<int>())) +
             "\n";
      out += row.value("diff", "");
    } else if (kind == "recovered") {
      out += row.value("status", "") + "\t" + std::to_string(row.value("known_lines", 0)) + "\t" +
             row.value("file", "") +
             (row["written_to"].is_null() ? "" : " -> " + row["written_to"].get<std::string>()) + "\n";
    }
  }
  if (env.summary.contains("report")) out += "report: " + env.summary["report"].get<std::string>() + "\n";
  return out;
}

}  // namespace csift
