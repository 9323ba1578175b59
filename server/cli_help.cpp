// --help text, generated from the tool table and the annotated input schemas (never written by hand, so it
// cannot drift from what the parser accepts).
#include <algorithm>

#include "server/cli.h"
#include "server/cli_model.h"
#include "server/version.h"
#include "tools/dispatch/tool_table.h"

namespace csift {
namespace {

constexpr size_t kWrapColumn = 100;

// Greedy word wrap; every line starts with `indent`. Paragraph breaks in the text are kept.
std::string wrap(std::string_view text, std::string_view indent) {
  std::string out, line;
  auto flush = [&] {
    if (!line.empty()) out += std::string(indent) + line + "\n";
    line.clear();
  };
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '\n') {
      flush();
      if (i + 1 < text.size() && text[i + 1] == '\n') out += "\n", ++i;
      ++i;
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const size_t end = std::min(text.find_first_of(" \n", i), text.size());
    const std::string_view word = text.substr(i, end - i);
    if (!line.empty() && indent.size() + utf8_length(line) + 1 + utf8_length(word) > kWrapColumn) flush();
    line += (line.empty() ? "" : " ") + std::string(word);
    i = end;
  }
  flush();
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return out;
}

std::string value_name(const CliOption& o) {
  if (o.schema.contains("enum")) {
    std::string values;
    for (const auto& v : o.schema["enum"])
      values += (values.empty() ? "" : "|") + dump_json(v);
    values.erase(std::remove(values.begin(), values.end(), '"'), values.end());
    return values;
  }
  if (o.types.size() == 1 && o.types.front() == "integer") return "N";
  return upper(o.property);
}

std::string positional_usage(const CliOption& o) {
  const std::string name = upper(o.property);
  const std::string shown = o.required ? "<" + name + ">" : "[" + name + "]";
  return o.is_array ? shown + "..." : shown;
}

std::string option_heading(const CliOption& o) {
  std::string head =
      o.short_name ? "  " + flag_for_property(o.property, o.short_name) + ", " : std::string("      ");
  head += o.flag;
  if (!o.is_boolean) head += " <" + value_name(o) + ">";
  if (o.is_array) head += "...";
  if (!o.negate_flag.empty()) head += "  (off: " + o.negate_flag + ")";
  for (const auto& alias : o.alias_flags)
    head += "  (also: " + alias + ")";
  return head;
}

std::string option_facts(const CliOption& o) {
  std::string facts;
  if (o.is_array) facts += o.split_commas ? "[repeatable; comma-joined values accepted] " : "[repeatable] ";
  if (o.schema.contains("default")) facts += "[default: " + dump_json(o.schema["default"]) + "] ";
  if (o.schema.contains("minimum")) facts += "[min: " + dump_json(o.schema["minimum"]) + "] ";
  if (o.required) facts += "[required] ";
  return facts;
}

// What --help says of a property: its `x-cli.help` when it has one (the longer text for people at the command
// line; the served schema drops every x-cli annotation, so the model reads the lean description), else its
// description.
std::string help_text(const json& property) {
  const json cli = property.value("x-cli", json::object());
  return cli.contains("help") ? cli["help"].get<std::string>() : property.value("description", "");
}

std::string option_block(const CliOption& o) {
  std::string block = option_heading(o) + "\n";
  block += wrap(help_text(o.schema), "          ");
  const std::string facts = option_facts(o);
  if (!facts.empty()) block += "          " + facts.substr(0, facts.size() - 1) + "\n";
  return block;
}

std::string usage_line(std::string_view tool, const CliModel& model) {
  std::string usage = "Usage: csift-mcp --cli " + std::string(tool) + " [OPTIONS]";
  for (const auto* p : model.positionals())
    usage += " " + positional_usage(*p);
  return usage + "\n";
}

}  // namespace

std::string render_tool_help(std::string_view tool, const json& input_schema) {
  const CliModel model = build_cli_model(input_schema);
  std::string out = "csift-mcp --cli " + std::string(tool);
  if (input_schema.contains("title")) out += ": " + input_schema["title"].get<std::string>();
  out += "\n\n";
  if (input_schema.contains("x-cli-help") || input_schema.contains("description"))
    out += wrap(input_schema.value("x-cli-help", input_schema.value("description", "")), "") + "\n";
  out += usage_line(tool, model);
  if (!model.positionals().empty()) {
    out += "\nArguments:\n";
    for (const auto* p : model.positionals()) {
      out += "  " + positional_usage(*p) + "\n" + wrap(help_text(p->schema), "          ");
    }
  }
  out += "\nOptions:\n";
  for (const auto& o : model.options) {
    if (!o.positional) out += option_block(o);
  }
  out += "  -h, --help\n          Print this help.\n";
  if (input_schema.contains("x-cli-examples") && input_schema["x-cli-examples"].is_array()) {
    out += "\nExamples:\n";
    for (const auto& example : input_schema["x-cli-examples"])
      out += "  " + example.get<std::string>() + "\n";
  }
  return out;
}

std::string render_top_help() {
  std::string out = std::string(kServerName) + " " + server_version() +
                    ": search and inspect Claude Code session transcripts (an MCP server and a CLI)\n\n";
  out +=
      "Usage:\n"
      "  csift-mcp [--stdio] [--claude-home DIR]\n"
      "                                   serve MCP over stdin/stdout (the default)\n"
      "  csift-mcp --http [--host H] [--port N] [--token T] [--claude-home DIR]\n"
      "                                   serve MCP over streamable HTTP\n"
      "  csift-mcp --cli <TOOL> [ARGS]    run one tool from the command line\n"
      "  csift-mcp --help | --version\n\nTools:\n";
  size_t width = 0;
  for (const auto& tool : tool_table())
    width = std::max(width, tool.name.size());
  for (const auto& tool : tool_table()) {
    out += "  " + std::string(tool.name) + std::string(width - tool.name.size() + 3, ' ') +
           tool_title(tool.name) + "\n";
  }
  if (tool_table().empty()) out += "  (no tools are built in)\n";
  out +=
      "\n--claude-home DIR makes DIR the Claude Code home of every call the server answers (a call's own "
      "claude_home still wins); it must exist. --structured-content auto|always|never says whether results "
      "carry structuredContent (auto: not for Claude Code, which hands it to the model in place of the "
      "text). "
      "--max-answer-chars N is the most characters an MCP answer holds (default: from "
      "$MAX_MCP_OUTPUT_TOKENS, 45000 for its 25000 tokens; 0: no ceiling).\n"
      "A server keeps what it learns across calls: --scan-memo-mb N and --result-memo-mb N bound its memos "
      "(MiB; 0: none), --disk-cache-mb N and --disk-cache-dir DIR the cache on disk every server and CLI run "
      "share (0: none; default ${XDG_CACHE_HOME:-~/.cache}/csift-mcp), and --no-watch-stamps stats every "
      "transcript on every call instead of keeping stamps by change notices (--watch-stamps, the default). "
      "--no-warm-up leaves the store alone until the first call (--warm-up, the default: once no call has "
      "come for 200 ms of the start, the server walks the store and takes every transcript's screen, list "
      "probe and label census from the disk cache, so the first call finds them in memory, then watches the "
      "store's directories and walks it again so the first call's walk is answered from memory too; "
      "--uncalled-watches-s N, 600 by default, is how long those watches are held while no call comes, 0 "
      "adds none).\n"
      "Run `csift-mcp --cli <TOOL> --help` for a tool's flags. CLI exit codes: 0 success (an empty result "
      "included), 2 usage error, 1 any other error.\n";
  return out;
}

}  // namespace csift
