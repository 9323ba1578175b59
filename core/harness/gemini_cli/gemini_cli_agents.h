// Gemini CLI's sub-agents (codebase_investigator and the other local agents): each writes its own log
// `chats/<main session id>/<agent id>.jsonl` (metadata `kind: "subagent"`), and since gemini-cli 7d1de3b
// (2026-04) the parent's tool call that ran it records the agent's id (`toolCalls[].agentId`).
#pragma once
#include "core/harness/harness_agents.h"

namespace csift {

HarnessAgents gemini_cli_agents(const Transcript& session, const CancelToken* cancel,
                                HarnessAgentsCall& call);
// The sub-agent logs of the listed sessions (HarnessChildLogsFn): what a `gemini-cli:<agent id>` ref names.
std::vector<Transcript> gemini_cli_child_logs(const std::vector<Transcript>& listed,
                                              const CancelToken* cancel);

}  // namespace csift
