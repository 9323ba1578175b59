// Inside `agents`: what one subagent transcript says about its own life, from one full forward pass — first
// and newest instants, status (completed only on a visible end-of-turn answer; a newest tool call with no
// result is a frozen lane, still running), turns, tokens per model, tool calls, its newest answer text, and
// the spawn calls it issued itself (its nested children).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/store/spawn_index.h"
#include "core/store/store.h"
#include "tools/stats/token_ledger.h"

namespace csift {

struct AgentLifecycle {
  std::string first_timestamp, last_timestamp;
  std::string status = "unknown";  // completed, running, unknown
  int turns = 0;
  TokensByModel tokens;
  std::map<std::string, uint64_t> tool_calls;
  std::string tail_text;  // the newest assistant text
  std::string pending_tool_use_id, pending_tool_name, pending_since;
  std::vector<SpawnCall> spawns;  // issued by this agent
  uint64_t skipped_lines = 0;
  std::string error;
};

AgentLifecycle read_agent_lifecycle(const Transcript& agent, const CancelToken* cancel);

}  // namespace csift
