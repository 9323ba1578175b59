// The tool table: every tool registered once (name, handler, text renderer, how it may be served); its title,
// description, input schema and output schema live in schemas/<name>.input.json / .output.json, embedded at
// build time. The MCP server, the CLI shim and --help are all generated from this table. It includes every
// tool folder's header, so it lives here in tools/dispatch/, apart from the contract (tools/common/tool.h)
// the tools include.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"
#include "tools/common/tool.h"

namespace csift {

struct ToolSpec {
  std::string_view name;
  ToolHandler run;
  TextRenderer render_text;
  bool read_only = true;
  // Blocks for long on purpose (wait): the MCP transports run it on threads of its own, so it never holds
  // a worker that other calls need.
  bool blocks = false;
  // Served to a local caller only (stdio and the command line), never over HTTP, where the server may answer
  // another machine: the session triage tools, whose state and stores are this machine's, and export, which
  // writes to a directory of this machine.
  bool local_only = false;
};

// The rows, checked on first use (names, handlers); each schema file is parsed and checked when first used.
const std::vector<ToolSpec>& tool_table();
const ToolSpec* find_tool(std::string_view name);
// Parses and checks every tool's schemas now (a ToolError naming the first problem): a server calls it at
// start, so a build with a broken schema fails once, up front; a CLI run reads only the schemas it uses.
void check_tool_schemas();

// The schema files as embedded: input schemas carry `x-cli` annotations (CLI shape) that the served form
// drops, with every property whose annotation says `cli_only` (a human's decision at the command line).
const json& input_schema_annotated(std::string_view tool);
json input_schema_served(std::string_view tool);
const json& output_schema(std::string_view tool);
std::string tool_title(std::string_view tool);
std::string tool_description(std::string_view tool);

}  // namespace csift
