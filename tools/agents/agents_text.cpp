// The text form of `agents` (SPEC.md §9.6): per session the tree, one line per run or agent indented by
// depth, with a detail line for its lifecycle and, when asked, what it returned and the files it changed.
#include <string>

#include "tools/agents/agents.h"
#include "tools/common/text_fields.h"

namespace csift {
namespace {

constexpr auto str = json_str;
constexpr auto num = json_count;

std::string local(const json& row, const char* key) {
  return local_time_or(str(row, key), "(none)");
}

std::string indent(int depth) {
  return std::string(2 + 4 * static_cast<size_t>(depth), ' ');
}

std::string counts(const json& obj) {
  std::string out;
  for (const auto& [k, v] : obj.items())
    out += (out.empty() ? "" : " · ") + k + " " + std::to_string(v.get<uint64_t>());
  return out.empty() ? "(none)" : out;
}

std::string tokens_brief(const json& tokens) {
  std::string out;
  for (const auto& [model, t] : tokens.items()) {
    out += (out.empty() ? "" : " · ") + model + " in " + std::to_string(num(t, "input_tokens")) + " out " +
           std::to_string(num(t, "output_tokens"));
  }
  return out.empty() ? "(none)" : out;
}

std::string run_lines(const json& row) {
  std::string out = indent(0) + "RUN " + str(row, "run_id");
  if (!str(row, "workflow_name").empty()) out += " " + str(row, "workflow_name");
  if (!str(row, "status").empty()) out += " [" + str(row, "status") + "]";
  if (row["agent_count"].is_number()) out += " · " + std::to_string(num(row, "agent_count")) + " agents";
  out += " · trigger " + local(row, "trigger_utc");
  if (!row.value("manifest_present", false)) out += " · no manifest";
  return out + "\n";
}

// Another harness's child: the ref that reaches its records, why it failed, the figures its harness keeps
// itself, its prompt, and what the harness does not record.
std::string harness_lines(const json& row, const std::string& pad) {
  std::string out = pad + "  ref " + (str(row, "ref").empty() ? "(none)" : str(row, "ref"));
  if (!str(row, "model").empty()) out += " · model " + str(row, "model");
  const json& rec = row["recorded"];
  if (rec.contains("total_tokens")) out += " · total tokens " + std::to_string(num(rec, "total_tokens"));
  if (rec.contains("tool_calls")) out += " · tool calls " + std::to_string(num(rec, "tool_calls"));
  if (rec.contains("inline_tool_calls"))
    out += " · inline tool calls " + std::to_string(num(rec, "inline_tool_calls"));
  if (rec.contains("duration_ms")) out += " · " + std::to_string(num(rec, "duration_ms")) + " ms";
  out += "\n";
  if (!str(row, "failure").empty()) out += pad + "  FAILED: " + one_line(str(row, "failure")) + "\n";
  if (!str(row, "prompt").empty())
    out += pad + "  prompt " + excerpt(one_line(str(row, "prompt")), 200) + "\n";
  if (!str(row, "not_recorded").empty()) out += pad + "  not recorded: " + str(row, "not_recorded") + "\n";
  return out;
}

std::string agent_lines(const json& row, int depth, bool text_returned) {
  const std::string pad = indent(depth);
  std::string out = pad + "AGENT " + str(row, "agent_id") + " (" + str(row, "shape");
  if (!str(row, "agent_type").empty()) out += ", " + str(row, "agent_type");
  out += ") " + str(row, "status");
  if (!str(row, "name").empty()) out += " · name " + str(row, "name");
  if (!str(row, "team_name").empty()) out += " · team " + str(row, "team_name");
  if (!str(row, "description").empty()) out += " — " + one_line(str(row, "description"));
  out += "\n" + pad + "  ";
  if (!str(row, "spawn_tool").empty()) {
    out += "spawned by " + str(row, "spawn_tool") + " " + str(row, "spawn_tool_use_id") + " (" +
           str(row, "spawned_by") + " L" + std::to_string(num(row, "spawn_line")) + ") · ";
  }
  out += "trigger " + local(row, "trigger_utc") + " · start " + local(row, "started_utc");
  if (str(row, "status") == "completed") {
    out += " · completed " + local(row, "completed_utc");
  } else if (!str(row, "pending_tool_use_id").empty()) {
    out += " · PENDING " + str(row, "pending_tool_name") + " " + str(row, "pending_tool_use_id") + " since " +
           local(row, "pending_since_utc");
  } else {
    out += " · last seen " + local(row, "last_activity_utc");
  }
  out += "\n" + pad + "  turns " + std::to_string(num(row, "turns")) + " · tokens " +
         tokens_brief(row["tokens"]) + " · tools " + counts(row["tool_calls"]) + "\n";
  if (row.value("orphan", false)) out += pad + "  ORPHAN: " + str(row, "orphan_reason") + "\n";
  if (row.contains("ref")) out += harness_lines(row, pad);
  if (text_returned && row.contains("returned_message")) {
    const std::string source = str(row, "returned_message_source");
    if (source.empty()) {
      out += pad + "  returned (nothing found)\n";
    } else {
      const std::string brand = str(row, "status") == "completed"
                                    ? source
                                    : source + " · history, the lane is still open: NOT its outcome";
      out +=
          pad + "  returned (" + brand + ") " + excerpt(one_line(str(row, "returned_message")), 2000) + "\n";
    }
  }
  if (row.contains("files_changed")) {
    for (const auto& f : row["files_changed"]) {
      out += pad + "  changed " + str(f, "path") + " (" + counts(f["ops"]) + ")" +
             (f.value("heuristic", false) ? " (heuristic)" : "") + "\n";
    }
  }
  return out;
}

}  // namespace

std::string render_agents_text(const Envelope& env, const json& /*args*/, const ToolContext& /*ctx*/) {
  std::string out;
  int run_depth = 0;
  for (const auto& row : env.rows) {
    const std::string kind = str(row, "kind");
    if (kind == "session") {
      out += (out.empty() ? "" : "\n") + std::string("SESSION ") + str(row, "session_id") + " · " +
             std::to_string(num(row, "runs")) + " runs · " + std::to_string(num(row, "agents")) + " agents";
      if (!row.value("session_present", true)) out += " · session file absent";
      if (num(row, "spawns_without_transcript") > 0) {
        out += " · " + std::to_string(num(row, "spawns_without_transcript")) +
               " spawn call(s) with no transcript on disk";
      }
      out += "\n";
      run_depth = 0;
    } else if (kind == "run") {
      out += run_lines(row);
      run_depth = 1;
    } else if (kind == "agent") {
      const bool in_run = !str(row, "run_id").empty();
      const int depth = static_cast<int>(num(row, "depth")) + (in_run ? run_depth : 0);
      out += agent_lines(row, depth, true);
    }
  }
  const json& s = env.summary;
  if (num(s, "agents") + num(s, "runs") == 0) out += "no subagents found\n";
  out += "\n" + std::to_string(num(s, "sessions")) + " session(s) · " + std::to_string(num(s, "runs")) +
         " run(s) · " + std::to_string(num(s, "agents")) + " agent(s) · " +
         std::to_string(num(s, "orphans")) + " orphan(s)";
  if (num(s, "spawns_without_transcript") > 0) {
    out += " · " + std::to_string(num(s, "spawns_without_transcript")) + " spawn call(s) with no transcript";
  }
  out += " · skipped lines " + std::to_string(num(s, "skipped_lines")) + "\n";
  if (num(s, "teammates") > 0) {
    out +=
        "teammates are steered or stopped with SendMessage to their name (a shutdown_request message), not "
        "TaskStop\n";
  }
  return out;
}

}  // namespace csift
