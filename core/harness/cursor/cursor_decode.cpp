// One Cursor transcript line -> a record.
#include <nlohmann/json.hpp>

#include "core/harness/cursor/cursor_reader.h"

namespace csift {

namespace {

using cjson = nlohmann::json;

std::string cursor_str(const cjson& obj, const char* key) {
  if (!obj.is_object()) return "";
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The human's words inside Cursor's `<user_query>` wrapper; the text unchanged when it has none.
std::string cursor_unwrap_query(const std::string& text) {
  static const std::string open = "<user_query>", close = "</user_query>";
  const size_t a = text.find(open);
  const size_t b = a == std::string::npos ? a : text.find(close, a + open.size());
  if (b == std::string::npos) return text;
  const size_t first = text.find_first_not_of(" \t\r\n", a + open.size());
  const size_t last = text.find_last_not_of(" \t\r\n", b - 1);
  return first == std::string::npos || first > last ? std::string() : text.substr(first, last - first + 1);
}

std::string cursor_result_text(const cjson& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (content.is_array())
    for (const cjson& part : content)
      if (cursor_str(part, "type") == "text") out += (out.empty() ? "" : "\n") + cursor_str(part, "text");
  return out;
}

Block cursor_block(const cjson& c, bool user) {
  Block b;
  b.type = cursor_str(c, "type");
  if (b.type == "text") {
    b.kind = BlockKind::text;
    b.text = user ? cursor_unwrap_query(cursor_str(c, "text")) : cursor_str(c, "text");
  } else if (b.type == "thinking" || b.type == "reasoning") {
    b.kind = BlockKind::thinking;
    b.text = cursor_str(c, "thinking");
    if (b.text.empty()) b.text = cursor_str(c, "text");
  } else if (b.type == "tool_use") {
    b.kind = BlockKind::tool_use;
    b.id = cursor_str(c, "id");
    b.name = cursor_str(c, "name");
    if (const auto in = c.find("input"); in != c.end())
      b.input_json = in->dump(-1, ' ', false, cjson::error_handler_t::replace);
  } else if (b.type == "tool_result") {
    b.kind = BlockKind::tool_result;
    b.tool_use_id = cursor_str(c, "tool_use_id");
    if (const auto content = c.find("content"); content != c.end()) {
      b.content_text = cursor_result_text(*content);
    }
    if (const auto err = c.find("is_error"); err != c.end() && err->is_boolean()) {
      b.is_error = err->get<bool>();
      b.has_is_error = true;
    }
  }
  return b;
}

}  // namespace

static bool decode_cursor_fields(const cjson& j, Record& r);

bool decode_cursor_line(std::string_view line, Record& r, std::string& error) {
  const cjson j = cjson::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "malformed JSON: not a {...} object";
    return false;
  }
  try {
    return decode_cursor_fields(j, r);
  } catch (const std::exception& e) {  // every read is type-checked; an exception would be a bug
    error = std::string("unreadable Cursor line: ") + e.what();
    return false;
  }
}

static bool decode_cursor_fields(const cjson& j, Record& r) {
  std::string role = cursor_str(j, "role");
  if (role.empty()) role = cursor_str(j, "type");
  r.type = role.empty() ? "unknown" : role;
  const auto msg = j.find("message");
  if (msg == j.end() || !msg->is_object()) return true;
  Message& m = r.message;
  m.present = true;
  m.role = cursor_str(*msg, "role").empty() ? role : cursor_str(*msg, "role");
  const auto content = msg->find("content");
  if (content == msg->end()) return true;
  m.has_content = true;
  const bool user = role == "user";
  if (content->is_string()) {
    m.content_is_string = true;
    m.content_string = user ? cursor_unwrap_query(content->get<std::string>()) : content->get<std::string>();
    Block b;
    b.kind = BlockKind::text;
    b.type = "text";
    b.text = m.content_string;
    m.blocks.push_back(std::move(b));
    m.content_is_string = false;  // one text block: every consumer reads blocks
  } else if (content->is_array()) {
    for (const cjson& c : *content)
      m.blocks.push_back(cursor_block(c, user));
  }
  return true;
}

bool cursor_opens_turn(const Record& r) {
  if (r.type != "user") return false;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text && b.text.find_first_not_of(" \t\r\n") != std::string::npos) return true;
  return false;
}

}  // namespace csift
