// OpenCode's readers behind the seam (core/record/transcript_reader.h): one for OpenCode 1's schema, one for
// OpenCode 2's, both reading a session's rows from its SQLite database as the in-memory log of
// opencode_log.h (a line is one message; its number is the message's ordinal in the session).
#pragma once
#include "core/harness/opencode/opencode_store.h"
#include "core/record/transcript_reader.h"

namespace csift {

const TranscriptReader& opencode_v1_reader();
const TranscriptReader& opencode_v2_reader();

}  // namespace csift
