// The line Copilot CLI's shell tools close a result with, stating how the command ended: `<exited with exit
// code N>` (bash / powershell, 0.0.376 and 1.0.52), `<command with id: X exited with exit code N>` (their
// read tools), `<shellId: X completed with exit code N>`. It is framing, not output: the reader takes the
// call's exit code from it when nothing else records one, and the digest's excerpt (core/triage) leaves it
// out. Shared by both so the two never disagree on what the trailer is.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace csift {

struct CopilotShellTrailer {
  size_t begin = 0;  // where the trailer line starts in the text (blank lines before it are not counted)
  int64_t exit_code = 0;
};

// The trailer closing `text` (its last non-blank line, exactly one of the forms above), or nullopt.
std::optional<CopilotShellTrailer> copilot_shell_trailer(std::string_view text);

// `text` without its closing trailer and the blank lines before it (`text` itself when it has none).
std::string_view copilot_text_before_trailer(std::string_view text);

}  // namespace csift
