// Helpers the tools' text renderings share: they read the envelope back (a missing or mistyped field reads as
// "" or 0, so a rendering never throws on a partial envelope) and phrase the parts every rendering has.
#pragma once
#include <cstdint>
#include <string>

#include "core/base/envelope.h"

namespace csift {

// obj[key] when it is a string, else "".
std::string json_str(const json& obj, const char* key);
// obj[key] when it is a number, else 0.
uint64_t json_count(const json& obj, const char* key);
// "1 transcript", "2 transcripts".
std::string plural(uint64_t n, const char* one, const char* many);
// A canonical UTC timestamp as local time, or `missing` when it is absent or unreadable.
std::string local_time_or(const std::string& iso, const char* missing);
// The title of a transcript's block: `SESSION <id>`, or `SUBAGENT <id> ([<agent type>, ]<shape>) of SESSION
// <parent>` (parent "(unknown)" when absent), from a row's id trio, agent_type and shape (no newline).
std::string transcript_title(const json& row);
// The first line of list, stats and search text: `scope N transcript(s) (T top-level, S subagent)`, from a
// header's sessions_in_scope / top_level_sessions / subagent_sessions (no newline).
std::string scope_banner(const json& header);

}  // namespace csift
