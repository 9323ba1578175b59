// sessions_status: per harness, where its store is and how many sessions are in each triage state; the saved
// selection, which set_selection replaces (SPEC.md §14).
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_sessions_status(const json& args, ToolContext& ctx);
std::string render_sessions_status_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
