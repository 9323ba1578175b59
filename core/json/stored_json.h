// Raw JSON a record kept verbatim (a tool input, toolUseResult, an attachment, a message body), parsed only
// when a rule needs a field of it: most records never do, and some of these texts are megabytes. One place
// decides how such text is read, and none of it throws — text that does not parse reads as absent.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace csift {

// The parsed value, or null when the text is empty or not JSON.
nlohmann::json parse_stored_json(std::string_view raw);
// The parsed object, or an empty object when the text is not a JSON object.
nlohmann::json parse_stored_object(std::string_view raw);
// The string at top-level `key` of a stored object ("" when the text is not an object, the key is absent, or
// its value is not a string).
std::string stored_string_field(std::string_view raw, std::string_view key);
// The string at `key` of an already parsed value ("" when it is not an object, the key is absent, or its
// value is not a string).
std::string json_string_at(const nlohmann::json& obj, const char* key);
// A small JSON file beside the transcripts (a meta, a registry row, a manifest, a task): its parsed value, or
// null when it cannot be read or is not JSON.
nlohmann::json read_json_file(const std::string& path);

}  // namespace csift
