// `show` (SPEC.md §9.3): fetch the records you NAME from ONE transcript — by jsonl line, record uuid or turn
// — rendered FULL through the shared per-record pipeline, or as verbatim line bytes under --raw.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_show(const json& args, ToolContext& ctx);
std::string render_show_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
