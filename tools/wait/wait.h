// wait (the seed's §6.14; SPEC.md §9.11): block until a condition on one live session fires, or the timeout.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_wait(const json& args, ToolContext& ctx);
std::string render_wait_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
