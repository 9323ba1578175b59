// `plan` (SPEC.md §9.14): which plan file a session is bound to (it locates; `recover` with file @plan
// rebuilds the content), or with `reverse`, which sessions a plan file is bound to.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_plan(const json& args, ToolContext& ctx);
std::string render_plan_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
