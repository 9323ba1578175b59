// The compact form a stored JSON text is rendered in (a tool call's input, a record's content body): the
// text nlohmann::json gives when it parses the text and dumps it compactly — object keys sorted bytewise, a
// repeated key's last value kept, no whitespace, strings re-escaped its way (\b \f \n \r \t \" \\, other
// control bytes as lowercase \u00xx, everything else as UTF-8) — so every rule that matches or shows the
// rendered text sees the same bytes as before. Built from a simdjson DOM: nlohmann's character-at-a-time
// lexer and its DOM of std::map nodes were a sixth of a cold whole-store search.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// The compact rendering of `raw`, or nullopt where this fast path does not decide it the way nlohmann would
// (a number that is not an integer, a surrogate escape, text simdjson refuses): callers then take the slow
// path, parse_stored_json + dump.
std::optional<std::string> compact_json_fast(std::string_view raw);

// The compact rendering of `raw`, or nullopt when the text is not JSON (parse_stored_json reads it as null).
std::optional<std::string> compact_json_text(std::string_view raw);

}  // namespace csift
