// `search` (SPEC.md §9.2): regex over the transcripts of a scope, returning each hit inside its complete
// round-trip exchange (text or JSON), or one of the terminal modes -c / -l / --raw / --count-by.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_search(const json& args, ToolContext& ctx);
std::string render_search_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
