// OpenCode's sub-agents: child sessions (`parent_id` set on the session row, OpenCode 1's `session` and
// OpenCode 2's `session_v2`), each started by a `task` tool call of its parent whose state names it
// (`metadata.sessionId`).
#pragma once
#include "core/harness/harness_agents.h"

namespace csift {

HarnessAgents opencode_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall& call);
// The child sessions of the listed sessions (HarnessChildLogsFn): what an `<harness>:<child id>` ref names.
std::vector<Transcript> opencode_child_logs(const std::vector<Transcript>& listed, const CancelToken* cancel);

}  // namespace csift
