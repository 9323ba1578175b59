// `csift-mcp hook elicitation`: the Claude Code hook that writes the elicitation sidecar (the seed's §6.10).
// Claude Code buffers an AskUserQuestion / ExitPlanMode call and never writes an MCP elicitation, so while a
// human is being asked nothing is on disk; this hook appends a pending marker when the ask starts and a
// resolved marker when it ends. It writes only <project>/<session uuid>/elicitations.jsonl.
#pragma once
#include <iosfwd>
#include <string>

namespace csift {

// Reads one hook payload (JSON) from `in`; appends the marker it calls for. Returns the process exit status:
// 0 written or nothing to do, 1 an error said on stderr. Never 2 (which would block the tool call).
int run_elicitation_hook(std::istream& in);

// The marker line for a hook payload ("" when the event needs none); exposed for tests.
std::string elicitation_marker_line(const std::string& payload, std::string& sidecar_path,
                                    std::string& error);

}  // namespace csift
