// What an OpenCode record carries beyond the shared record model: the status of each tool call as OpenCode
// recorded it (the model has only is_error), how an assistant message ended, and the ids a digest names
// (the message id of a prompt, the call id of a tool). Tools read them through the accessors below.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/record.h"

namespace csift {

// One tool call of a record, in block order: its id, its tool and how it ended.
struct OpenCodeToolOutcome {
  std::string call_id;
  std::string tool;
  std::optional<CallStatus> status;  // nullopt: still running (pending) when the log was written
  std::optional<int64_t> exit_code;  // a shell's exit code when OpenCode recorded one
};

struct OpenCodeFields final : HarnessFields {
  std::string row_type;          // OpenCode 1: the message role; OpenCode 2: the session_message row type
  std::string agent;             // the OpenCode agent (build, plan, ...) when recorded
  std::string provider;          // the model's provider id
  int64_t reasoning_tokens = 0;  // also counted in usage.output_tokens (reasoning is billed as output)
  // How the message ended when not normally: "interrupted" (MessageAbortedError, an aborted step, an idle
  // row with outcome interrupted) or "error: <name>: <message>"; "" otherwise.
  std::string ended;
  std::vector<OpenCodeToolOutcome> tools;
  std::unique_ptr<HarnessFields> clone() const override { return std::make_unique<OpenCodeFields>(*this); }
};

// The record's OpenCode fields, nullptr for a record another reader made.
const OpenCodeFields* opencode_fields(const Record& r);
// The outcome of the call `call_id` in r, nullptr when r records no such call.
const OpenCodeToolOutcome* opencode_tool_outcome(const Record& r, std::string_view call_id);

// Parses one line of render_opencode_log() (either schema's shape) into r. False with `error` set when the
// line is not one of those shapes.
bool decode_opencode_line(std::string_view line, Record& r, std::string& error);

// OpenCode's turn rule: a user record with non-blank text of the human's (synthetic and ignored text parts
// are the harness's, and a message without parts says nothing).
bool opencode_opens_turn(const Record& r);

}  // namespace csift
