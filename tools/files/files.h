// `files` (SPEC.md §9.7): which files and directories a session changed, when, and by which node — the
// structured edits (authoritative) and the Bash heuristics, rolled up by directory (summary, dir), per file,
// or as a timeline; edit-before-read boundaries in their own rows.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_files(const json& args, ToolContext& ctx);
std::string render_files_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
