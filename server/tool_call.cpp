// tools/call: the one path from an MCP request to invoke_tool and back, for every tool in the table.
#include <algorithm>
#include <cctype>
#include <string>

#include "server/mcp_server.h"
#include "server/tool_listing.h"
#include "tools/dispatch/invoke_tool.h"

namespace csift {
namespace {

json progress_token_of(const json& params) {
  if (!params.contains("_meta") || !params["_meta"].is_object()) return nullptr;
  const json& meta = params["_meta"];
  if (!meta.contains("progressToken")) return nullptr;
  const json& token = meta["progressToken"];
  return token.is_string() || token.is_number_integer() ? token : json();
}

// The id of the tool_use block that caused the call (Claude Code's `_meta["claudecode/toolUseId"]`), when it
// has the shape of an id (letters, digits, `_`, `-`; at most 256): the tools find their caller by it. ""
// else.
std::string caller_tool_use_id_of(const json& params) {
  if (!params.contains("_meta") || !params["_meta"].is_object()) return "";
  const json& meta = params["_meta"];
  if (!meta.contains("claudecode/toolUseId") || !meta["claudecode/toolUseId"].is_string()) return "";
  const std::string id = meta["claudecode/toolUseId"].get<std::string>();
  const bool shaped = !id.empty() && id.size() <= 256 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  return shaped ? id : "";
}

// The server's default budget, unless the call chose one (and only for tools that take max_chars).
json with_default_budget(json args, std::string_view tool, int64_t default_max_chars) {
  if (args.contains("max_chars")) return args;
  const json schema = input_schema_served(tool);
  if (schema.contains("properties") && schema["properties"].contains("max_chars")) {
    args["max_chars"] = default_max_chars;
  }
  return args;
}

// Says why an answer the call asked for whole (max_chars 0, or over the ceiling: ToolContext::answer_ceiling)
// was paged; the footer and continue_with say how to read on.
void note_ceiling(ToolOutcome& outcome, const json& args, int64_t ceiling) {
  const json& summary = outcome.envelope.summary;
  if (ceiling <= 0 || !summary.is_object() || !summary.contains("continue_with")) return;
  const json asked = args.value("max_chars", json());
  if (!asked.is_number() || (asked != 0 && asked.get<double>() <= static_cast<double>(ceiling))) return;
  outcome.envelope.notes.push_back(
      "max_chars " + asked.dump() + (asked == 0 ? " (no budget)" : "") + " was lowered to " +
      std::to_string(ceiling) +
      ": over MCP no answer is larger than what the client passes on to its model " +
      "(Claude Code: MAX_MCP_OUTPUT_TOKENS, 25000 tokens unless set, about 2 characters a token), so this " +
      "one is paged; summary.continue_with reads on.");
}

bool blank(std::string_view s) {
  return s.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// `structured`: the result carries the envelope as structuredContent (McpServer::sends_structured); without
// it the text alone is the answer, as for a tool that declares no outputSchema.
json call_result(std::string_view tool, const ToolOutcome& outcome, bool stateless, bool structured) {
  json result = with_result_type(json::object(), stateless);
  // What the CLI prints on stderr (the zero-match diagnosis, lane notes, cautions) is part of the answer for
  // a model too; the dispatcher already spelled its argument references as MCP argument names.
  std::string notes;
  for (const auto& note : outcome.envelope.notes)
    notes += note + "\n";
  // content[0] is what --cli prints for the same arguments (text, or the JSON lines for format=json), and
  // the notes follow as a second item. When the CLI prints nothing (a zero-match search), the notes come
  // first: some clients reject an empty text block, and the first block must say what happened.
  if (blank(outcome.text)) {
    const std::string what =
        notes.empty() ? std::string(tool) + ": no rows (an empty result, not an error)\n" : notes;
    result["content"] = json::array({json{{"type", "text"}, {"text", what}}});
  } else {
    result["content"] = json::array({json{{"type", "text"}, {"text", outcome.text}}});
    if (!notes.empty()) result["content"].push_back(json{{"type", "text"}, {"text", notes}});
  }
  // A tool's media (image's attach) follows as MCP image content: base64 data with its mime type.
  for (const MediaAttachment& media : outcome.envelope.media) {
    result["content"].push_back(
        json{{"type", "image"}, {"data", media.base64}, {"mimeType", media.mime_type}});
  }
  if (structured) result["structuredContent"] = outcome.envelope.to_object();
  result["isError"] = outcome.envelope.is_error;
  return result;
}

}  // namespace

bool McpServer::call_blocks(const rpc::Message& m) {
  if (m.method != "tools/call" || !m.params.contains("name") || !m.params["name"].is_string()) return false;
  const ToolSpec* tool = find_tool(m.params["name"].get<std::string>());
  return tool && tool->blocks;
}

std::shared_ptr<InFlight> McpServer::admit(const rpc::Message& m, Connection& conn, const Emit& emit) const {
  return conn.begin(m.id, progress_token_of(m.params), emit, options_.progress_interval);
}

json McpServer::id_in_use(const json& id) {
  return rpc::make_error(id, rpc::kInvalidRequest, "request id " + id.dump() + " is already in use");
}

json McpServer::call_tool(McpCall& call) {
  const rpc::Message& m = call.m;
  return run_registered(call, [&](ToolContext& ctx) {
    if (!m.params.contains("name") || !m.params["name"].is_string()) {
      return rpc::make_error(
          m.id, rpc::kInvalidParams,
          "tools/call needs params.name: one of " + tool_names(ctx.env.caller == CallerLink::network));
    }
    const std::string name = m.params["name"].get<std::string>();
    const ToolSpec* tool = find_tool(name);
    if (!tool) {
      return rpc::make_error(
          m.id, rpc::kInvalidParams,
          "unknown tool '" + name + "'; tools are: " + tool_names(ctx.env.caller == CallerLink::network));
    }
    json args = m.params.contains("arguments") ? m.params["arguments"] : json::object();
    if (args.is_null()) args = json::object();
    if (!args.is_object())
      return rpc::make_error(m.id, rpc::kInvalidParams, "params.arguments must be an object");
    // The budget bounds what reaches the model: the text, and the structured JSON when it is sent too.
    const bool structured = sends_structured(m, call.conn);
    ctx.budget_structured = structured;
    ctx.accepts_media = true;
    ctx.env.caller_tool_use_id = caller_tool_use_id_of(m.params);
    ctx.answer_ceiling = options_.answer_ceiling;
    args = with_default_budget(std::move(args), name, options_.default_max_chars);
    ToolOutcome outcome = invoke_tool(*tool, args, ctx);
    note_ceiling(outcome, args, options_.answer_ceiling);
    return rpc::make_result(m.id, call_result(name, outcome, call.stateless, structured));
  });
}

}  // namespace csift
