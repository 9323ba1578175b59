// Per-harness excerpt rules (result_excerpt.h). Gemini CLI: the `<untrusted_context>` frame and an old shell
// result's `Command:` / `Directory:` header are its own (core/harness/gemini_cli/gemini_cli_text.h).
#include "core/triage/result_excerpt.h"

#include "core/base/text.h"
#include "core/harness/gemini_cli/gemini_cli_text.h"

namespace csift {

std::string_view result_excerpt_body(HarnessId harness, std::string_view tool, std::string_view text) {
  if (harness == HarnessId::gemini_cli) return trim(gemini_excerpt_body(tool, text));
  return trim(text);
}

}  // namespace csift
