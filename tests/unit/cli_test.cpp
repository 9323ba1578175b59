#include "server/cli.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "core/base/error.h"
#include "temp_store.h"
#include "tools/dispatch/tool_table.h"

namespace cli_unit {

using namespace csift;

namespace {

// A small annotated schema in the shape of the real tool schemas (schemas/README.md).
const json& cli_schema() {
  static const json schema = json::parse(R"({
    "title": "Demo tool",
    "description": "Demonstrates every CLI shape.",
    "type": "object",
    "additionalProperties": false,
    "$defs": {"range": {"type": "string", "description": "A range token."}},
    "properties": {
      "targets": {"type": "array", "items": {"type": "string"}, "x-cli": {"positional": true},
                  "description": "Sessions to read."},
      "category": {"type": "array", "items": {"type": "string"}, "x-cli": {"short": "t"},
                   "description": "Label selectors."},
      "ignore": {"type": "array", "items": {"type": "string"}, "x-cli": {"split": false}},
      "ignore_case": {"type": "boolean", "x-cli": {"short": "i"}},
      "count": {"type": "boolean", "x-cli": {"short": "c"}},
      "no_subagents": {"type": "boolean", "x-cli": {"negate": "subagents"}, "default": false},
      "max_count": {"type": "integer", "minimum": 1, "default": 50, "description": "Cap on rows."},
      "turn": {"$ref": "#/$defs/range"},
      "since": {"type": "string"},
      "limit": {"type": ["integer", "string"]},
      "format": {"type": "string", "enum": ["text", "json"], "default": "text"}
    },
    "x-cli-examples": ["csift-mcp --cli demo @main -t agent --turn -3.."]
  })");
  return schema;
}

const json& single_target_schema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "properties": {
      "target": {"type": "string", "x-cli": {"positional": true}},
      "line": {"type": "string"}
    },
    "required": ["target"]
  })");
  return schema;
}

json parse(const std::vector<std::string>& tokens, const json& schema = cli_schema()) {
  return parse_cli_args("demo", schema, tokens).args;
}

std::string usage_message(const std::vector<std::string>& tokens, const json& schema = cli_schema()) {
  try {
    parse_cli_args("demo", schema, tokens);
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e.what();
  }
  FAIL("expected a usage error");
  return "";
}

}  // namespace

TEST_CASE("positionals, long flags and both value spellings") {
  const json args = parse({"@a", "--max-count", "5", "@b", "--since=2h"});
  CHECK(args["targets"] == json::array({"@a", "@b"}));
  CHECK(args["max_count"] == 5);
  CHECK(args["since"] == "2h");
  CHECK(parse({"--max-count=7"})["max_count"] == 7);
}

TEST_CASE("flag order is free and -- ends flags") {
  // Key order differs with token order; compare as unordered JSON.
  CHECK(nlohmann::json::parse(dump_json(parse({"--format", "json", "@x"}))) ==
        nlohmann::json::parse(dump_json(parse({"@x", "--format", "json"}))));
  const json args = parse({"@x", "--", "--not-a-flag", "-i"});
  CHECK(args["targets"] == json::array({"@x", "--not-a-flag", "-i"}));
  CHECK_FALSE(args.contains("ignore_case"));
}

TEST_CASE("booleans, negation twins and short aliases") {
  CHECK(parse({"--no-subagents"})["no_subagents"] == true);
  CHECK(parse({"--subagents"})["no_subagents"] == false);
  CHECK(parse({"--count=false"})["count"] == false);
  const json args = parse({"-i", "-c", "-t", "agent"});
  CHECK(args["ignore_case"] == true);
  CHECK(args["count"] == true);
  CHECK(args["category"] == json::array({"agent"}));
  const json bundled = parse({"-ic", "-tuser.message"});
  CHECK(bundled["ignore_case"] == true);
  CHECK(bundled["count"] == true);
  CHECK(bundled["category"] == json::array({"user.message"}));
}

TEST_CASE("arrays repeat and accept comma-joined values unless split is off") {
  CHECK(parse({"-t", "a,b", "--category", "c"})["category"] == json::array({"a", "b", "c"}));
  CHECK(parse({"--ignore", "x,y", "--ignore", "z"})["ignore"] == json::array({"x,y", "z"}));
}

TEST_CASE("values starting with '-' for ranges, numbers and relative times") {
  CHECK(parse({"--turn", "-3.."})["turn"] == "-3..");
  CHECK(parse({"--max-count", "-5"})["max_count"] == -5);
  CHECK(parse({"--since", "-2h"})["since"] == "-2h");
  CHECK(parse({"--turn", "..4"})["turn"] == "..4");
  CHECK(parse({"--since", "-"})["since"] == "-");
}

