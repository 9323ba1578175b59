#include "core/json/stored_json.h"

#include "core/base/text.h"
#include "core/json/json_syntax.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

namespace csift {

namespace {

// `raw` with every number beyond a finite double replaced by `null` (nlohmann refuses the whole text
// otherwise), or nullopt when it holds none. Strings are copied untouched.
std::optional<std::string> null_out_of_range_numbers(std::string_view raw) {
  std::string out;
  bool changed = false;
  size_t i = 0;
  while (i < raw.size()) {
    const char c = raw[i];
    if (c == '"') {  // copy the string, escapes included
      size_t j = i + 1;
      while (j < raw.size() && raw[j] != '"')
        j += raw[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, raw.size());
      out.append(raw.substr(i, j - i));
      i = j;
      continue;
    }
    if (c == '-' || is_ascii_digit(c)) {
      size_t j = i + 1;
      while (j < raw.size() && (is_ascii_digit(raw[j]) || raw[j] == '.' || raw[j] == 'e' || raw[j] == 'E' ||
                                raw[j] == '+' || raw[j] == '-'))
        ++j;
      const std::string_view token = raw.substr(i, j - i);
      if (json_number_overflows(token)) {
        out += "null";
        changed = true;
      } else {
        out.append(token);
      }
      i = j;
      continue;
    }
    out += c;
    ++i;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace

nlohmann::json parse_stored_json(std::string_view raw) {
  if (raw.empty()) return nullptr;
  nlohmann::json j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) return j;
  // A number past a finite double is valid JSON (RFC 8259) that nlohmann refuses: such a value reads as
  // absent (null), the rest of the text as written.
  if (const auto nulled = null_out_of_range_numbers(raw)) {
    j = nlohmann::json::parse(*nulled, nullptr, false);
    if (!j.is_discarded()) return j;
  }
  return nullptr;
}

nlohmann::json parse_stored_object(std::string_view raw) {
  // Cheap refusal before the parser runs: most texts that are not objects are strings or arrays.
  if (raw.empty() || raw.front() != '{') return nlohmann::json::object();
  nlohmann::json j = parse_stored_json(raw);
  return j.is_object() ? j : nlohmann::json::object();
}

std::string stored_string_field(std::string_view raw, std::string_view key) {
  const nlohmann::json j = parse_stored_object(raw);
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string json_string_at(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return "";
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_stored_json(text.str());
}

}  // namespace csift
