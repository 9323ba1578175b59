// `stats` (SPEC.md §9.4): one-scan aggregates per transcript — line census, records, turns, compactions,
// span, tokens per model (deduped per API message), narration blocks and tool calls — plus scope totals.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_stats(const json& args, ToolContext& ctx);
std::string render_stats_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
