// `@self:<marker>` resolution (SPEC.md §9.5), the MCP counterpart of `@trap`: an agent calling this server's
// tools cannot put a marker in a shell command, but its own tool call is written to its transcript. The
// caller is the transcript (top-level or subagent, any project) whose tail holds a `tool_use` named
// `mcp__<server>__<tool>` whose input carries the marker. The search is call_landing.h's: the tails of the
// most recently written transcripts, newest first, then a bounded wait for the call to land.
#pragma once
#include <string>
#include <string_view>

#include "core/record/record.h"
#include "core/store/call_landing.h"
#include "core/store/trap_resolve.h"

namespace csift {

// Throws ToolError: usage for a marker breaking the grammar or a marker two transcripts carry (both named),
// not_found when no recent tail holds it, even after the wait (saying what was searched). `landing`, when
// given, receives how the search went (how long it waited, where it found the call).
TrapResolution resolve_self_marker(std::string_view marker, const std::string& projects_root,
                                   CallLanding* landing = nullptr);

// The owning session and its subagents of a transcript found to hold the call (a hit of call_landing.h), for
// the ancestry. `what` names the search in the error when a lane's session transcript is missing.
TrapResolution resolution_for_transcript(const Transcript& hit, const std::string& what);

// True when the record is an assistant's call of an MCP tool (`mcp__<server>__<tool>`) whose input carries
// `marker`.
bool record_has_mcp_marker(const Record& record, std::string_view marker);

// The note an @self that resolved to a top-level transcript carries.
std::string self_main_lane_note(std::string_view marker, const std::string& session_id);

}  // namespace csift
