// Where a failed call's excerpt starts in its result text: each harness's framing around the output (a frame,
// a header the harness writes before it) is skipped here, where the excerpt is made, by that harness's rule;
// the record keeps the text verbatim.
#pragma once
#include <string_view>

#include "core/record/harness_id.h"

namespace csift {

// The part of `text` (a tool_result of `tool`) an excerpt shows, blanks around it trimmed.
std::string_view result_excerpt_body(HarnessId harness, std::string_view tool, std::string_view text);

}  // namespace csift
