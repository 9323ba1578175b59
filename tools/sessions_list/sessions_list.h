// sessions_list: every session of the selected harnesses with its triage state (SPEC.md §14).
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_sessions_list(const json& args, ToolContext& ctx);
std::string render_sessions_list_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
