#include "tools/verbatim/verbatim_slices.h"

#include <algorithm>

#include "core/base/envelope.h"
#include "core/base/text.h"

namespace csift {
namespace {

// Pieces of at most `window` code points (a UTF-8 sequence is never split).
std::vector<std::string_view> split_long(std::string_view s, size_t window) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    size_t i = 0, chars = 0;
    while (i < s.size() && chars < window) {
      ++i;
      while (i < s.size() && is_utf8_continuation(s[i]))
        ++i;
      ++chars;
    }
    out.push_back(s.substr(0, i));
    s.remove_prefix(i);
  }
  return out;
}

std::vector<std::string_view> lines_with_ends(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const size_t nl = s.find('\n');
    const size_t len = nl == std::string_view::npos ? s.size() : nl + 1;
    out.push_back(s.substr(0, len));
    s.remove_prefix(len);
  }
  return out;
}

}  // namespace

std::vector<std::string> pack_forward(std::string_view document, size_t window) {
  std::vector<std::string> chunks;
  std::string current;
  size_t current_chars = 0;
  for (std::string_view line : lines_with_ends(document)) {
    for (std::string_view piece :
         utf8_length(line) > window ? split_long(line, window) : std::vector<std::string_view>{line}) {
      const size_t n = utf8_length(piece);
      if (current_chars + n > window && !current.empty()) {
        chunks.push_back(std::move(current));
        current.clear();
        current_chars = 0;
      }
      current += piece;
      current_chars += n;
    }
  }
  if (!current.empty()) chunks.push_back(std::move(current));
  return chunks;
}

std::vector<std::string> pack_from_end(const std::vector<std::string>& blocks, size_t window) {
  std::vector<std::string> reversed;  // chunks, last first
  std::string current;
  size_t current_chars = 0;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    std::vector<std::string_view> pieces =
        utf8_length(*it) > window ? split_long(*it, window) : std::vector<std::string_view>{*it};
    for (auto p = pieces.rbegin(); p != pieces.rend(); ++p) {
      const size_t n = utf8_length(*p);
      if (current_chars + n > window && !current.empty()) {
        reversed.push_back(std::move(current));
        current.clear();
        current_chars = 0;
      }
      current.insert(0, *p);
      current_chars += n;
    }
  }
  if (!current.empty()) reversed.push_back(std::move(current));
  std::reverse(reversed.begin(), reversed.end());
  return reversed;
}

}  // namespace csift
