// What a digest says about a tool call's input (SPEC.md §13.2): the command it ran, a stable digest of its
// arguments (the key retries are matched on), and whether it was csift-mcp's own call.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace csift {

// The shell command of a tool input: `command` or `cmd` as a string, or an argv (a `bash -lc <script>` argv
// read as its script, any other argv joined by spaces). nullopt when the input names no command.
std::optional<std::string> command_of_input(std::string_view input_json);

// 16 hex digits (64-bit FNV-1a) of the command, or of the input's canonical JSON when there is no command.
std::string args_digest(std::string_view input_json);

// csift-mcp's own call: the tool is one of csift-mcp's MCP tools (its name holds `csift`), or a segment of
// the command starts, after variable assignments and env / exec / sudo / command / time, with `csift-mcp`.
bool is_self_call(std::string_view tool, std::string_view input_json);
// The command rule alone (tests).
bool command_runs_csift(const std::string& command);

}  // namespace csift
