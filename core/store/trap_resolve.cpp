#include "core/store/trap_resolve.h"
#include "core/json/stored_json.h"

#include <tbb/parallel_for.h>

#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/record/transcript_reader.h"
#include "core/store/session_env.h"
#include "core/store/trap_marker.h"

namespace csift {

namespace {

bool command_carries(const std::string& input_json, std::string_view marker) {
  const std::string command = stored_string_field(input_json, "command");
  return command.find(marker) != std::string::npos && command.find("csift") != std::string::npos;
}

// Does any record of the transcript hold a shell tool call whose command carries the marker and 'csift'?
bool transcript_has_trap_command(const Transcript& t, std::string_view marker) {
  bool hit = false;
  ReadOptions opts;
  // Raw-byte prefilter first: almost every line lacks the marker, and those are never parsed.
  opts.want = [marker](std::string_view line) {
    return line.find(marker) != std::string_view::npos && line.find("csift") != std::string_view::npos;
  };
  for_each_record(t, opts, [&](Record&& record) {
    hit = record_has_trap_command(record, marker);
    return !hit;
  });
  return hit;
}

std::string no_hit_message(std::string_view marker, const Transcript& session, size_t agents) {
  return "@trap:" + std::string(marker) + ": no shell (Bash / PowerShell) tool_use in session " + session.id +
         " or its " + std::to_string(agents) +
         " subagent transcript(s) has a command carrying both the marker and the literal 'csift'. "
         "If you are the MAIN thread, use @main instead (env-based, no race: the main transcript lands "
         "~1-3.4s after a command starts). Otherwise check the marker was typed literally in this very csift "
         "command (not built from a variable or a script). A subagent's own command is on disk at dispatch; "
         "as lane confirmation, re-run the SAME command with the SAME marker as a NEW, SEPARATE shell "
         "invocation (a fresh marker restarts the race).";
}

}  // namespace

bool record_has_trap_command(const Record& record, std::string_view marker) {
  for (const Block& block : record.message.blocks) {
    if (block.kind != BlockKind::tool_use || (block.name != "Bash" && block.name != "PowerShell")) continue;
    if (command_carries(block.input_json, marker)) return true;
  }
  return false;
}

std::string trap_main_lane_note(const std::string& session_id) {
  return "@trap resolved to the MAIN transcript of session " + session_id +
         " (no subagent carries the marker); the main thread should simply use @main";
}

TrapResolution resolve_trap(std::string_view marker, const Environment& env,
                            const std::string& projects_root) {
  if (std::string problem = trap_marker_problem(marker); !problem.empty()) {
    usage_error("@trap:" + std::string(marker) + ": " + problem + "; " + trap_marker_guidance());
  }
  auto who = env_session_id(env);
  if (!who) usage_error("@trap needs the calling session from the environment; " + whoami_guidance());
  auto session = find_session_file(projects_root, who->id, env.cwd);
  if (!session) {
    not_found_error("@trap: session " + who->id + " ($" + who->var + ") has no transcript under " +
                    projects_root);
  }
  TrapResolution out{*session, std::nullopt, list_subagents(*session)};
  std::vector<char> agent_hit(out.agents.size(), 0);
  bool main_hit = false;
  tbb::parallel_for(size_t{0}, out.agents.size() + 1, [&](size_t i) {
    if (i == out.agents.size()) {
      main_hit = transcript_has_trap_command(out.session, marker);
    } else {
      agent_hit[i] = transcript_has_trap_command(out.agents[i], marker);
    }
  });
  std::vector<std::string> hits;
  for (size_t i = 0; i < out.agents.size(); ++i) {
    if (agent_hit[i]) hits.push_back(out.agents[i].id);
  }
  if (hits.size() > 1) {
    std::string list;
    for (const std::string& id : hits)
      list += (list.empty() ? "" : ", ") + id;
    usage_error("@trap:" + std::string(marker) + " is ambiguous: " + std::to_string(hits.size()) +
                " subagent transcripts carry it (" + list + "); invent a fresher marker");
  }
  for (size_t i = 0; i < out.agents.size(); ++i) {
    if (agent_hit[i]) out.agent = out.agents[i];
  }
  if (!out.agent && !main_hit) not_found_error(no_hit_message(marker, out.session, out.agents.size()));
  return out;
}

}  // namespace csift
