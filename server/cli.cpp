// `csift-mcp --cli <tool> ...`: parse argv against the tool's schema, call the same dispatcher the MCP server
// uses, and print the result (text or NDJSON) with the exit code convention 0 / 2 usage / 1 other.
#include "server/cli.h"

#include <iostream>
#include <iterator>

#include "core/base/error.h"
#include "core/cache/disk_cache.h"
#include "core/store/targets.h"
#include "server/cli_model.h"
#include "server/mcp_entry.h"
#include "server/tool_listing.h"
#include "tools/dispatch/invoke_tool.h"

namespace csift {
namespace {

// Whether the tokens ask for JSON output, read before parsing so a parse error can still be an envelope.
bool tokens_request_json(const std::vector<std::string>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == "--") return false;
    if (tokens[i] == "--format=json") return true;
    if (tokens[i] == "--format" && i + 1 < tokens.size() && tokens[i + 1] == "json") return true;
  }
  return false;
}

// The projects root the call will read, for telling a bare `-home-me-proj` target from short flags: the
// call's claude_home flag when the tokens carry one, else the environment's default.
std::string projects_root_for(const std::vector<std::string>& tokens, const Environment& env) {
  const std::string flag = flag_for_property("claude_home");
  std::optional<std::string> home;
  for (size_t i = 0; i < tokens.size() && tokens[i] != "--"; ++i) {
    if (tokens[i] == flag && i + 1 < tokens.size()) home = tokens[i + 1];
    if (tokens[i].rfind(flag + "=", 0) == 0) home = tokens[i].substr(flag.size() + 1);
  }
  return projects_root(resolve_claude_home(home, env));
}

void print_ensuring_newline(std::ostream& out, const std::string& text) {
  out << text;
  if (!text.empty() && text.back() != '\n') out << '\n';
}

int report_usage_error(std::string_view tool, const std::string& message, bool as_json) {
  if (as_json) {
    std::cout << error_envelope(std::string(tool), "usage", message).to_ndjson();
  } else {
    std::cerr << "csift-mcp --cli " << tool << ": " << message << "\nRun `csift-mcp --cli " << tool
              << " --help` for usage.\n";
  }
  return 2;
}

void print_outcome(std::string_view tool, const ToolOutcome& outcome, bool as_json) {
  for (const auto& note : outcome.envelope.notes)
    print_ensuring_newline(std::cerr, note);
  if (!as_json && !outcome.envelope.is_error && outcome.envelope.header.value("raw_stdout", false)) {
    std::cout << outcome.text;  // recover's restore: the file's bytes, nothing added
    return;
  }
  if (as_json || !outcome.envelope.is_error) {  // a wait that timed out (124) still prints its report
    print_ensuring_newline(std::cout, outcome.text);
    return;
  }
  print_ensuring_newline(std::cerr, outcome.text);
  if (outcome.exit_code == 2) std::cerr << "Run `csift-mcp --cli " << tool << " --help` for usage.\n";
}

// `sessions_from: "-"` means the list comes on stdin; read it here, where stdin belongs to the caller.
void read_stdin_when_requested(const json& args, ToolContext& ctx) {
  if (!args.contains("sessions_from") || args["sessions_from"] != "-") return;
  // Bounded: one byte past the limit is enough for the tool to refuse the list (stdin may be /dev/zero).
  std::string text;
  char buf[65536];
  while (text.size() <= kMaxIdListBytes && std::cin.read(buf, sizeof buf).gcount() > 0)
    text.append(buf, static_cast<size_t>(std::cin.gcount()));
  ctx.stdin_text = std::move(text);
}

// `--disk-cache-mb N` and `--disk-cache-dir DIR` (the CLI's own flags, before any `--`): taken out of the
// tokens and the process's disk cache installed with them. The CLI shares the servers' cache, so a one-shot
// run is warm from what any earlier run or server learned; its output carries no cache report. Returns the
// usage error ("" when none).
std::string take_disk_cache_flags(std::vector<std::string>& tokens, const Environment& env) {
  uint64_t budget = kDefaultDiskCacheBytes;
  std::string dir;
  std::optional<std::string> home;
  const std::string home_flag = flag_for_property("claude_home");
  std::vector<std::string> kept;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "--") {
      kept.insert(kept.end(), tokens.begin() + static_cast<std::ptrdiff_t>(i), tokens.end());
      break;
    }
    std::optional<std::string> value;
    std::string name;
    for (const char* flag : {"--disk-cache-mb", "--disk-cache-dir"}) {
      const std::string f = flag;
      if (t == f) {
        if (i + 1 >= tokens.size()) return f + " needs a value";
        name = f;
        value = tokens[++i];
      } else if (t.rfind(f + "=", 0) == 0) {
        name = f;
        value = t.substr(f.size() + 1);
      }
    }
    if (!value) {
      if (t == home_flag && i + 1 < tokens.size()) home = tokens[i + 1];
      if (t.rfind(home_flag + "=", 0) == 0) home = t.substr(home_flag.size() + 1);
      kept.push_back(t);
      continue;
    }
    try {
      take_disk_cache_value(name, *value, budget, dir);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  }
  tokens = std::move(kept);
  install_disk_cache(dir, budget, /*reported=*/false, {resolve_claude_home(home, env)});
  return "";
}

}  // namespace

int run_cli(int argc, char** argv) {
  if (argc < 1 || std::string_view(argv[0]) == "--help" || std::string_view(argv[0]) == "-h") {
    (argc < 1 ? std::cerr : std::cout) << render_top_help();
    return argc < 1 ? 2 : 0;
  }
  const std::string tool_name = argv[0];
  const ToolSpec* tool = find_tool(tool_name);
  if (!tool) {
    std::cerr << "csift-mcp --cli: unknown tool '" << tool_name << "'; tools: " << tool_names() << "\n";
    return 2;
  }
  std::vector<std::string> tokens(argv + 1, argv + argc);
  const bool as_json = tokens_request_json(tokens);
  const json& schema = input_schema_annotated(tool_name);
  const Environment env = Environment::from_process();
  if (const std::string bad = take_disk_cache_flags(tokens, env); !bad.empty())
    return report_usage_error(tool_name, bad, as_json);
  CliArgs parsed;
  try {
    parsed = parse_cli_args(tool_name, schema, tokens, projects_root_for(tokens, env));
  } catch (const ToolError& e) {
    return report_usage_error(tool_name, e.what(), as_json);
  }
  if (parsed.help) {
    std::cout << render_tool_help(tool_name, schema);
    return 0;
  }
  ToolContext ctx;
  ctx.env = env;
  ctx.spell_call = render_continuation_cli;
  ctx.spell_arg = spell_cli_arg;
  ctx.announce = [](const std::string& line) { std::cerr << "csift: " << line << std::endl; };
  ctx.disk_cache = process_disk_cache();  // installed above; a CLI run has no memos
  read_stdin_when_requested(parsed.args, ctx);
  const ToolOutcome outcome = invoke_tool(*tool, parsed.args, ctx);
  print_outcome(tool_name, outcome, as_json);
  return outcome.exit_code;
}

}  // namespace csift
