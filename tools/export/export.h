// `export` (SPEC.md §9.15): keep these sessions. Copies each session's files — transcript, subagent lanes,
// tool-result files, sidecars, file-history backups, plan — into a directory the caller names, in the
// Claude home's own layout, skipping a file whose copy already has its size and mtime. It reads the store
// and never writes under it: a destination inside the Claude home is refused.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_export(const json& args, ToolContext& ctx);
std::string render_export_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
