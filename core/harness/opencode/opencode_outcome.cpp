// How a tool call ended, by OpenCode's own record first and by its fixed texts, matched literally, where the
// record has no field for it: a reworded text in a later OpenCode reads as a plain error.
#include <string_view>

#include "core/harness/opencode/opencode_decode_detail.h"

namespace csift::opencode_detail {

namespace {

constexpr std::string_view kAbortedTool = "Tool execution aborted";
constexpr std::string_view kShellAborted = "User aborted the command";
constexpr std::string_view kShellTimeout = "tool terminated command after exceeding timeout";
constexpr std::string_view kDenials[] = {
    "The user rejected permission to use this specific tool call",
    "The user has specified a rule which prevents you from using this specific tool call",
    "The user dismissed this question",
};

CallStatus opencode_error_status(std::string_view error) {
  if (error.find(kAbortedTool) != std::string_view::npos) return CallStatus::interrupted;
  for (std::string_view d : kDenials)
    if (error.find(d) != std::string_view::npos) return CallStatus::denied;
  return CallStatus::error;
}

// A completed shell call: a non-zero exit is an error with that code; with no exit code, the abort note is an
// interrupt and the timeout note an error.
void opencode_apply_exit(const json& state, const std::string& output, OpenCodeToolOutcome& out) {
  const json* meta = member(state, "metadata");
  if (!meta) return;
  if (const auto exit = whole(*meta, "exit")) {
    if (*exit != 0) {
      out.status = CallStatus::error;
      out.exit_code = *exit;
    } else {
      out.exit_code = 0;
    }
    return;
  }
  const json* exit = member(*meta, "exit");
  if (exit && !exit->is_null()) return;
  if (output.find(kShellAborted) != std::string::npos)
    out.status = CallStatus::interrupted;
  else if (output.find(kShellTimeout) != std::string::npos)
    out.status = CallStatus::error;
}

}  // namespace

OpenCodeToolOutcome v1_tool_outcome(const json& part) {
  OpenCodeToolOutcome out;
  out.call_id = str(part, "callID");
  out.tool = str(part, "tool");
  const json* state = member(part, "state");
  if (!state) return out;
  const std::string status = str(*state, "status");
  if (status == "completed") {
    out.status = CallStatus::ok;
    opencode_apply_exit(*state, str(*state, "output"), out);
  } else if (status == "error") {
    out.status = opencode_error_status(str(*state, "error"));
  }
  return out;
}

OpenCodeToolOutcome v2_tool_outcome(const json& content) {
  OpenCodeToolOutcome out;
  out.call_id = str(content, "id");
  out.tool = str(content, "name");
  const json* state = member(content, "state");
  if (!state) return out;
  const std::string status = str(*state, "status");
  if (status == "completed") {
    out.status = CallStatus::ok;
    const json* meta = member(*state, "metadata");
    if (meta) {
      if (const auto exit = whole(*meta, "exit")) {
        out.exit_code = *exit;
        if (*exit != 0) out.status = CallStatus::error;
      }
    }
  } else if (status == "error") {
    out.status = CallStatus::error;
  }
  return out;
}

}  // namespace csift::opencode_detail
