// `image` (SPEC.md §9.9): list the images transcripts carry inline, content-deduped, each with the `#N`
// handle the model saw and its exact `L<line>i<n>` locator; extract them to files (converting by the output
// extension); over MCP, hand one back as image content.
#pragma once
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

Envelope run_image(const json& args, ToolContext& ctx);
std::string render_image_text(const Envelope& env, const json& args, const ToolContext& ctx);

}  // namespace csift
