// `@self:<marker>` resolution (SPEC.md §9.5), the MCP counterpart of `@trap`: an agent calling this server's
// tools cannot put a marker in a shell command, but its own tool call is written to its transcript before
// the call runs. The caller is the transcript (top-level or subagent, any project) whose tail holds a
// `tool_use` named `mcp__<server>__<tool>` whose input carries the marker. Only the tails of the most
// recently written transcripts are read, newest first, so the time is bounded whatever the store's size.
#pragma once
#include <string>
#include <string_view>

#include "core/record/record.h"
#include "core/store/trap_resolve.h"

namespace csift {

inline constexpr size_t kSelfRecentTranscripts = 64;        // at most this many files are read
inline constexpr int64_t kSelfRecentSeconds = 3600;         // written within this long
inline constexpr uint64_t kSelfTailBytes = 1024ull * 1024;  // the tail of each that is read

// Throws ToolError: usage for a marker breaking the grammar or a marker two transcripts carry (both named),
// not_found when no recent tail holds it (saying what was searched).
TrapResolution resolve_self_marker(std::string_view marker, const std::string& projects_root);

// True when the record is an assistant's call of an MCP tool (`mcp__<server>__<tool>`) whose input carries
// `marker`.
bool record_has_mcp_marker(const Record& record, std::string_view marker);

// The note an @self that resolved to a top-level transcript carries.
std::string self_main_lane_note(std::string_view marker, const std::string& session_id);

}  // namespace csift
