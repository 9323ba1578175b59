// whoami (SPEC.md §9.5): the calling transcript. Over MCP, when the client names the call's tool_use (Claude
// Code does), the transcript holding that very call, any lane; else Claude Code's session registry or
// CLAUDE_CODE_SESSION_ID (the top-level session). With `@self:<marker>` / `@trap:<marker>`, the transcript
// carrying the marker and its upstream ancestry chain.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_whoami(const json& args, ToolContext& ctx);
std::string render_whoami_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
