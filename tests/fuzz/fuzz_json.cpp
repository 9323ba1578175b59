// Fuzzes the JSON well-formedness check (core/json/json_syntax.h) and stored-JSON access
// (core/json/stored_json.h) on arbitrary bytes. A failure is a sanitizer report, an exception, or a broken
// contract: json_object_line_end disagreeing with json_object_well_formed on a line, the 64-byte
// json_container_end disagreeing with its bytewise definition on a well-formed line, an object nlohmann-json
// accepts (nesting within the bound) that the validator calls malformed, or StoredObject's field answers
// differing from those of the parsed object (stored_json.h promises they are equal on every text).
#include <nlohmann/json.hpp>

#include "core/json/json_syntax.h"
#include "core/json/stored_json.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// The deepest nesting of arrays and objects outside strings.
size_t nesting(std::string_view s) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

void check_stored(std::string_view s) {
  (void)csift::parse_stored_json(s);
  const nlohmann::json parsed = csift::parse_stored_object(s);
  FUZZ_CHECK(parsed.is_object(), "parse_stored_object returned a non-object");
  std::vector<std::string> keys = {"type", "name", "a", "", "status"};
  for (const auto& [k, v] : parsed.items())
    if (keys.size() < 8) keys.push_back(k);
  const csift::StoredObject stored(s);
  for (const std::string& key : keys) {
    // The reference looks the key up whole: a key read from the text may hold a NUL (`"\u0000"`), where
    // json_string_at's C-string key (the product passes literals) would stop (the campaign's find was this).
    auto it = parsed.find(key);
    const std::string expect_string = it != parsed.end() && it->is_string() ? it->get<std::string>() : "";
    FUZZ_CHECK(stored.string_field(key) == expect_string,
               "StoredObject::string_field vs the parsed object, key " + key);
    std::optional<bool> expect;
    if (it != parsed.end() && it->is_boolean()) expect = it->get<bool>();
    FUZZ_CHECK(stored.bool_field(key) == expect, "StoredObject::bool_field vs the parsed object, key " + key);
  }
}

}  // namespace

CSIFT_FUZZ_TARGET(json) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  size_t out_of_range = 0;
  const bool well_formed = json_object_well_formed(s, &out_of_range);

  if (s.find('\n') == std::string_view::npos) {
    // The same line inside a block, followed by the start of another line.
    std::string block(s);
    block += "\n{\"";
    size_t block_out_of_range = 0;
    const char* end = json_object_line_end(block.data(), block.data() + block.size(), &block_out_of_range);
    FUZZ_CHECK((end != nullptr) == well_formed, "json_object_line_end vs json_object_well_formed");
    if (end) {
      FUZZ_CHECK(end == block.data() + s.size(),
                 "json_object_line_end stopped elsewhere than the line's end");
      FUZZ_CHECK(block_out_of_range == out_of_range, "out-of-range counts differ");
    }
  }

  // The 64-byte walk and its bytewise definition agree wherever the definition is the contract: on a
  // well-formed line, and on any text without a backslash.
  const bool no_backslash = s.find('\\') == std::string_view::npos;
  int opens = 0;
  for (size_t i = 0; i < s.size() && opens < 16; ++i) {
    if (s[i] != '{' && s[i] != '[') continue;
    ++opens;
    const size_t fast = json_container_end(s, i), slow = json_container_end_bytewise(s, i);
    if (no_backslash || (well_formed && i == s.find_first_not_of(" \t\r\n")))
      FUZZ_CHECK(fast == slow, "json_container_end vs json_container_end_bytewise at " + std::to_string(i));
  }
  for (size_t i = 0, quotes = 0; i < s.size() && quotes < 16; ++i)
    if (s[i] == '"') {
      ++quotes;
      (void)json_string_end(s, i);
    }

  // What nlohmann-json accepts as an object within the nesting bound, the validator accepts (it is the more
  // lenient: it leaves text encoding to the repair step). Not on a NUL byte: nlohmann-json's lexer takes one
  // as the end of the input (for C strings), where the validator reads it as a byte after the object.
  if (s.find('\0') == std::string_view::npos && nlohmann::json::accept(s) && nesting(s) <= kMaxJsonDepth) {
    const nlohmann::json j = nlohmann::json::parse(s, nullptr, false);
    if (j.is_object()) FUZZ_CHECK(well_formed, "nlohmann accepts an object the validator refuses");
  }

  check_stored(s);
  return 0;
}
