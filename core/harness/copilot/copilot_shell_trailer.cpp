// Copilot CLI's shell-result trailer (copilot_shell_trailer.h), matched exactly: a line of the tool's own
// making, so a reworded trailer in a new release is not read (the call then has no exit code from it).
#include "core/harness/copilot/copilot_shell_trailer.h"

#include <charconv>
#include <string>

namespace csift {

namespace {

bool copilot_trailer_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// A token without blanks or `>` (a shell id).
bool copilot_take_word(std::string_view& s) {
  size_t n = 0;
  while (n < s.size() && !copilot_trailer_blank(s[n]) && s[n] != '>')
    ++n;
  if (n == 0) return false;
  s.remove_prefix(n);
  return true;
}

bool copilot_take(std::string_view& s, std::string_view lit) {
  if (!s.starts_with(lit)) return false;
  s.remove_prefix(lit.size());
  return true;
}

// The exit code of one trailer line (without its line break), or nullopt when it is not one.
std::optional<int64_t> copilot_trailer_line(std::string_view s) {
  if (!copilot_take(s, "<")) return std::nullopt;
  if (copilot_take(s, "shellId: ")) {
    if (!copilot_take_word(s) || !copilot_take(s, " completed")) return std::nullopt;
  } else if (copilot_take(s, "command with id: ") || copilot_take(s, "command with shellId: ")) {
    if (!copilot_take_word(s) || !copilot_take(s, " exited")) return std::nullopt;
  } else if (!copilot_take(s, "exited")) {
    return std::nullopt;
  }
  if (!copilot_take(s, " with exit code ")) return std::nullopt;
  int64_t code = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), code);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<size_t>(end - s.data()));
  if (s != ">") return std::nullopt;
  return code;
}

}  // namespace

std::optional<CopilotShellTrailer> copilot_shell_trailer(std::string_view text) {
  size_t end = text.size();
  while (end > 0 && copilot_trailer_blank(text[end - 1]))
    --end;
  const size_t nl = text.rfind('\n', end == 0 ? 0 : end - 1);
  const size_t begin = nl == std::string_view::npos || end == 0 ? 0 : nl + 1;
  const auto code = copilot_trailer_line(text.substr(begin, end - begin));
  if (!code) return std::nullopt;
  return CopilotShellTrailer{begin, *code};
}

std::string_view copilot_text_before_trailer(std::string_view text) {
  const auto trailer = copilot_shell_trailer(text);
  if (!trailer) return text;
  std::string_view before = text.substr(0, trailer->begin);
  while (!before.empty() && copilot_trailer_blank(before.back()))
    before.remove_suffix(1);
  return before;
}

}  // namespace csift
