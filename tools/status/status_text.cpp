#include "tools/common/retention_notes.h"
#include "tools/status/status.h"

namespace csift {

std::string render_live_block(const json& row, EpochMs now) {
  std::string out;
  if (row.contains("tail_state")) out += "tail: " + row["tail_state"].get<std::string>() + "\n";
  for (const auto& e : row["evidence"]) {
    out += "  evidence " + e["surface"].get<std::string>() + ": " + e["value"].get<std::string>();
    if (e["age_secs"].is_number()) out += " (" + std::to_string(e["age_secs"].get<int64_t>()) + "s ago)";
    out += "\n";
  }
  if (row.contains("children")) {
    for (const auto& c : row["children"]) {
      out += "  lane " + c["agent_id"].get<std::string>() + " " + c["state"].get<std::string>();
      if (c.contains("in_call")) out += " (in " + c["in_call"].get<std::string>() + ")";
      if (c["description"].is_string()) out += " — " + c["description"].get<std::string>();
      out += "\n";
    }
    if (row.value("settled_children", 0) > 0)
      out += "  " + std::to_string(row["settled_children"].get<size_t>()) + " settled lane(s) folded\n";
  }
  if (row.contains("pending")) {
    for (const auto& p : row["pending"])
      out += "  pending " + p["kind"].get<std::string>() + " (" + p["source"].get<std::string>() + ", key " +
             p["key"].get<std::string>() + ")\n";
  }
  if (row.contains("background")) {
    for (const auto& line : background_lines(row["background"], now))
      out += "  " + line + "\n";
    if (row["background"].value("open", 0) > 0)
      out += "  (" + row["background"]["note"].get<std::string>() + ")\n";
  }
  if (row.contains("workflows")) {
    for (const auto& w : row["workflows"])
      if (!w["in_flight"].empty())
        out += "  workflow " + w["run_id"].get<std::string>() + ": " + std::to_string(w["in_flight"].size()) +
               " agent(s) in flight\n";
  }
  if (row.contains("tasks") && row["tasks"].is_array()) {
    for (const auto& t : row["tasks"]) {
      out += "  task " + t["id"].get<std::string>() + " [" +
             (t["status"].is_string() ? t["status"].get<std::string>() : std::string("?")) + "] " +
             (t["subject"].is_string() ? t["subject"].get<std::string>() : std::string());
      if (!t["blocked_by"].empty()) out += " (blocked by " + t["blocked_by"].dump() + ")";
      out += "\n";
    }
    if (row.value("tasks_completed", 0) > 0)
      out += "  " + std::to_string(row["tasks_completed"].get<size_t>()) + " completed task(s) folded\n";
  }
  if (row.contains("last")) {
    const json& last = row["last"];
    if (last["human"].is_object())
      out += "  last human: " + last["human"]["excerpt"].get<std::string>() + "\n";
    if (last["agent"].is_object())
      out += "  last agent: " + last["agent"]["excerpt"].get<std::string>() + "\n";
    if (last["human"].is_object() || last["agent"].is_object())
      out += "  (" + last["caution"].get<std::string>() + ")\n";
  }
  for (const auto& n : row["notes"])
    out += "  note: " + n.get<std::string>() + "\n";
  return out;
}

std::string render_status_text(const Envelope& env, const json&, const ToolContext&) {
  std::string out;
  for (const auto& row : env.rows) {
    out += "status " + row["session_id"].get<std::string>() + ": " + row["verdict"].get<std::string>() + "\n";
    out += render_live_block(row, now_ms());
  }
  return out + expiring_line(env.summary);
}

}  // namespace csift
