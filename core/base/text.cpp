#include "core/base/text.h"

#include <algorithm>

namespace csift {

std::string_view trim_start(std::string_view s, std::string_view chars) {
  const size_t b = s.find_first_not_of(chars);
  return s.substr(b == std::string_view::npos ? s.size() : b);
}

std::string_view trim_end(std::string_view s, std::string_view chars) {
  const size_t e = s.find_last_not_of(chars);
  return s.substr(0, e == std::string_view::npos ? 0 : e + 1);
}

std::string_view trim(std::string_view s, std::string_view chars) {
  return trim_end(trim_start(s, chars), chars);
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::vector<std::string> split_commas(std::string_view joined) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= joined.size()) {
    const size_t comma = std::min(joined.find(',', start), joined.size());
    if (comma > start) out.emplace_back(joined.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = lower_ascii(c);
  return out;
}

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (lower_ascii(s[i]) != lower_ascii(prefix[i])) return false;
  }
  return true;
}

}  // namespace csift
