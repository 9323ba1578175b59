// Cursor's reader behind the seam (core/record/transcript_reader.h), storage-only: an agent transcript is
// one JSON object a line, {"role": "user" | "assistant", "message": {"content": [blocks]}}, blocks in Claude
// Code's shapes (text, thinking, tool_use, and tool_result where Cursor writes one). Cursor records no
// timestamps, working directory, model or token usage in it, and its IDE transcripts no tool results or call
// ids: those fields stay empty rather than invented. A user message's `<user_query>` wrapper is unwrapped to
// the human's words.
#pragma once
#include "core/harness/cursor/cursor_store.h"
#include "core/record/transcript_reader.h"

namespace csift {

const TranscriptReader& cursor_reader();

// Parses one transcript line into r; false with `error` set when it is not a JSON object.
bool decode_cursor_line(std::string_view line, Record& r, std::string& error);
// Cursor's turn rule: a user record with non-blank text.
bool cursor_opens_turn(const Record& r);

}  // namespace csift
