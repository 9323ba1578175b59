// The texts Gemini CLI writes around a tool's output, kept in one place: the reader classifies a call by them
// and the digest (core/triage) cuts its excerpt past them. Each is gemini-cli's own
// (google-gemini/gemini-cli, packages/core/src): wrapUntrusted() in utils/textUtils.ts frames a shell, MCP or
// web-fetch result from v0.49.0; tools/shell.ts writes the `Output:` / `Exit Code:` / `Signal:` block (v0.25
// and earlier also `Command:`, `Directory:` and every trailer line with `(none)`); scheduler/*.ts write the
// cancellation texts.
#pragma once
#include <string_view>

namespace csift {

namespace gemini_text {
inline constexpr std::string_view kUntrustedOpen = "<untrusted_context>";
inline constexpr std::string_view kUntrustedClose = "</untrusted_context>";
inline constexpr std::string_view kUserDenied = "[Operation Cancelled] Reason: User denied execution.";
inline constexpr std::string_view kPolicyDenied = "Tool execution denied by policy.";
inline constexpr std::string_view kCancelledPrefix = "[Operation Cancelled]";
inline constexpr std::string_view kShellTimeout =
    "Command was automatically cancelled because it exceeded the timeout";
inline constexpr std::string_view kShellCancelled = "Command was cancelled by user before it could";
}  // namespace gemini_text

// The text inside one `<untrusted_context>` … `</untrusted_context>` frame around the whole of `text` (blanks
// around it ignored); `text` itself when it is not framed so.
std::string_view gemini_unframed(std::string_view text);

// Where a shell result's excerpt starts: past the frame, and past the `Command:` / `Directory:` header of the
// releases that wrote one (from its `Output:` line), so the excerpt holds what the command printed.
std::string_view gemini_excerpt_body(std::string_view tool, std::string_view text);

}  // namespace csift
