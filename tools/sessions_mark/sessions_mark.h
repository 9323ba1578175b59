// sessions_mark: records what a triage run did with digested sessions (SPEC.md §14).
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_sessions_mark(const json& args, ToolContext& ctx);
std::string render_sessions_mark_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
