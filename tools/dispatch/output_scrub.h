// The `scrub` argument every tool takes (SPEC.md §13.4): secrets and personal data removed from every string
// an answer carries, applied once by the dispatcher to the envelope before it is paged and rendered, so no
// tool scrubs on its own. Over HTTP scrubbing is always on: the server may answer another machine.
#pragma once
#include <optional>
#include <string>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

// Whether this call's output is scrubbed: `scrub` when given, else on over HTTP and off otherwise. Returns
// an error message (for a usage error) when the call asks for unscrubbed output over HTTP.
bool output_scrub_wanted(const json& args, const ToolContext& ctx, std::string& refusal);

// Scrubs every string of the rows, notes, header and summary in place. Follow-up calls ({tool, arguments})
// and continuations keep their arguments as written, so they still name what the caller named.
void scrub_envelope(Envelope& env);
// One row as scrub_envelope scrubs each (a row made after the envelope was scrubbed: Envelope::deferred).
void scrub_row(json& row);

}  // namespace csift
