// The single dispatcher: a call's arguments validated against the tool's input schema (defaults applied),
// the handler run, its messages spelled for the caller, the output scrubbed, paged and rendered. The MCP
// server, the CLI shim and the MCP prompts and resources all call tools through it.
#pragma once
#include <string>
#include <string_view>

#include "core/base/envelope.h"
#include "tools/common/tool.h"
#include "tools/dispatch/tool_table.h"

namespace csift {

// Spells every arg_ref() / call_ref() token in the envelope's messages (error message, notes,
// summary.active_filters, header.address) with ctx.arg_text / ctx.call_text. Never touches rows:
// transcript-derived text is data.
void spell_messages(Envelope& env, std::string_view tool, const ToolContext& ctx);

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
