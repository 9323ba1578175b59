// The logical parent chain of a session's subagents (SPEC.md §3 `@<agent-id>` descendants, §9.5 ancestry). On
// disk every subagent sits flat under the MAIN session; nesting is recovered from what discovery found
// (Transcript::parent_agent_id when the harness wrote it), else from the agent whose transcript holds the
// spawning tool call named by the child's spawn_tool_use_id — read through each transcript's reader, so any
// harness with spawn ids nests the same way.
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/store.h"

namespace csift {

struct AgentTopology {
  // agent id -> spawning agent id ("" = a direct child of the session). Every agent of the session has a key.
  std::map<std::string, std::string> parent;

  // The agents below `id`, breadth-first, children in id order; `id` itself excluded. Cycle-safe.
  std::vector<std::string> descendants(const std::string& id) const;
  // `id`, its parent, ... up to the agent directly under the session. Cycle-safe.
  std::vector<std::string> ancestry(const std::string& id) const;
};

// Who a spawn started (SPEC.md §4 "Direction"): spawn tool_use id -> child agent id, from the `toolUseId` of
// every subagent's meta.json in the session that owns `t` (t itself, or the session of a subagent t). The
// search for who-talked-to-whom and the topology share this join. Empty when the session has no subagents.
std::unordered_map<std::string, std::string> spawned_agents_by_tool_use(const Transcript& t);

// Builds the topology of `agents` (the session's subagents). Reads only the transcript lines that could hold
// a needed spawn tool_use (raw-byte prefilter on the ids), and only when some agent lacks parentAgentId.
AgentTopology build_agent_topology(const Transcript& session, const std::vector<Transcript>& agents);

}  // namespace csift
