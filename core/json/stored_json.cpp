#include "core/json/stored_json.h"

#include "core/base/text.h"
#include "core/json/json_syntax.h"
#include "core/scan/substring_finder.h"

#include <simdjson.h>

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

namespace {

// A \uD800-\uDFFF escape (nlohmann accepts a surrogate only as a well-formed pair). Caseless and blind to
// whether the backslash is itself escaped: a false "maybe" only sends the text to nlohmann.
bool may_hold_surrogate_escape(std::string_view raw) {
  static const SubstringFinder kSurrogate(
      {"\\ud8", "\\ud9", "\\uda", "\\udb", "\\udc", "\\udd", "\\ude", "\\udf"}, true);
  return kSurrogate.contains(raw);
}

// A string token's value: the bytes between its quotes when it holds no escape, else nlohmann's decoding.
std::string string_token_value(std::string_view token) {
  const std::string_view body = token.substr(1, token.size() - 2);
  if (body.find('\\') == std::string_view::npos) return std::string(body);
  const nlohmann::json j = nlohmann::json::parse(token, nullptr, /*allow_exceptions=*/false);
  return j.is_string() ? j.get<std::string>() : std::string();
}

bool key_equals(std::string_view key_token, std::string_view key) {
  const std::string_view body = key_token.substr(1, key_token.size() - 2);
  if (body.find('\\') == std::string_view::npos) return body == key;
  return string_token_value(key_token) == key;
}

}  // namespace

StoredObject::StoredObject(std::string_view raw) : raw_(raw) {}

bool StoredObject::walkable() const {
  if (!walkable_)
    walkable_ = !raw_.empty() && raw_.front() == '{' && json_object_well_formed(raw_) &&
                simdjson::validate_utf8(raw_.data(), raw_.size()) && !may_hold_surrogate_escape(raw_);
  return *walkable_;
}

const nlohmann::json& StoredObject::parsed() const {
  if (!parsed_) parsed_ = parse_stored_object(raw_);
  return *parsed_;
}

// The value token of the last top-level `key`, walking a text known to be one well-formed object: keys and
// string values by their closing quote, nested values by their closing bracket, scalars to the next
// delimiter.
std::optional<std::string_view> StoredObject::value_token(std::string_view key) const {
  std::optional<std::string_view> found;
  size_t i = skip_json_space(raw_, 1);
  if (raw_[i] == '}') return found;
  for (;;) {
    const size_t key_end = json_string_end(raw_, i);
    const std::string_view key_token = raw_.substr(i, key_end - i);
    i = skip_json_space(raw_, skip_json_space(raw_, key_end) + 1);  // past the colon
    size_t value_end = i;
    if (raw_[i] == '{' || raw_[i] == '[') {
      value_end = json_container_end(raw_, i);
    } else if (raw_[i] == '"') {
      value_end = json_string_end(raw_, i);
    } else {
      while (value_end < raw_.size() && raw_[value_end] != ',' && raw_[value_end] != '}' &&
             !is_json_space(raw_[value_end]))
        ++value_end;
    }
    if (key_equals(key_token, key)) found = raw_.substr(i, value_end - i);
    i = skip_json_space(raw_, value_end);
    if (raw_[i] != ',') return found;  // the closing brace
    i = skip_json_space(raw_, i + 1);
  }
}

std::string StoredObject::string_field(std::string_view key) const {
  if (!walkable()) return json_string_at(parsed(), key);
  const auto token = value_token(key);
  return token && token->front() == '"' ? string_token_value(*token) : std::string();
}

std::optional<bool> StoredObject::bool_field(std::string_view key) const {
  if (!walkable()) {
    const nlohmann::json& j = parsed();
    const auto it = j.find(key);
    if (it == j.end() || !it->is_boolean()) return std::nullopt;
    return it->get<bool>();
  }
  const auto token = value_token(key);
  if (token == "true") return true;
  if (token == "false") return false;
  return std::nullopt;
}

std::string stored_string_field(std::string_view raw, std::string_view key) {
  return StoredObject(raw).string_field(key);
}

std::string json_string_at(const nlohmann::json& obj, std::string_view key) {
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
