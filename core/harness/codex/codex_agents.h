// Codex's sub-agents (multi-agent "collab" tools): each a thread with a rollout of its own whose
// session_meta names its parent (`source.subagent.thread_spawn.parent_thread_id`), started by a
// `spawn_agent` call of the parent and reported back by collab events (spawn end, wait end, close end) and
// `item_completed` CollabAgentToolCall items.
#pragma once
#include "core/harness/harness_agents.h"

namespace csift {

HarnessAgents codex_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall& call);

}  // namespace csift
