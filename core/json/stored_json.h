// Raw JSON a record kept verbatim (a tool input, toolUseResult, an attachment, a message body), parsed only
// when a rule needs a field of it: most records never do, and some of these texts are megabytes. One place
// decides how such text is read, and none of it throws — text that does not parse reads as absent.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// The parsed value, or null when the text is empty or not JSON.
nlohmann::json parse_stored_json(std::string_view raw);
// The parsed object, or an empty object when the text is not a JSON object.
nlohmann::json parse_stored_object(std::string_view raw);
// The top-level fields of a stored object, read without building it: a toolUseResult can be megabytes and
// a rule wants one or two of its fields (nlohmann parsing whole results for them was 6-8 % of a cold
// common-word count). Answers equal parse_stored_object's on every text: a text that is not a well-formed
// object, or that nlohmann might refuse where the validator does not (invalid UTF-8, a surrogate escape),
// is answered from the parsed object instead. Of duplicate keys the last counts, as in the parsed object.
class StoredObject {
 public:
  explicit StoredObject(std::string_view raw);
  // The string at `key` ("" when the text is not an object, the key is absent, or its value is not a string).
  std::string string_field(std::string_view key) const;
  // The boolean at `key` (nullopt when absent or not a boolean).
  std::optional<bool> bool_field(std::string_view key) const;

 private:
  bool walkable() const;
  std::optional<std::string_view> value_token(std::string_view key) const;
  const nlohmann::json& parsed() const;

  std::string_view raw_;
  mutable std::optional<bool> walkable_;  // decided at the first question: most records are asked none
  mutable std::optional<nlohmann::json> parsed_;
};

// StoredObject(raw).string_field(key).
std::string stored_string_field(std::string_view raw, std::string_view key);
// The string at `key` of an already parsed value ("" when it is not an object, the key is absent, or its
// value is not a string). The key is matched whole: a key read from a log may hold a NUL (`"\u0000"`), and a
// C-string key stopped there (string_field's fallback matched `tc000\u0000e` as `tc000`: the campaign's
// find).
std::string json_string_at(const nlohmann::json& obj, std::string_view key);
// A small JSON file beside the transcripts (a meta, a registry row, a manifest, a task): its parsed value, or
// null when it cannot be read or is not JSON.
nlohmann::json read_json_file(const std::string& path);

}  // namespace csift
