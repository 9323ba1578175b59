// `show` end to end over small transcripts written to a temp store: each addressing mode, the exit law, the
// flood guard, --raw bytes, the elicitation sidecar merge and the argument rules.
#include <doctest/doctest.h>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "server/cli.h"
#include "temp_store.h"
#include "tools/dispatch/invoke_tool.h"
#include "tools/show/show.h"

namespace show_unit {

using namespace csift;
using csift_test::TempStore;

namespace {

const std::string kSid = "11111111-2222-4333-8444-555555555555";
const std::string kProject = "-work-demo";

std::string ts(int second) {
  return "\"timestamp\":\"2026-06-07T04:32:" + std::string(second < 10 ? "0" : "") + std::to_string(second) +
         ".000Z\"";
}

std::string user(const std::string& uuid, const std::string& parent, const std::string& text, int second) {
  return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"parentUuid\":" + parent + ",\"sessionId\":\"" +
         kSid + "\"," + ts(second) + ",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n";
}

std::string assistant(const std::string& uuid, const std::string& parent, const std::string& blocks,
                      int second) {
  return "{\"type\":\"assistant\",\"uuid\":\"" + uuid + "\",\"parentUuid\":\"" + parent +
         "\",\"sessionId\":\"" + kSid + "\"," + ts(second) +
         ",\"message\":{\"role\":\"assistant\",\"content\":[" + blocks + "]}}\n";
}

std::string tool_result(const std::string& uuid, const std::string& parent, const std::string& id,
                        int second) {
  return "{\"type\":\"user\",\"uuid\":\"" + uuid + "\",\"parentUuid\":\"" + parent + "\",\"sessionId\":\"" +
         kSid + "\"," + ts(second) +
         ",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id +
         "\",\"content\":\"file1\\nfile2\"}]}}\n";
}

// L1 permission-mode (not a record) · t0: L2 user, L3 text+Bash, L4 result, L5 pending Read, L6 blank ·
// t1: L7 user, L8 text, L9 turn_duration (gated) · L10 malformed · L11 torn tail.
std::string transcript() {
  return "{\"type\":\"permission-mode\",\"permissionMode\":\"default\",\"sessionId\":\"" + kSid + "\"}\n" +
         user("u1", "null", "hello there", 1) +
         assistant(
             "a1", "u1",
             "{\"type\":\"text\",\"text\":\"listing\"},{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":"
             "\"Bash\",\"input\":{\"command\":\"ls\"}}",
             2) +
         tool_result("r1", "a1", "toolu_1", 3) +
         assistant(
             "a2", "r1",
             "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"Read\",\"input\":{\"file_path\":\"/x\"}}",
             4) +
         "\n" + user("u2", "\"a2\"", "second question", 7) +
         assistant("a3", "u2", "{\"type\":\"text\",\"text\":\"line one\\nline two\"}", 8) +
         "{\"type\":\"system\",\"subtype\":\"turn_duration\",\"durationMs\":65000,\"uuid\":\"s1\","
         "\"parentUuid\":"
         "\"a3\",\"sessionId\":\"" +
         kSid + "\"," + ts(9) + "}\n" + "{\"type\":\"user\", bad json\n" + "{\"type\":\"assistant\",\"torn";
}

struct ShowFixture {
  TempStore store;
  ToolContext ctx;
  ShowFixture() {
    store.write(kProject + "/" + kSid + ".jsonl", transcript());
    ctx.env = store.env();
    ctx.spell_call = render_continuation_cli;  // texts as the CLI prints them
    ctx.spell_arg = spell_cli_arg;
  }
  Envelope run(json args) {
    if (!args.contains("targets")) args["targets"] = json::array({"@" + kSid});
    return run_show(args, ctx);
  }
  std::string text(json args) {
    Envelope env = run(args);
    spell_messages(env, "show", ctx);
    return render_show_text(env, args, ctx);
  }
};

std::string error_of(ShowFixture& f, const json& args) {
  try {
    f.run(args);
  } catch (const ToolError& e) {
    const MessageSpeller cli{[](std::string_view p, bool s) { return spell_cli_arg("show", p, s); },
                             render_continuation_cli};
    return std::string(e.kind_name()) + ": " + spell_arg_refs(e.what(), cli);
  }
  return "no error";
}

}  // namespace

TEST_CASE("show --line renders each addressed record in full, one row per unit") {
  ShowFixture f;
  const Envelope env = f.run({{"line", {"3"}}});
  REQUIRE(env.rows.size() == 2);
  CHECK(env.rows[0]["label"] == "agent.message");
  CHECK(env.rows[1]["label"] == "agent.tool.use");
  CHECK(env.rows[1]["pairing"] == "paired");
  CHECK(env.rows[1]["tool_name"] == "Bash");
  CHECK(env.rows[1]["turn_index"] == 0);
  CHECK(env.rows[1]["line"] == 3);
  CHECK(env.header["command"] == "show");
  CHECK(env.header["path"].get<std::string>().find(kSid + ".jsonl") != std::string::npos);
  CHECK(env.summary["records"] == 1);
  CHECK(env.summary["dropped_by_cap"] == 0);
  CHECK(env.summary["refetch_remainder"].is_null());

  const std::string text = f.text({{"line", {"3"}}});
  CHECK(text.find("11111111\xC2\xB7t0 2026-06-07 ") != std::string::npos);
  CHECK(text.find(" \xE2\x96\xB8 agent.tool.use \xE2\x96\xB9 agent.tool.result Bash L3 ") !=
        std::string::npos);
}

TEST_CASE("show pairs a result with its use and marks an unreturned use pending") {
  ShowFixture f;
  CHECK(f.run({{"line", {"4"}}}).rows[0]["pairing"] == "paired");
  CHECK(f.run({{"line", {"4"}}}).rows[0]["is_error"] == false);
  CHECK(f.run({{"line", {"5"}}}).rows[0]["pairing"] == "pending");
  CHECK(f.text({{"line", {"5"}}}).find("agent.tool.use (no result \xE2\x80\x94 pending) Read L5") !=
        std::string::npos);
}

TEST_CASE("a line range renders the records and counts the non-record lines") {
  ShowFixture f;
  const Envelope env = f.run({{"line", {"1..6"}}});
  CHECK(env.summary["records"] == 4);
  CHECK(env.summary["non_record_lines"] == 2);  // L1 permission-mode, L6 blank
  CHECK(f.text({{"line", {"1..6"}}}).find("2 line(s) in the addressed range are not records") !=
        std::string::npos);
  CHECK(f.run({{"line", {"2", "7..8"}}}).summary["records"] == 3);
  CHECK(f.run({{"line", {"2,7"}}}).summary["records"] == 2);
}

TEST_CASE("an explicit address that names nothing is a hard error naming the domain") {
  ShowFixture f;
  CHECK(error_of(f, {{"line", {"99"}}}) ==
        "not_found: no such line(s): L99 — the transcript has 11 line(s) (L1..L11)");
  CHECK(error_of(f, {{"line", {"50..99"}}}).find("no such line(s): L50..99") != std::string::npos);
  CHECK(error_of(f, {{"turn", "5"}}).find("no such turn(s): t5 — the transcript has 2 turn(s) (t0..t1)") !=
        std::string::npos);
  CHECK(error_of(f, {{"uuid", {"nope"}}}).find("no such uuid(s): nope") != std::string::npos);
}

TEST_CASE("a closed range partly past the end clamps to what exists") {
  ShowFixture f;
  CHECK(f.run({{"line", {"5..99"}}}).rows == f.run({{"line", {"5.."}}}).rows);
  CHECK(f.run({{"turn", "0..99"}}).rows == f.run({{"turn", "0.."}}).rows);
}

TEST_CASE("a single-line miss on a non-record line points at --raw and names what stays raw-only") {
  ShowFixture f;
  const std::string e = error_of(f, {{"line", {"1"}}});
  CHECK(e.find("not_found: ") == 0);
  CHECK(e.find("\"permission-mode\" line") != std::string::npos);
  CHECK(e.find("--line 1 --raw") != std::string::npos);
  CHECK(e.find("ai-title") != std::string::npos);
  CHECK(error_of(f, {{"line", {"10"}}}).find("malformed") != std::string::npos);
}

TEST_CASE("open and from-end forms clamp; gated leaves render flag-free on a line address") {
  ShowFixture f;
  const Envelope tail = f.run({{"line", {"-4.."}}});  // L8..L11
  REQUIRE(tail.rows.size() == 2);
  CHECK(tail.rows[1]["label"] == "harness.meta.turn-duration");
  CHECK(tail.summary["non_record_lines"] == 2);
  CHECK(error_of(f, {{"line", {"50.."}}}).find("no such line(s)") != std::string::npos);
  CHECK(f.run({{"turn", "-9.."}}).summary["records"] == 6);
}

TEST_CASE("show --turn fetches whole turns and leaves the gated lines out") {
  ShowFixture f;
  const Envelope env = f.run({{"turn", "1"}});
  REQUIRE(env.rows.size() == 2);
  CHECK(env.rows[0]["text"] == "second question");
  CHECK(env.rows[1]["text"] == "line one\nline two");
  CHECK(env.summary["gated_omitted"] == 1);
  const std::string text = f.text({{"turn", "-1"}});
  CHECK(text.find("L8 line one\n    line two\n") != std::string::npos);
  CHECK(f.run({{"turn", "0"}}).summary["records"] == 4);
}

TEST_CASE("show --uuid fetches the named records") {
  ShowFixture f;
  const Envelope env = f.run({{"uuid", {"a1,u2"}}});
  CHECK(env.rows.size() == 3);
  CHECK(env.rows[2]["uuid"] == "u2");
  CHECK(f.run({{"uuid", {"s1"}}}).rows[0]["label"] == "harness.meta.turn-duration");
}

TEST_CASE("the flood guard keeps the first units and states the continuation") {
  ShowFixture f;
  const Envelope env = f.run({{"line", {".."}}, {"max_count", 2}});
  CHECK(env.rows.size() == 2);
  CHECK(env.summary["dropped_by_cap"] == 6);
  CHECK(env.summary["refetch_remainder"] ==
        json{{"tool", "show"},
             {"arguments", {{"targets", json::array({"@" + kSid})}, {"line", json::array({"3..9"})}}}});
  CHECK(f.text({{"line", {".."}}, {"max_count", 2}})
            .find("+6 more record unit(s) beyond the 2-unit cap \xC2\xB7 continue: csift-mcp --cli show @" +
                  kSid + " --line 3..9 (or --max-count 0 = uncapped)") != std::string::npos);
  CHECK(f.run({{"line", {".."}}, {"max_count", 0}}).summary["dropped_by_cap"] == 0);
}

TEST_CASE("show --raw prints verbatim bytes, malformed and torn lines included") {
  ShowFixture f;
  CHECK(f.text({{"line", {"10"}}, {"raw", true}}) == "{\"type\":\"user\", bad json\n");
  CHECK(f.text({{"line", {"-1"}}, {"raw", true}}) == "{\"type\":\"assistant\",\"torn\n");
  CHECK(f.text({{"line", {"6"}}, {"raw", true}}) == "\n");
  const Envelope turn = f.run({{"turn", "1"}, {"raw", true}});
  CHECK(turn.rows.size() == 5);  // L7..L11: the last turn runs to the end of the file
  const Envelope capped = f.run({{"line", {".."}}, {"raw", true}, {"max_count", 3}});
  CHECK(capped.rows.size() == 3);
  REQUIRE(capped.notes.size() == 1);
  CHECK(capped.notes[0].find("+8 more line(s) beyond the 3-line cap") != std::string::npos);
  CHECK(f.run({{"uuid", {"u2"}}, {"raw", true}}).rows[0]["line"] == 7);
}

TEST_CASE("show's argument rules") {
  ShowFixture f;
  CHECK(error_of(f, {{"targets", {"@" + kSid, "@other"}}, {"line", {"2"}}})
            .find("usage: show reads exactly ONE transcript per call") == 0);
  CHECK(error_of(f, json::object()).find("usage: show needs exactly one address") == 0);
  CHECK(error_of(f, {{"line", {"2"}}, {"turn", "0"}}).find("mutually exclusive") != std::string::npos);
  CHECK(error_of(f, {{"line", {"2"}}, {"no_subagents", true}}).find("@<agent-id>") != std::string::npos);
  CHECK(error_of(f, {{"line", {"2"}}, {"no_subagents", false}}).find("never spans") != std::string::npos);
  CHECK(error_of(f, {{"line", {"2"}}, {"raw", true}, {"format", "json"}}).find("usage: --raw") == 0);
  CHECK(error_of(f, {{"line", {"2-4"}}}).find("2..4") != std::string::npos);
}

TEST_CASE("unresolved sidecar markers merge into a top-level session; resolved pairs and ghosts do not") {
  ShowFixture f;
  const auto marker = [](const std::string& phase, const std::string& key, const std::string& body) {
    return "{\"csift\":\"elicitation-marker-v1\",\"csiftPhase\":\"" + phase +
           "\",\"csiftKind\":\"AskUserQuestion\",\"csiftKey\":\"" + key + "\"," + ts(30) + body + "}\n";
  };
  const auto auq = [](const std::string& id) {
    return ",\"type\":\"assistant\",\"uuid\":\"p-" + id +
           "\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"" + id +
           "\",\"name\":\"AskUserQuestion\",\"input\":{\"questions\":[]}}]}";
  };
  f.store.write(kProject + "/" + kSid + "/elicitations.jsonl",
                marker("pending", "toolu_q", auq("toolu_q")) +
                    marker("pending", "toolu_done", auq("toolu_done")) +
                    marker("resolved", "toolu_done", ",\"type\":\"csift-elicitation-resolved\"") +
                    marker("pending", "toolu_1", auq("toolu_1")) + "not json\n");
  const Envelope env = f.run({{"turn", "-1"}});
  REQUIRE(env.rows.size() == 3);
  const json& merged = env.rows[2];
  CHECK(merged["source"] == "elicitation-sidecar");
  CHECK(merged["line"].is_null());
  CHECK(merged["tool_name"] == "AskUserQuestion");
  CHECK(merged["pairing"] == "pending");
  CHECK(env.summary["with_elicitation_sidecar"] == true);
  CHECK(env.summary["skipped_lines"] == 3);  // the malformed and torn lines + the sidecar's junk
  const std::string text = f.text({{"turn", "-1"}});
  CHECK(text.find("AskUserQuestion (elicitation sidecar)") != std::string::npos);
  CHECK(text.find("\nwith elicitation sidecar\n") != std::string::npos);
  CHECK(f.run({{"uuid", {"p-toolu_q"}}}).rows.size() == 1);
  CHECK(f.run({{"line", {"2"}}}).summary["with_elicitation_sidecar"] == false);
  CHECK(f.run({{"line", {"-1"}}, {"raw", true}}).rows.size() == 1);  // raw never merges
}

}  // namespace show_unit
