// The identity probe (session_probe.h) for a harness whose records are mapped from another format: the
// whole transcript is read through its reader (the head/tail windows are Claude Code's byte layout), and the
// same anchors are taken from the mapped records.
#pragma once
#include "core/harness/claude_code/session_probe.h"
#include "core/record/transcript.h"

namespace csift {

SessionProbe probe_by_reading(const Transcript& t);
// probe_session for a Claude Code transcript, probe_by_reading for any other.
SessionProbe probe_transcript(const Transcript& t);

}  // namespace csift
