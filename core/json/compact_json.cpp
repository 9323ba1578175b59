#include "core/json/compact_json.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/json/stored_json.h"

namespace csift {
namespace {

namespace dom = simdjson::dom;

// nlohmann's dump_escaped with ensure_ascii off, for text simdjson has already checked as valid UTF-8.
void append_escaped(std::string& out, std::string_view s) {
  out += '"';
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

bool append_value(std::string& out, dom::element v);

// Keys sorted bytewise (std::map<std::string>'s order); of a repeated key the last value wins, as nlohmann's
// parser assigns each value to its key's slot in turn.
bool append_object(std::string& out, dom::object obj) {
  std::vector<std::pair<std::string_view, dom::element>> fields;
  for (dom::key_value_pair kv : obj)
    fields.emplace_back(kv.key, kv.value);
  std::stable_sort(fields.begin(), fields.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out += '{';
  bool first = true;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i + 1 < fields.size() && fields[i + 1].first == fields[i].first) continue;  // a later one wins
    if (!first) out += ',';
    first = false;
    append_escaped(out, fields[i].first);
    out += ':';
    if (!append_value(out, fields[i].second)) return false;
  }
  out += '}';
  return true;
}

bool append_value(std::string& out, dom::element v) {
  switch (v.type()) {
    case dom::element_type::OBJECT:
      return append_object(out, dom::object(v));
    case dom::element_type::ARRAY: {
      out += '[';
      bool first = true;
      for (dom::element e : dom::array(v)) {
        if (!first) out += ',';
        first = false;
        if (!append_value(out, e)) return false;
      }
      out += ']';
      return true;
    }
    case dom::element_type::STRING:
      append_escaped(out, std::string_view(v));
      return true;
    case dom::element_type::INT64:
      out += std::to_string(int64_t(v));
      return true;
    case dom::element_type::UINT64:
      out += std::to_string(uint64_t(v));
      return true;
    case dom::element_type::BOOL:
      out += bool(v) ? "true" : "false";
      return true;
    case dom::element_type::NULL_VALUE:
      out += "null";
      return true;
    case dom::element_type::DOUBLE:  // nlohmann's float formatting is its own: leave it to nlohmann
      return false;
  }
  return false;
}

// A \uD800-\uDFFF escape: nlohmann refuses a lone one and combines a pair; simdjson's handling is left alone.
bool has_surrogate_escape(std::string_view raw) {
  for (size_t at = raw.find("\\u"); at != std::string_view::npos; at = raw.find("\\u", at + 2)) {
    if (at + 3 < raw.size() && (raw[at + 2] == 'd' || raw[at + 2] == 'D')) {
      const char c = raw[at + 3];
      if ((c >= '8' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> compact_json_fast(std::string_view raw) {
  if (raw.empty() || has_surrogate_escape(raw)) return std::nullopt;
  thread_local dom::parser parser;
  dom::element root;
  if (parser.parse(raw.data(), raw.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
  std::string out;
  out.reserve(raw.size());
  if (!append_value(out, root)) return std::nullopt;
  return out;
}

std::optional<std::string> compact_json_text(std::string_view raw) {
  if (auto fast = compact_json_fast(raw)) return fast;
  const nlohmann::json j = parse_stored_json(raw);
  if (j.is_null()) return std::nullopt;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace csift
