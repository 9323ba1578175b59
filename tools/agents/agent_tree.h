// Inside `agents`: one session's subagents joined to the calls that spawned them and arranged as the logical
// tree (SPEC.md §9.6) — workflow runs parent their agents, a nested agent hangs under the agent that spawned
// it, and every subagent transcript appears exactly once; one the join cannot place hangs under the session,
// marked orphan with the reason.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/harness/harness_agents.h"
#include "core/store/spawn_index.h"
#include "core/store/store.h"
#include "tools/agents/agent_lifecycle.h"
#include "tools/agents/workflow_runs.h"

namespace csift {

enum class OrderAxis { trigger, start, completion };

struct AgentNode {
  const Transcript* transcript =
      nullptr;        // null for a CC 1.x inline subagent (its turns sit in the session file)
  std::string id;     // agent id; an inline node's spawn tool_use id
  std::string shape;  // builtin-task, workflow, teammate, legacy-flat, inline-sidechain; another harness's
                      // child: codex-thread, copilot-subagent, gemini-subagent, opencode-child
  std::optional<SpawnCall> spawn;
  std::string parent_agent_id;  // "" = directly under the session (or its workflow run)
  std::string run_id;           // workflow agents
  std::string orphan_reason;    // "" unless no spawning call could be found
  AgentLifecycle life;          // empty for an inline node
  std::string status;           // completed, running, unknown; failed (another harness's record says so)
  std::string completed_timestamp;
  std::string returned_message, returned_source;  // sync-tool-result, async-child-tail, workflow-journal
  int depth = 0;
  // Another harness's child as its log records it (tools/agents/harness_children.h); null for Claude Code.
  std::shared_ptr<const HarnessChildAgent> harness;
  // The instant on the chosen axis ("" when the node has none).
  std::string axis_timestamp(OrderAxis axis) const;
};

struct RunNode {
  WorkflowRun run;
  std::optional<SpawnCall> spawn;  // the Workflow call that started it, when found
  std::string started_timestamp;   // its earliest agent start
  std::string axis_timestamp(OrderAxis axis) const;
};

// Pre-order: a run, then its agents (each followed by its descendants); then the session's other roots.
struct TreeItem {
  bool is_run = false;
  size_t index = 0;  // into runs or nodes
  int depth = 0;
};

struct SessionTree {
  std::string session_id;
  const Transcript* session = nullptr;  // null when the session file is absent
  std::vector<RunNode> runs;
  std::vector<AgentNode> nodes;
  std::vector<TreeItem> order;
  uint64_t spawns_without_transcript = 0;  // spawn calls no transcript or run answers to
  uint64_t inline_sidechain_records = 0;
  uint64_t skipped_lines = 0;
};

struct SessionInputs {
  std::string session_id;
  const Transcript* session = nullptr;
  SessionSpawns spawns;                    // the session's own calls
  std::vector<const Transcript*> agents;   // subagent transcripts in scope
  std::vector<AgentLifecycle> lifecycles;  // one per agent
};

SessionTree build_session_tree(SessionInputs in, OrderAxis axis);
// The tree's pre-order (`order`): each run then its agents, then the other roots, every node under the node
// its parent_agent_id names (when present, and not itself), siblings by the axis's instant (a missing one
// last, ties in the given order); a node a parent cycle keeps from every root is still listed, at depth 0.
// Claude Code's tree and another harness's (tools/agents/harness_children.h) are both laid out by it.
void arrange_tree(SessionTree& tree, OrderAxis axis);

}  // namespace csift