TEST_CASE("integer or string types pick the integer when it parses") {
  CHECK(parse({"--limit", "12"})["limit"] == 12);
  CHECK(parse({"--limit", "all"})["limit"] == "all");
}

TEST_CASE("usage errors: unknown flags, missing values, bad integers") {
  const std::string unknown = usage_message({"@x", "--max-cuont", "3"});
  CHECK(unknown.find("unknown flag --max-cuont for demo") == 0);
  CHECK(unknown.find("did you mean --max-count?") != std::string::npos);
  CHECK(unknown.find("valid flags: --category") != std::string::npos);
  CHECK(usage_message({"-z"}).find("unknown flag -z for demo") == 0);
  CHECK(usage_message({"--max-count"}) == "--max-count needs a value");
  CHECK(usage_message({"--max-count", "--format", "json"}).find("--max-count needs a value") == 0);
  CHECK(usage_message({"--max-count", "abc"}) == "--max-count: expected an integer, got \"abc\"");
  CHECK(usage_message({"--subagents=yes"}).find("--subagents takes no value") == 0);
  CHECK(usage_message({"--format", "json", "--format", "text"}).find("--format given twice") == 0);
}

TEST_CASE("a single string positional takes exactly one; a bad flag is blamed by name") {
  CHECK(parse({"--line", "4", "@x"}, single_target_schema())["target"] == "@x");
  CHECK(usage_message({"@x", "@y"}, single_target_schema()).find("unexpected argument '@y'") == 0);
  CHECK(usage_message({"--bogus", "@x"}, single_target_schema()).find("unknown flag --bogus") == 0);
  CHECK(usage_message({"stray"}, json::parse(R"({"type":"object","properties":{}})"))
            .find("takes no positional arguments") != std::string::npos);
}

TEST_CASE("--help is recognised anywhere before --") {
  CHECK(parse_cli_args("demo", cli_schema(), {"@x", "--help"}).help);
  CHECK(parse_cli_args("demo", cli_schema(), {"-h"}).help);
  CHECK_FALSE(parse_cli_args("demo", cli_schema(), {"--", "--help"}).help);
}

TEST_CASE("tool help is generated from the schema") {
  const std::string help = render_tool_help("demo", cli_schema());
  CHECK(help.find("csift-mcp --cli demo: Demo tool") == 0);
  CHECK(help.find("Demonstrates every CLI shape.") != std::string::npos);
  CHECK(help.find("Usage: csift-mcp --cli demo [OPTIONS] [TARGETS]...") != std::string::npos);
  CHECK(help.find("-t, --category <CATEGORY>...") != std::string::npos);
  CHECK(help.find("--no-subagents  (off: --subagents)") != std::string::npos);
  CHECK(help.find("--max-count <N>") != std::string::npos);
  CHECK(help.find("[default: 50]") != std::string::npos);
  CHECK(help.find("--format <text|json>") != std::string::npos);
  CHECK(help.find("A range token.") != std::string::npos);
  CHECK(help.find("Examples:\n  csift-mcp --cli demo @main -t agent --turn -3..") != std::string::npos);
  CHECK(help.find("-h, --help") != std::string::npos);
}

TEST_CASE("top-level help lists the modes and the tools") {
  const std::string help = render_top_help();
  CHECK(help.find("--stdio") != std::string::npos);
  CHECK(help.find("--http") != std::string::npos);
  CHECK(help.find("--cli <TOOL>") != std::string::npos);
  for (const auto& tool : tool_table())
    CHECK(help.find("  " + std::string(tool.name)) != std::string::npos);
}

TEST_CASE("render_continuation_cli spells the arguments as a command line") {
  // A property with no positional annotation (or none in the schema at all) renders as a flag. An
  // unregistered tool is no longer usable here: the tool table refuses a tool without schemas.
  CHECK(render_continuation_cli("stats", {{"max_count", 5}, {"row_offset", 10}}) ==
        "csift-mcp --cli stats --max-count 5 --row-offset 10");
  CHECK(render_continuation_cli("stats", {{"turn", "-3.."}, {"pattern", "a b"}}) ==
        "csift-mcp --cli stats --turn=-3.. --pattern 'a b'");
  CHECK(render_continuation_cli("stats", {{"t", json::array({"x", "y"})}, {"i", true}, {"q", nullptr}}) ==
        "csift-mcp --cli stats --t x --t y --i");
}

TEST_CASE("an empty value is kept, so the tool refuses it as MCP does") {
  CHECK(parse({""})["targets"] == json::array({""}));
  CHECK(parse({"-t", ""})["category"] == json::array({""}));
  CHECK(parse({"--ignore", ""})["ignore"] == json::array({""}));
}

