#include "core/json/json_text_repair.h"

#include "core/base/text.h"
#include "core/json/utf8_repair.h"

namespace csift {

namespace {

// The code unit of a `\uXXXX` escape starting at s[i] (s[i] == '\\'), or -1.
int escape_unit(std::string_view s, size_t i) {
  if (i + 6 > s.size() || s[i] != '\\' || s[i + 1] != 'u') return -1;
  int v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    int h = hex_digit_value(s[k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

bool is_high(int u) {
  return u >= 0xD800 && u <= 0xDBFF;
}
bool is_low(int u) {
  return u >= 0xDC00 && u <= 0xDFFF;
}

// Replaces unpaired surrogate escapes; every other escape is copied as is (escapes only occur in strings).
std::string replace_lone_surrogates(std::string_view s, bool& changed) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i++];
      continue;
    }
    int u = escape_unit(s, i);
    if (u < 0 || (!is_high(u) && !is_low(u))) {
      out.append(s.substr(i, 2));  // any other escape, `\\` included, is two bytes we keep
      i += 2;
      continue;
    }
    if (is_high(u) && is_low(escape_unit(s, i + 6))) {
      out.append(s.substr(i, 12));
      i += 12;
      continue;
    }
    out += "\\ufffd";
    changed = true;
    i += 6;
  }
  return out;
}

}  // namespace

std::optional<std::string> repair_json_text(std::string_view line) {
  Utf8Repair bytes;
  std::string_view valid = bytes.prepare(line);
  bool changed = bytes.repaired();
  std::string out = replace_lone_surrogates(valid, changed);
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace csift
