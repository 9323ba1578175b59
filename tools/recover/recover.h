// `recover` (SPEC.md §9.13): a file's bytes rebuilt from what the transcripts showed of it — the final
// content when every line was seen (else a refusal naming the covered and missing ranges and the boundaries),
// a numbered snapshot with explicit gaps (salvage, at), the changes as segmented diffs (patches), or the
// coverage alone; one file, or a list written under a directory with a report.
#pragma once
#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_recover(const json& args, ToolContext& ctx);
std::string render_recover_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
