// The tool table: every tool registered once (name, handler, text renderer); its title, description, input
// schema and output schema live in schemas/<name>.input.json / .output.json, embedded at build time. The MCP
// server, the CLI shim and --help are all generated from this table.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"
#include "core/scan/line_scanner.h"
#include "core/store/store.h"

namespace csift {

struct ToolContext {
  Environment env;
  CancelToken* cancel = nullptr;
  // Called with (done, total, message) as a long scan advances; may be empty.
  std::function<void(double, double, const std::string&)> progress;
  // A line a long call states once it is under way (wait's readiness line, after its baseline snapshot): the
  // CLI prints it on stderr at once; may be empty (over MCP the same words travel as the first progress).
  std::function<void(const std::string&)> announce;
  // The text of standard input, for `sessions_from: "-"` on the CLI ("" when none is available).
  std::optional<std::string> stdin_text;
  // How a rendering names a follow-up call (`tool` with `args`). Empty: the MCP form, `tool {args}`. The CLI
  // shim sets it to the equivalent command line, so flag spellings stay in server/.
  std::function<std::string(std::string_view tool, const json& args)> spell_call;
  // Arguments every follow-up call repeats: the call's claude_home when it is not the default one, so a
  // refetch or continuation reads the same store. Set by the dispatcher; call_text adds them.
  json carried_args = json::object();
  std::string call_text(std::string_view tool, const json& args) const;
  // How a message names argument `property` of `tool` (core/base/arg_ref.h). Empty: the bare property name
  // (MCP). The CLI shim sets it to the flag spelling.
  std::function<std::string(std::string_view tool, std::string_view property, bool prefer_short)> spell_arg;
  std::string arg_text(std::string_view tool, std::string_view property, bool prefer_short = false) const;
  // Set by the MCP server, where the envelope travels beside the text (structuredContent): max_chars then
  // bounds both, and both are cut at the same row, so one continue_with serves either.
  bool budget_structured = false;
  // Set by the MCP server: the transport delivers Envelope::media as content of its own (MCP `image`).
  bool accepts_media = false;
  bool cancelled() const { return cancel && cancel->is_cancelled(); }
};

using ToolHandler = Envelope (*)(const json& args, ToolContext& ctx);
// Text renderers get the context too: a refetch hint is spelled with ctx.call_text / ctx.arg_text.
using TextRenderer = std::string (*)(const Envelope& env, const json& args, const ToolContext& ctx);

// A follow-up call as data (JSON rows carry this, never a command line): {"tool": ..., "arguments": ...}.
json follow_up_call(std::string_view tool, json arguments);
// The follow-up call as text for this context (ctx.call_text of its tool and arguments).
std::string follow_up_text(const json& call, const ToolContext& ctx);

// Spells every arg_ref() / call_ref() token in the envelope's messages (error message, notes,
// summary.active_filters, header.address) with ctx.arg_text / ctx.call_text. Never touches rows:
// transcript-derived text is data.
void spell_messages(Envelope& env, std::string_view tool, const ToolContext& ctx);

struct ToolSpec {
  std::string_view name;
  ToolHandler run;
  TextRenderer render_text;
  bool read_only = true;
  // Blocks for long on purpose (wait): the MCP transports run it on threads of its own, so it never holds
  // a worker that other calls need.
  bool blocks = false;
  // Served to a local caller only (stdio and the command line), never over HTTP, where the server may answer
  // another machine: the session triage tools, whose state and stores are this machine's.
  bool local_only = false;
};

const std::vector<ToolSpec>& tool_table();
const ToolSpec* find_tool(std::string_view name);

// The schema files as embedded: input schemas carry `x-cli` annotations (CLI shape) that the served form
// drops.
const json& input_schema_annotated(std::string_view tool);
json input_schema_served(std::string_view tool);
const json& output_schema(std::string_view tool);
std::string tool_title(std::string_view tool);
std::string tool_description(std::string_view tool);

struct ToolOutcome {
  Envelope envelope;
  std::string text;  // the text rendering (the same text --cli prints)
  int exit_code =
      0;  // 0 success or empty result, 2 usage error, 1 other errors, 124 summary.timed_out (wait)
};

// Validates args against the tool's input schema (defaults applied), runs the handler and renders text.
// Never throws: every exception becomes an error envelope with isError semantics.
ToolOutcome invoke_tool(const ToolSpec& tool, const json& args, ToolContext& ctx);
// The same against an explicit input schema (tests; tools whose schema is not embedded).
ToolOutcome invoke_tool_with_schema(const ToolSpec& tool, const json& input_schema, const json& args,
                                    ToolContext& ctx);

// Common paging arguments every tool takes: `row_offset` drops the first N rows (summary.rows_skipped);
// `max_chars` cuts rows at a row boundary once the rendering would exceed it (summary.rows_omitted and
// summary.continue_with = the call's arguments with row_offset advanced; text output ends with a footer).

}  // namespace csift
