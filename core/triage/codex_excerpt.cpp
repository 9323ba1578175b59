#include "core/triage/codex_excerpt.h"

namespace csift {

std::string_view codex_excerpt_body(std::string_view text) {
  // The lines Codex writes before `Output:` (unified exec and the older shell tool).
  static constexpr std::string_view kHeaderLines[] = {
      "Chunk ID: ",  "Wall time: ",          "Process exited with code ",       "Original token count: ",
      "Exit code: ", "Total output lines: ", "Process running with session ID "};
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return text;
    const std::string_view line = text.substr(at, nl - at);
    if (line == "Output:") {
      const std::string_view body = text.substr(nl + 1);
      return body.find_first_not_of(" \t\r\n") == std::string_view::npos ? text : body;
    }
    bool known = false;
    for (std::string_view h : kHeaderLines)
      known = known || line.starts_with(h);
    if (!known) return text;
    at = nl + 1;
  }
  return text;
}

}  // namespace csift
