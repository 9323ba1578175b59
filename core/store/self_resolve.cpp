#include "core/store/self_resolve.h"

#include <vector>

#include "core/base/error.h"
#include "core/store/trap_marker.h"

namespace csift {

namespace {

std::string described(const Transcript& t) {
  return (t.is_subagent ? "subagent " + t.id + " of session " + t.session_id : "session " + t.id) + " (" +
         t.path + ")";
}

}  // namespace

TrapResolution resolution_for_transcript(const Transcript& hit, const std::string& what) {
  if (!hit.is_subagent) return TrapResolution{hit, std::nullopt, list_subagents(hit)};
  const auto session = transcript_for_file(hit.project_dir + "/" + hit.session_id + ".jsonl");
  if (!session) {
    not_found_error(what + " is in " + described(hit) + ", whose session transcript " + hit.project_dir +
                    "/" + hit.session_id + ".jsonl does not exist");
  }
  TrapResolution out{*session, hit, list_subagents(*session)};
  if (hit.shape == TranscriptShape::legacy_flat) out.agents.push_back(hit);
  return out;
}

bool record_has_mcp_marker(const Record& record, std::string_view marker) {
  if (record.type != "assistant") return false;
  for (const Block& block : record.message.blocks) {
    if (block.kind != BlockKind::tool_use || block.name.rfind("mcp__", 0) != 0) continue;
    if (block.name.find("__", 5) == std::string::npos) continue;  // mcp__<server>__<tool>
    if (block.input_json.find(marker) != std::string::npos) return true;
  }
  return false;
}

std::string self_main_lane_note(std::string_view marker, const std::string& session_id) {
  return "@self:" + std::string(marker) + " is the top-level transcript of session " + session_id +
         " (the main thread, not a subagent)";
}

TrapResolution resolve_self_marker(std::string_view marker, const std::string& projects_root,
                                   CallLanding* landing) {
  if (std::string problem = trap_marker_problem(marker); !problem.empty()) {
    usage_error("@self:" + std::string(marker) + ": " + problem + "; " + trap_marker_guidance());
  }
  LandingQuery q;
  q.needle = std::string(marker);
  q.matches = [&](const Record& r) { return record_has_mcp_marker(r, marker); };
  q.stop_at_first = false;  // every recent transcript is read: a marker two of them carry is refused
  const CallLanding found = find_call_landing(projects_root, q);
  if (landing) *landing = found;
  const std::vector<Transcript>& hits = found.hits;
  if (hits.empty()) {
    not_found_error("@self:" + std::string(marker) +
                    ": no MCP tool call (a tool_use named mcp__<server>__<tool>) " +
                    "carrying the marker in its input; " + found.searched +
                    ". Pass the marker in this very call (whoami's marker argument, or the target @self:" +
                    std::string(marker) + "), typed literally, so the call itself carries it");
  }
  if (hits.size() > 1) {
    std::string list;
    for (const Transcript& t : hits)
      list += (list.empty() ? "" : "; ") + described(t);
    usage_error("@self:" + std::string(marker) + " is ambiguous: " + std::to_string(hits.size()) +
                " transcripts carry it (" + list + "); invent a fresher marker");
  }
  return resolution_for_transcript(hits.front(), "@self:" + std::string(marker) + ": the marker");
}

}  // namespace csift
