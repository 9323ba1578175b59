// whoami (SPEC.md §9.5): the calling session from CLAUDE_CODE_SESSION_ID, or — with `@trap:<marker>` —
// the calling SUBAGENT and its upstream ancestry chain, found by the marker in its own transcript.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_whoami(const json& args, ToolContext& ctx);
std::string render_whoami_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
