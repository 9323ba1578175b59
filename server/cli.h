// The CLI shim: `csift-mcp --cli <tool> ...`. Flags, positionals and --help are generated from the tool's
// annotated input schema (schemas/README.md: `x-cli` positional/short/negate, `x-cli-examples`), so the CLI
// and the MCP surface cannot drift apart.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"

namespace csift {

struct CliArgs {
  json args = json::object();  // the tool's arguments object (no defaults applied: the dispatcher does that)
  bool help = false;           // -h / --help seen (before `--`)
};

// Parses the tokens after `--cli <tool>` against the tool's annotated input schema. Flag order is free; `--`
// ends flags. Throws ToolError(usage) naming the offending token and what is valid.
// `projects_root`, when given, settles a `-`-led token that is not a lone short flag (`-home-me-proj`): one
// that names a project directory there is a target (when the tool's next positional takes targets); any
// other is read as short flags, and an unknown one says how to write a project directory instead.
CliArgs parse_cli_args(std::string_view tool, const json& input_schema,
                       const std::vector<std::string>& tokens,
                       const std::optional<std::string>& projects_root = std::nullopt);

// `csift-mcp --cli <tool> --help`: title, description, usage, positionals, flags, examples.
std::string render_tool_help(std::string_view tool, const json& input_schema);
// `csift-mcp --help`: the server modes and every registered tool.
std::string render_top_help();

// Runs one tool from the command line. argv[0] is the tool name (the tokens after `--cli`). Text output goes
// to stdout, notes and text-mode errors to stderr. Exit 0 success, 2 usage error, 1 any other error.
int run_cli(int argc, char** argv);

// The CLI command line equivalent to calling `tool` with `args` (`csift-mcp --cli show @x --turn -3..`).
std::string render_continuation_cli(std::string_view tool, const json& args);
// How a CLI message names argument `property` of `tool` (ToolContext::spell_arg): its flag, the short one
// (`-t`) when `prefer_short` and the tool has one.
std::string spell_cli_arg(std::string_view tool, std::string_view property, bool prefer_short);

}  // namespace csift