TEST_CASE("an integer beyond 64 bits is out of range, not a non-integer") {
  CHECK(usage_message({"--max-count", "99999999999999999999"}) ==
        "--max-count: 99999999999999999999 is out of range (integers run from -9223372036854775808 to "
        "9223372036854775807)");
  CHECK(usage_message({"--max-count", "-99999999999999999999"}).find("is out of range") != std::string::npos);
  CHECK(parse({"--max-count", "9223372036854775807"})["max_count"] == INT64_MAX);
}

TEST_CASE(
    "a bare encoded project dir is a target when it exists; otherwise the error says how to write one") {
  csift_test::TempStore store;
  std::filesystem::create_directories(store.projects() / "-home-me-proj");
  const std::string root = store.projects().string();
  const auto with_root = [&](const std::vector<std::string>& tokens) {
    return parse_cli_args("demo", cli_schema(), tokens, root).args;
  };
  CHECK(with_root({"-home-me-proj"})["targets"] == json::array({"-home-me-proj"}));
  CHECK(with_root({"-i", "-home-me-proj", "-c"}) ==
        json{{"ignore_case", true}, {"targets", json::array({"-home-me-proj"})}, {"count", true}});
  CHECK(with_root({"-ic"}) == json{{"ignore_case", true}, {"count", true}});
  try {
    parse_cli_args("demo", cli_schema(), {"-home-me-gone"}, root);
    FAIL("a missing project dir must be an error");
  } catch (const ToolError& e) {
    const std::string m = e.what();
    CHECK(m.find("unknown flag -h for demo") == 0);
    CHECK(m.find("if '-home-me-gone' is meant as a project directory, there is none of that name under " +
                 root) != std::string::npos);
    CHECK(m.find("write it as @-home-me-gone, or put -- before it") != std::string::npos);
  }
  // Where a scalar positional comes first (search's pattern), an existing dir says to give that first.
  const json pattern_first = json::parse(R"({"type": "object", "properties": {
      "pattern": {"type": "string", "x-cli": {"positional": true}},
      "targets": {"type": "array", "items": {"type": "string"}, "x-cli": {"positional": true}}}})");
  try {
    parse_cli_args("demo", pattern_first, {"-home-me-proj"}, root);
    FAIL("the pattern slot takes no project dir");
  } catch (const ToolError& e) {
    CHECK(
        std::string(e.what()).find("'-home-me-proj' names a project directory, but the pattern comes before "
                                   "the targets") != std::string::npos);
  }
  CHECK(parse_cli_args("demo", pattern_first, {"x", "-home-me-proj"}, root).args ==
        json{{"pattern", "x"}, {"targets", json::array({"-home-me-proj"})}});
  // A tool whose only positional is one string takes no project dir: the token stays flags.
  CHECK(usage_message({"-home-me-proj"}, single_target_schema()).find("unknown flag -h") == 0);
}

TEST_CASE("an alias annotation is another spelling of the flag, listed in help") {
  const json schema = json::parse(R"({"type": "object", "properties": {
      "attachments": {"type": "boolean", "x-cli": {"aliases": ["additional_context"]}}}})");
  CHECK(parse({"--additional-context"}, schema) == json{{"attachments", true}});
  CHECK(parse({"--attachments"}, schema) == json{{"attachments", true}});
  CHECK(render_tool_help("demo", schema).find("--attachments  (also: --additional-context)") !=
        std::string::npos);
  CHECK(usage_message({"--additional-contex"}, schema).find("did you mean --additional-context?") !=
        std::string::npos);
}

TEST_CASE("x-cli help replaces the lean served description in --help only") {
  const json schema =
      json::parse(R"({"type": "object", "description": "Lean.", "x-cli-help": "Longer, for people.",
      "properties": {
        "since": {"type": "string", "description": "At or after.", "x-cli": {"help": "Only records at or after."}},
        "targets": {"type": "array", "items": {"type": "string"}, "description": "Scope.",
                    "x-cli": {"positional": true, "help": "Where to look."}},
        "until": {"type": "string", "description": "At or before."}}})");
  const std::string help = render_tool_help("demo", schema);
  CHECK(help.find("Longer, for people.") != std::string::npos);
  CHECK(help.find("Only records at or after.") != std::string::npos);
  CHECK(help.find("Where to look.") != std::string::npos);
  CHECK(help.find("At or before.") != std::string::npos);
  for (const char* lean : {"Lean.", "At or after.", "Scope."})
    CHECK(help.find(lean) == std::string::npos);
}

}  // namespace cli_unit
