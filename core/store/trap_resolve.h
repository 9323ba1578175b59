// `@trap:<marker>` resolution (SPEC.md §9.5): the transcript (main or subagent) of the @main session whose
// shell tool_use command carries both the caller-invented marker and the literal `csift`.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "core/record/record.h"

#include "core/store/store.h"

namespace csift {

struct TrapResolution {
  Transcript session;               // the @main (env-named) top-level session
  std::optional<Transcript> agent;  // the one subagent carrying the marker; empty = the main transcript
  std::vector<Transcript> agents;   // every subagent of the session (reused for the topology)
};

// Throws ToolError: usage for a marker breaking the grammar or an ambiguous hit, not_found for no hit.
TrapResolution resolve_trap(std::string_view marker, const Environment& env,
                            const std::string& projects_root);

// True when the record holds a Bash/PowerShell tool_use whose input.command contains `marker` and `csift`.
bool record_has_trap_command(const Record& record, std::string_view marker);

// The note a @trap that resolved to the MAIN transcript prints (the main thread should use @main).
std::string trap_main_lane_note(const std::string& session_id);

}  // namespace csift
