// Per-harness excerpt rules (result_excerpt.h). Gemini CLI: the `<untrusted_context>` frame and an old shell
// result's `Command:` / `Directory:` header are its own (core/harness/gemini_cli/gemini_cli_text.h). Copilot
// CLI: the shell's closing `<… exit code N>` trailer (copilot_shell_trailer.h). Codex: the `Chunk ID: …
// Output:` header of an exec output (codex_excerpt.h).
#include "core/triage/result_excerpt.h"

#include "core/base/text.h"
#include "core/harness/copilot/copilot_shell_trailer.h"
#include "core/harness/gemini_cli/gemini_cli_text.h"
#include "core/triage/codex_excerpt.h"

namespace csift {

std::string_view result_excerpt_body(HarnessId harness, std::string_view tool, std::string_view text) {
  if (harness == HarnessId::gemini_cli) return trim(gemini_excerpt_body(tool, text));
  if (harness == HarnessId::copilot) return trim(copilot_text_before_trailer(text));
  if (harness == HarnessId::codex) return trim(codex_excerpt_body(text));
  return trim(text);
}

}  // namespace csift
