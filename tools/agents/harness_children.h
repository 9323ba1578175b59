// Inside `agents`: a session of another harness (Codex, Copilot CLI, Gemini CLI, OpenCode) and the children
// its harness records, read through the seam HarnessEntry::agents (core/harness/harness_agents.h), each
// child with its own log read for its lifecycle as a Claude Code subagent's is, and arranged as the same
// tree (SPEC.md §9.6 "Other harnesses").
#pragma once
#include <deque>
#include <vector>

#include "tools/agents/agent_tree.h"

namespace csift {

struct HarnessSession {
  const Transcript* session = nullptr;
  HarnessAgents agents;
  std::vector<AgentLifecycle> lifecycles;  // one per child; empty for a child without a log of its own
};

// True when the harness of `t` has a reader of sub-agents.
bool reads_harness_children(const Transcript& t);
// The session's children as its harness records them, each child's own log read; `call` holds what the
// readers of one `agents` call share.
HarnessSession read_harness_session(const Transcript& session, const CancelToken* cancel,
                                    HarnessAgentsCall& call);
// The tree of one such session, in the shape `agents` renders for Claude Code.
SessionTree harness_session_tree(HarnessSession&& in, OrderAxis axis);

}  // namespace csift
