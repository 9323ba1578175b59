#include "core/base/terminal_text.h"

#include <cstdio>

namespace csift {

namespace {

bool is_c0_or_del(unsigned char c) {
  return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

// A UTF-8 encoded C1 control: 0xC2 followed by 0x80..0x9F.
bool is_c1_at(std::string_view s, size_t i) {
  return static_cast<unsigned char>(s[i]) == 0xC2 && i + 1 < s.size() &&
         static_cast<unsigned char>(s[i + 1]) >= 0x80 && static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

void append_escape(std::string& out, unsigned code, ControlEscape style) {
  char buf[8];
  std::snprintf(buf, sizeof buf, style == ControlEscape::json ? "\\u%04x" : "\\x%02x", code);
  out += buf;
}

}  // namespace

std::string escape_terminal_controls(std::string_view text, ControlEscape style) {
  size_t i = 0;
  while (i < text.size() && !is_c0_or_del(static_cast<unsigned char>(text[i])) && !is_c1_at(text, i))
    ++i;
  if (i == text.size()) return std::string(text);
  std::string out(text.substr(0, i));
  out.reserve(text.size() + 16);
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (is_c0_or_del(c)) {
      append_escape(out, c, style);
    } else if (is_c1_at(text, i)) {
      append_escape(out, static_cast<unsigned char>(text[i + 1]), style);
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace csift
