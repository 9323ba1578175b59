// Claude Code's reader behind the seam (core/record/transcript_reader.h): ~/.claude/projects/<encoded cwd>/
// <session>.jsonl and its subagent transcripts, one JSON record per line.
#pragma once
#include <string_view>

#include "core/record/transcript_reader.h"

namespace csift {

inline constexpr std::string_view kClaudeCodeHarness = harness_name(HarnessId::claude_code);

const TranscriptReader& claude_code_reader();

}  // namespace csift
