#include "tools/verbatim/verbatim_render.h"

#include <algorithm>

#include "core/base/text.h"
#include "core/base/timefmt.h"

namespace csift {
namespace {

constexpr const char* kUserGlyph = "\xE2\x96\xBD";               // ▽
constexpr const char* kAgentGlyph = "\xE2\x96\xB3";              // △
constexpr const char* kEllipsis = "\xE2\x80\xA6";                // …
constexpr const char* kDash = "\xE2\x80\x93";                    // –
constexpr const char* kBannerRule = "\xE2\x95\x90\xE2\x95\x90";  // ══

// Byte offset of code point `n` (the end when the text is shorter).
size_t byte_of_char(std::string_view s, size_t n) {
  size_t i = 0;
  while (n > 0 && i < s.size()) {
    ++i;
    while (i < s.size() && is_utf8_continuation(s[i]))
      ++i;
    --n;
  }
  return i;
}

std::string str(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

uint64_t num(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_number() ? it->get<uint64_t>() : 0;
}

std::string plural(uint64_t n, const char* one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

std::string turn_block(const json& row) {
  const bool user = str(row, "role") == "user";
  std::string head = std::string(user ? kUserGlyph : kAgentGlyph) + " L" + std::to_string(num(row, "line")) +
                     (user ? " USER" : " ASSISTANT");
  if (const auto ms = parse_iso8601(str(row, "ts_utc"))) head += " (" + format_local(*ms) + ")";
  const auto images = row.find("images");
  if (images != row.end() && images->is_array() && !images->empty()) {
    head += " [" + std::to_string(images->size()) + " image(s):";
    for (size_t k = 0; k < images->size(); ++k)
      head += (k ? ", " : " ") + (*images)[k].get<std::string>();
    head += "]";
  }
  if (row.value("also_in_summary", false)) head += " (also in summary)";
  const std::string text = str(row, "text");
  std::string body = text;
  if (row.value("truncated", false)) {
    const size_t head_end = byte_of_char(text, num(row, "head_chars"));
    const size_t tail_begin = byte_of_char(text, utf8_length(text) - num(row, "tail_chars"));
    std::string marker = std::string(kEllipsis) + " [+" + std::to_string(num(row, "elided_chars")) + " chars";
    const bool count_lines = !(user && text.find('\n') == std::string::npos);
    if (count_lines) marker += ", " + std::to_string(num(row, "elided_lines")) + " lines";
    marker += " elided] " + std::string(kEllipsis);
    body = text.substr(0, head_end) + "\n" + marker + "\n" + text.substr(tail_begin);
  }
  const uint64_t calls = num(row, "tool_calls");
  const std::string marker = calls > 0 ? "[" + plural(calls, "tool call") + "]\n" : "";
  if (user) return head + "\n" + body + "\n" + marker;
  return marker + head + "\n" + body + "\n";
}

std::string collapsed_block(const json& row) {
  std::string s = std::string(kAgentGlyph) + " L" + std::to_string(num(row, "first_line")) + kDash + "L" +
                  std::to_string(num(row, "last_line")) + " [" +
                  plural(num(row, "agent_messages"), "agent message") + ", " +
                  plural(num(row, "tool_calls"), "tool call");
  if (num(row, "failed") > 0) s += ", " + std::to_string(num(row, "failed")) + " failed";
  return s + "]\n";
}

}  // namespace

Elision plan_elision(std::string_view text, size_t cap, double head_fraction) {
  Elision e;
  const size_t chars = utf8_length(text);
  if (chars <= cap) return e;
  e.truncated = true;
  e.head_chars = static_cast<size_t>(static_cast<double>(cap) * head_fraction);
  e.tail_chars = cap - e.head_chars;
  e.elided_chars = chars - cap;
  const size_t from = byte_of_char(text, e.head_chars), to = byte_of_char(text, chars - e.tail_chars);
  e.elided_lines = static_cast<size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(from),
                                                  text.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
  return e;
}

std::string render_row_block(const json& row) {
  const std::string kind = str(row, "kind");
  if (kind == "turn") return turn_block(row);
  if (kind == "collapsed_agents") return collapsed_block(row);
  if (kind == "compaction_boundary") {
    return std::string(kBannerRule) + " compaction boundary \xC2\xB7 summary at L" +
           std::to_string(num(row, "line")) + " " + kBannerRule + "\n";
  }
  return "";
}

}  // namespace csift
