// Gemini CLI's framing of a tool's output (gemini_cli_text.h): read, never rewritten; callers take a view.
#include "core/harness/gemini_cli/gemini_cli_text.h"

#include "core/base/text.h"

namespace csift {

std::string_view gemini_unframed(std::string_view text) {
  const std::string_view t = trim(text);
  if (!t.starts_with(gemini_text::kUntrustedOpen) || !t.ends_with(gemini_text::kUntrustedClose)) return text;
  const size_t open = gemini_text::kUntrustedOpen.size(), close = gemini_text::kUntrustedClose.size();
  if (t.size() < open + close) return text;
  return trim(t.substr(open, t.size() - open - close));
}

std::string_view gemini_excerpt_body(std::string_view tool, std::string_view text) {
  std::string_view body = trim(gemini_unframed(text));
  if (tool != "run_shell_command" || !body.starts_with("Command: ")) return body;
  // v0.25 and earlier: `Command: <command>` (which may span lines), `Directory: …`, then `Output: …`.
  const size_t output = body.find("\nOutput: ");
  return output == std::string_view::npos ? body : body.substr(output + 1);
}

}  // namespace csift
