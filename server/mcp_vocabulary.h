// Tools write their notes (the zero-match diagnosis, lane notes, cautions) for the command line: they name
// flags (`-t`, `--count-by`) and spell follow-up calls as `csift-mcp --cli ...`. Over MCP the caller knows
// argument names instead, so the server rewrites a note into that vocabulary before it sends it. The
// mapping comes from the same annotated schema the CLI parser reads, so the two cannot drift apart.
#pragma once
#include <string>
#include <string_view>

namespace csift {

// `note` as written by `tool`, with its flags named as that tool's arguments (`-t` -> `label`,
// `--count-by` -> `count_by`, `--attachments` -> `attachments=true`, a negation flag -> `no_x=false`) and
// each `csift-mcp --cli <tool> ...` up to the end of its line spelled as the MCP call `<tool> {arguments}`.
std::string mcp_vocabulary(std::string_view tool, std::string_view note);

}  // namespace csift
