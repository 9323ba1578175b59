// `list` (SPEC.md §9.1): which session is this? One identity row per transcript in scope, read from each
// file's head and tail only.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_list(const json& args, ToolContext& ctx);
std::string render_list_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
