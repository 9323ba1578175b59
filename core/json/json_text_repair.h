// Makes a jsonl line that is valid JSON except for its text encoding parseable, without touching its meaning
// elsewhere: invalid UTF-8 bytes become U+FFFD and lone UTF-16 surrogate escapes (`\ud83d` with no partner,
// which JSON.stringify writes for a cut emoji) become `\ufffd`. The raw line on disk is never changed; only
// the parsed copy is, and the record says so (Record::text_repaired).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// The repaired copy, or nullopt when the line has nothing to repair.
std::optional<std::string> repair_json_text(std::string_view line);

}  // namespace csift
