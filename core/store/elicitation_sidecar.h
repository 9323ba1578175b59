// The elicitation sidecar merge (the seed's §6.10; SPEC.md §9.1 reports it; ghost guard v0.6.3 item 1): a
// top-level session's
// `<uuid>/elicitations.jsonl` holds hook-written pending/resolved markers for AskUserQuestion, ExitPlanMode
// and MCP elicitations, which leave no live trace in the native transcript. The records still pending are
// merged into the surfaces that read the session, as native records with no physical line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/harness/claude_code/classify.h"
#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

struct SidecarPending {
  Record record;     // the pending marker as a native-shaped record (line 0: it has no transcript line)
  std::string kind;  // csiftKind: AskUserQuestion | ExitPlanMode | mcp-elicitation
  std::string key;   // csiftKey (the pair id)
};

struct SidecarMerge {
  std::vector<SidecarPending> pending;  // unresolved markers, in sidecar order
  uint64_t skipped_lines = 0;           // malformed / unrecognised sidecar lines (counted, never silent)
};

// Unresolved pending markers of a top-level session: per csiftKey, each `resolved` closes the oldest open
// `pending`. An AskUserQuestion/ExitPlanMode pending whose key is a tool_use id or tool_result tool_use_id of
// a native record is a ghost (CC wrote the real record; a rejection fires no resolved hook) and is dropped.
// A subagent, or a session with no sidecar, merges nothing.
SidecarMerge read_unresolved_pending(const Transcript& session, const std::vector<Record>& native);

// Classifies a pending marker: its labels are agent.tool.use (an AUQ/ExitPlanMode tool_use block classifies
// naturally; an MCP `system` marker has no block and becomes one tool-use unit named by its kind).
std::vector<Unit> classify_sidecar_pending(const SidecarPending& p, ClassifyContext& ctx);

}  // namespace csift
