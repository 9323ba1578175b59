// `agents` (SPEC.md §9.6): the parent -> child tree of every subagent a session spawned, each joined to the
// call that spawned it, with its lifecycle, what it returned and (on request) the files it changed.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_agents(const json& args, ToolContext& ctx);
std::string render_agents_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
