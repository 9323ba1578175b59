// The live verdict of one top-level session (the seed's §6.13): a join of the session registry, the main
// transcript's tail, the owner process's liveness, the child lanes and workflow journals, the background
// tasks (every lane's launches), the harness task list and the pending human-in-the-loop blocks of the
// elicitation sidecar. Point in time and not reproducible, by design.
#pragma once
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/base/envelope.h"
#include "core/store/session_registry.h"
#include "core/store/store.h"
#include "tools/status/background_tasks.h"
#include "tools/status/child_lanes.h"
#include "tools/status/harness_tasks.h"
#include "tools/status/lane_tail.h"

namespace csift {

// The closed verdict set, in precedence order: dead > hitl > running > children > background > eot > unknown.
inline constexpr const char* kVerdicts[] = {"stale-dead",       "waiting-hitl",         "running",
                                            "waiting-children", "idle-background-open", "idle-eot",
                                            "unknown"};
bool is_verdict(std::string_view v);

// The call running now, when the client named its tool_use (SPEC §9.5): status and wait on the caller's own
// session then know which open call is the current one, instead of reading the tail as it was before the
// call's own record landed.
struct OwnCall {
  std::string tool_use_id;  // "" when the call named none
  bool in_session = false;  // the call is this session's (its main transcript or one of its lanes)
  std::string lane;         // "main" or the agent id, when in_session
  std::string evidence;     // how it was looked for: how long it waited, where it was found
};

struct StatusOptions {
  BackgroundLens lens;
  bool subagents = true;
  OwnCall own_call;
};

struct StatusJoin {
  std::string verdict;
  json evidence = json::array();   // {surface, value, age_secs}
  std::vector<std::string> notes;  // every degradation, stated
  std::string tail_state;          // the main lane's instant in words
  LaneTail main_tail;
  ChildLanes children;
  BackgroundReport background;
  json workflows = json::array();  // per run: {run_id, workflow, started, returned, in_flight[]}
  size_t workflow_in_flight = 0;   // journal agents started and not yet returned, over every run
  HarnessTasks tasks;
  size_t pending_hitl = 0;
  json pending = json::array();
  RegistryRowsForSession registry;
  uint64_t skipped_lines = 0;
};

StatusJoin compute_status(const Transcript& session, const std::string& claude_home,
                          const StatusOptions& opts, const CancelToken* cancel);

// The {kind:"verdict"} row's fields (the caller adds the id trio).
json status_row(const StatusJoin& s, EpochMs now);
// The last human / agent excerpts ({human, agent}).
json last_messages_json(const LaneTail& tail);

}  // namespace csift
