// The calls that spawn subagents (Task, Agent, Workflow) and what came back from each: the join `agents`
// builds its tree on (SPEC.md §9.6). A subagent is tied to its spawn by the meta's toolUseId, a teammate by
// name (meta name = Agent input.name), a CC 2.0.x flat agent by the agentId the spawn's result names, and a
// workflow agent by its run. The spawn's issuer — the session or the agent whose transcript holds the call —
// is the child's logical parent (on disk every subagent sits flat under the main session).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/base/cancel.h"
#include "core/record/call_join.h"
#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

struct SpawnCall {
  std::string tool_use_id;
  std::string tool;       // Task, Agent, Workflow
  std::string issuer_id;  // "" = the top-level session, else the issuing agent's id
  uint64_t line = 0;      // the call's line in the issuer's transcript
  std::string timestamp;  // the trigger instant
  std::string description, subagent_type, name, team_name, workflow_name;
  bool has_result = false;
  bool result_is_error = false;
  std::string result_text;      // the tool result's text, flattened
  std::string result_agent_id;  // toolUseResult.agentId, or an `agentId: <id>` line in the result text
  std::string result_status;    // toolUseResult.status when present (async_launched, teammate_spawned, ...)
  bool async_launch() const;    // the result is the "Async agent launched" sentinel, not the agent's answer
};

// Feeds on a transcript's records in file order and keeps its spawn calls with their results (joined by id
// in either order: core/record/call_join.h).
class SpawnCollector {
 public:
  explicit SpawnCollector(std::string issuer_id)
      : issuer_(std::move(issuer_id)),
        join_([this](const Record& r, const Block& b, size_t) { close(r, b); }) {}
  SpawnCollector(const SpawnCollector&) = delete;  // the join calls back into this collector
  SpawnCollector& operator=(const SpawnCollector&) = delete;
  void take(const Record& r);
  // Could this raw line matter (a spawn call, or a result for an open one)? For a read's byte screen.
  bool may_matter(std::string_view line) const;
  // After the forward pass over `t`: joins the results written before their call (CallJoin).
  void join_results_before_calls(const Transcript& t, const CancelToken* cancel) {
    join_.join_results_before_calls(t, cancel);
  }
  std::vector<SpawnCall> finish() { return std::move(calls_); }

 private:
  std::string issuer_;
  std::vector<SpawnCall> calls_;
  std::unordered_map<std::string, size_t> open_;  // tool_use_id -> index in calls_, awaiting its result
  CallJoin join_;
  void close(const Record& r, const Block& b);
};

bool is_spawn_tool(std::string_view name);

struct SessionSpawns {
  std::vector<SpawnCall> calls;
  uint64_t inline_sidechain_records = 0;  // CC 1.x: subagent turns written into the session's own file
  uint64_t skipped_lines = 0;
  std::string error;
};

// One screened forward pass over a top-level session's transcript.
SessionSpawns session_spawns(const Transcript& session, const CancelToken* cancel);

}  // namespace csift
