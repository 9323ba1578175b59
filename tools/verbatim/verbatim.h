// `verbatim` (SPEC.md §9.8): restore the verbatim human and agent turns a compaction summary clipped, newest
// first within a character budget, across compaction boundaries, rendered in file order with their jsonl
// lines; chunked for SessionStart hooks (slice / slices / window) or written whole to a file (out).
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_verbatim(const json& args, ToolContext& ctx);
std::string render_verbatim_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
