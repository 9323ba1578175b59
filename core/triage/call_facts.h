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

// The reference's argument digest, so digests of both tools join: the first 12 hex digits of the SHA-256 of
// the command with its white space normalised, or, when the input names no command, of the input's JSON
// without the white space between tokens (keys in the order the log wrote them).
std::string args_digest(std::string_view input_json);
// The command with every run of white space made one space and none at either end: a retry that differs
// from the failed call only in white space is the same command.
std::string normalize_command_space(std::string_view command);

// csift-mcp's own call: the tool is one of csift-mcp's MCP tools (its name holds `csift`), or a segment of
// the command starts, after variable assignments and env / exec / sudo / command / time, with `csift-mcp`.
bool is_self_call(std::string_view tool, std::string_view input_json);
// The command rule alone (tests).
bool command_runs_csift(const std::string& command);

}  // namespace csift
