// Copilot CLI's sub-agents: started by the `task` tool, their events written inline in the session's own
// events.jsonl, each marked with the sub-agent's `agentId` (older releases: `data.parentToolCallId`), and
// bracketed by `subagent.started` / `subagent.completed` / `subagent.failed`.
#pragma once
#include "core/harness/harness_agents.h"

namespace csift {

HarnessAgents copilot_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall& call);

}  // namespace csift
