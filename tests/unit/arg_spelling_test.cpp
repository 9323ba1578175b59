// Argument references in messages: tools and core name arguments by schema property (arg_ref / call_ref);
// the MCP side prints the property name, the CLI shim the flag. The same error, both ways, through
// invoke_tool — and a user's pattern quoted in a note comes through untouched.
#include "core/base/arg_ref.h"

#include <doctest/doctest.h>

#include "server/cli.h"
#include "temp_store.h"
#include "tools/dispatch/invoke_tool.h"

namespace arg_spelling_unit {

using csift_test::TempStore;

namespace {

const std::string kSid = "a7c3d9e1-0000-4000-8000-000000000001";

struct Surfaces {
  TempStore store;
  csift::ToolContext mcp, cli;
  Surfaces() {
    store.write("-work-demo/" + kSid + ".jsonl", csift_test::user_line(kSid, "hello there"));
    mcp.env = cli.env = store.env();
    cli.spell_call = csift::render_continuation_cli;
    cli.spell_arg = csift::spell_cli_arg;
  }
  csift::ToolOutcome run(csift::ToolContext& ctx, const csift::json& args) {
    return csift::invoke_tool(*csift::find_tool("search"), args, ctx);
  }
  static std::string error_message(const csift::ToolOutcome& o) {
    return o.envelope.summary["error"]["message"].get<std::string>();
  }
};

std::string all_notes(const csift::ToolOutcome& o) {
  std::string out;
  for (const auto& n : o.envelope.notes)
    out += n + "\n";
  return out;
}

}  // namespace

TEST_CASE("spell_arg_refs: tokens are spelled, everything else is kept byte for byte") {
  const csift::MessageSpeller speller{
      [](std::string_view p, bool s) { return (s ? "<short " : "<") + std::string(p) + ">"; },
      [](std::string_view tool, const csift::json& args) { return std::string(tool) + args.dump(); }};
  CHECK(csift::spell_arg_refs(csift::arg_ref("since") + " and " + csift::arg_ref("label", true), speller) ==
        "<since> and <short label>");
  CHECK(csift::spell_arg_refs("run " + csift::call_ref("show", {{"line", {"5"}}}), speller) ==
        "run show{\"line\":[\"5\"]}");
  for (const std::string kept : {"`label` --since -t label", "\x1e not a token\x1f", "\x1e",
                                 "a\x1f"
                                 "b\x1e"})
    CHECK(csift::spell_arg_refs(kept, speller) == kept);
}

TEST_CASE("the same usage error names label over MCP and -t on the CLI") {
  Surfaces s;
  const csift::json args = {{"pattern", "x"}, {"label", {"agent.bogus"}}};
  const auto over_mcp = s.run(s.mcp, args), over_cli = s.run(s.cli, args);
  CHECK(over_mcp.exit_code == 2);
  CHECK(Surfaces::error_message(over_mcp).find("label 'agent.bogus' names no label") == 0);
  CHECK(Surfaces::error_message(over_cli).find("-t 'agent.bogus' names no label") == 0);
  CHECK(over_mcp.text.find("-t '") == std::string::npos);
}

TEST_CASE("the same usage error names sessions_from over MCP and --sessions-from on the CLI") {
  Surfaces s;
  s.mcp.stdin_text = s.cli.stdin_text = "@main\n";
  const csift::json args = {{"pattern", "x"}, {"sessions_from", "-"}};
  const std::string over_mcp = Surfaces::error_message(s.run(s.mcp, args));
  const std::string over_cli = Surfaces::error_message(s.run(s.cli, args));
  CHECK(over_mcp.find("sessions_from takes session uuids") == 0);
  CHECK(over_cli.find("--sessions-from takes session uuids") == 0);
  CHECK(over_mcp.find("--") == std::string::npos);
}

TEST_CASE("a pattern quoted in a note is never rewritten; the arguments around it are") {
  Surfaces s;
  const std::string pattern = "`label` --since -t label_not";
  const csift::json args = {{"pattern", pattern}, {"targets", {"@" + kSid}}, {"label", {"user"}}};
  const std::string over_mcp = all_notes(s.run(s.mcp, args)), over_cli = all_notes(s.run(s.cli, args));
  CHECK(over_mcp.find("\"" + pattern + "\" is absent even without the label/label_not filter") !=
        std::string::npos);
  CHECK(over_cli.find("\"" + pattern + "\" is absent even without the -t/-T filter") != std::string::npos);
  CHECK(over_mcp.find("Active filters: label user.") != std::string::npos);
  CHECK(over_cli.find("Active filters: -t user.") != std::string::npos);
}

}  // namespace arg_spelling_unit
