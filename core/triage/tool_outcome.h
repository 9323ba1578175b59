// How one tool call ended, by its harness's own record (SPEC.md §13.2): the status marker a JSON-lines reader
// set, OpenCode's recorded outcome, or Claude Code's is_error with its fixed denial and interrupt texts.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/record/record.h"

namespace csift {

// CallStatus and call_status_name: core/record/record.h.
struct CallOutcome {
  CallStatus status = CallStatus::ok;
  std::optional<int64_t> exit_code;  // the harness's, else an `Exit code N` first line of the result
  // "exit" (an error with an exit code), "tool_error", "denied", "interrupted"; "" when ok.
  std::string error_class;
};

// The outcome of `result` (a tool_result block of `result_record`), for a transcript of `harness`.
CallOutcome call_outcome(HarnessId harness, const Record& result_record, const Block& result);

// An entry the harness recorded as the user's interrupt that closes no call: Claude Code's
// `[Request interrupted by user` text, or an OpenCode assistant message ended by an abort.
bool is_interrupt_entry(HarnessId harness, const Record& r);

// `Exit code N` on the first line of a result text (Claude Code's Bash writes it), else nullopt.
std::optional<int64_t> leading_exit_code(std::string_view text);

}  // namespace csift
