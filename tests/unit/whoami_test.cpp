// whoami: the env form (lane unknown, path or a not-found note), the guidance error, the @trap ancestry, and
// the caller found by its own tool_use id (on disk, or landing while the call waits).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "core/base/error.h"
#include "core/store/call_landing.h"
#include "tests/unit/temp_store.h"
#include "tools/whoami/whoami.h"

namespace whoami_unit {

using namespace csift;
using csift_test::TempStore;
using csift_test::tool_use_line;
using csift_test::user_line;
namespace fs = std::filesystem;

namespace {

const std::string kS1 = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

struct WhoamiFixture {
  TempStore store;
  ToolContext ctx;
  WhoamiFixture() {
    std::string sub = "-w/" + kS1 + "/subagents/";
    store.write("-w/" + kS1 + ".jsonl", user_line(kS1) + tool_use_line(kS1, "toolu_A", "Agent", "{}"));
    store.write(sub + "agent-aaaa1111.jsonl", user_line(kS1) + tool_use_line(kS1, "toolu_B", "Task", "{}"));
    store.write(sub + "agent-aaaa1111.meta.json", R"({"toolUseId":"toolu_A"})");
    store.write(sub + "agent-bbbb2222.jsonl",
                user_line(kS1) +
                    tool_use_line(kS1, "toolu_x", "Bash",
                                  R"({"command":"csift-mcp --cli whoami @trap:RustyMeadowCompass6083"})"));
    store.write(sub + "agent-bbbb2222.meta.json", R"({"toolUseId":"toolu_B"})");
    ctx.env = store.env("/nowhere");
    ctx.env.vars["CLAUDE_CODE_SESSION_ID"] = kS1;
  }
};

}  // namespace

TEST_CASE("whoami env form: the session and its path, lane fields null, a lane line in text") {
  WhoamiFixture f;
  Envelope out = run_whoami(json::object(), f.ctx);
  CHECK(out.header["command"] == "whoami");
  REQUIRE(out.rows.size() == 1);
  const json& row = out.rows[0];
  CHECK(row["kind"] == "identity");
  CHECK(row["session_id"] == kS1);
  CHECK(row["is_subagent"].is_null());
  CHECK(row["parent_session_id"].is_null());
  CHECK(row["depth"].is_null());
  CHECK(row["path"] == (f.store.projects() / "-w" / (kS1 + ".jsonl")).string());
  CHECK(out.summary["identities"] == 1);
  CHECK_FALSE(out.notes.empty());
  std::string text = render_whoami_text(out, json::object(), ToolContext{});
  CHECK(text.find("session " + kS1 + "\n") == 0);
  CHECK(text.find("path ~/.claude/projects/-w/" + kS1 + ".jsonl\n") != std::string::npos);
  CHECK(text.find("lane unknown") != std::string::npos);
  CHECK(render_whoami_text(run_whoami(json{{"self", "@main"}}, f.ctx), json::object(), ToolContext{}) ==
        text);
}

TEST_CASE("whoami env form: an id that names no transcript is a not-found error; the alias still works") {
  WhoamiFixture f;
  f.ctx.env.vars["CLAUDE_CODE_SESSION_ID"] = "ffffffff-0000-4000-8000-000000000000";
  try {
    run_whoami(json::object(), f.ctx);
    FAIL("no error");
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(std::string(e.what()).find("session ffffffff-0000-4000-8000-000000000000 "
                                     "($CLAUDE_CODE_SESSION_ID) has no transcript under") == 0);
  }
  f.ctx.env.vars.erase("CLAUDE_CODE_SESSION_ID");
  f.ctx.env.vars["CODEX_COMPANION_SESSION_ID"] = kS1;
  CHECK(run_whoami(json::object(), f.ctx).rows[0]["source"] == "env:CODEX_COMPANION_SESSION_ID");
}

TEST_CASE("whoami env form: a blank or whitespace-only id is no id") {
  WhoamiFixture f;
  f.ctx.env.vars["CLAUDE_CODE_SESSION_ID"] = " \t ";
  f.ctx.env.vars["CODEX_COMPANION_SESSION_ID"] = kS1;
  CHECK(run_whoami(json::object(), f.ctx).rows[0]["source"] == "env:CODEX_COMPANION_SESSION_ID");
  f.ctx.env.vars["CODEX_COMPANION_SESSION_ID"] = "  ";
  try {
    run_whoami(json::object(), f.ctx);
    FAIL("no error");
  } catch (const ToolError& e) {
    CHECK(std::string(e.what()).find("is unset or blank") != std::string::npos);
  }
}

TEST_CASE("whoami without the env var errors with guidance; other tokens are refused") {
  WhoamiFixture f;
  f.ctx.env.vars.erase("CLAUDE_CODE_SESSION_ID");
  try {
    run_whoami(json::object(), f.ctx);
    FAIL("no error");
  } catch (const ToolError& e) {
    std::string msg = e.what();
    CHECK(msg.find("CLAUDE_CODE_SESSION_ID") != std::string::npos);
    CHECK(msg.find("@<uuid>") != std::string::npos);
    CHECK(msg.find("most recently modified") != std::string::npos);
  }
  CHECK_THROWS_AS(run_whoami(json{{"self", "@" + kS1}}, f.ctx), ToolError);
}

TEST_CASE("whoami @trap walks the ancestry chain: self first, the top-level session last") {
  WhoamiFixture f;
  Envelope out = run_whoami(json{{"self", "@trap:RustyMeadowCompass6083"}}, f.ctx);
  REQUIRE(out.rows.size() == 3);
  CHECK(out.rows[0]["session_id"] == "bbbb2222");
  CHECK(out.rows[0]["is_subagent"] == true);
  CHECK(out.rows[0]["depth"] == 0);
  CHECK(out.rows[0]["parent_session_id"] == kS1);
  CHECK(out.rows[1]["session_id"] == "aaaa1111");
  CHECK(out.rows[1]["depth"] == 1);
  CHECK(out.rows[2]["session_id"] == kS1);
  CHECK(out.rows[2]["is_subagent"] == false);
  CHECK(out.rows[2]["depth"] == 2);
  CHECK(out.summary["identities"] == 3);
  std::string text = render_whoami_text(out, json::object(), ToolContext{});
  CHECK(text.find("session bbbb2222  (subagent · depth 0") == 0);
  CHECK_THROWS_AS(run_whoami(json{{"self", "@trap:JollyShinyBrook4283"}}, f.ctx), ToolError);
}

TEST_CASE("whoami by the call's own tool_use id: the lane holding it, on any transport") {
  WhoamiFixture f;
  f.ctx.env.caller = CallerLink::network;  // no process relation: only the id can say
  f.ctx.env.caller_tool_use_id = "toolu_B";
  Envelope out = run_whoami(json::object(), f.ctx);
  REQUIRE(out.rows.size() == 2);
  CHECK(out.rows[0]["session_id"] == "aaaa1111");
  CHECK(out.rows[0]["is_subagent"] == true);
  CHECK(out.rows[0]["depth"] == 0);
  CHECK(out.rows[0]["source"] == "tool_use:toolu_B");
  CHECK(out.rows[1]["session_id"] == kS1);
  CHECK(out.summary["lane"] == "subagent");
  CHECK(out.summary["caller_call"]["found"] == true);
  CHECK(out.summary["caller_call"]["landed_late"] == false);
  CHECK(out.summary["evidence"][0].get<std::string>().find("subagent lane aaaa1111") != std::string::npos);
  // The main thread's call: lane main, one row.
  f.ctx.env.caller_tool_use_id = "toolu_A";
  out = run_whoami(json{{"self", "@main"}}, f.ctx);
  REQUIRE(out.rows.size() == 1);
  CHECK(out.rows[0]["session_id"] == kS1);
  CHECK(out.summary["lane"] == "main");
  CHECK(render_whoami_text(out, json::object(), ToolContext{}).find("this call is in a top-level") !=
        std::string::npos);
}

TEST_CASE("bare @self needs a tool_use id; a marker is the way without one") {
  WhoamiFixture f;
  f.ctx.env.caller = CallerLink::network;
  try {
    run_whoami(json{{"self", "@self"}}, f.ctx);
    FAIL("no error");
  } catch (const ToolError& e) {
    CHECK(std::string(e.what()).find("marker") != std::string::npos);
  }
}

TEST_CASE("the calling tool_use is waited for until it lands, and an id is matched whole") {
  TempStore store;
  const std::string path = store.write("-w/" + kS1 + ".jsonl", user_line(kS1));
  const std::string root = store.projects().string();
  // Not there and no wait: nothing, at once; a prefix of a present id is no match.
  std::ofstream(path, std::ios::app) << tool_use_line(kS1, "toolu_early_long", "mcp__csift__whoami", "{}");
  CHECK(find_tool_use_landing(root, "toolu_early", {}, "", 0).hits.empty());
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::ofstream(path, std::ios::app) << tool_use_line(kS1, "toolu_late", "mcp__csift__whoami", "{}");
  });
  const CallLanding landing = find_tool_use_landing(root, "toolu_late", {kS1}, "", kCallLandingWaitMs);
  writer.join();
  REQUIRE(landing.hits.size() == 1);
  CHECK(landing.hits[0].id == kS1);
  CHECK(landing.landed_late);
  CHECK(landing.waited_ms >= 200);
  CHECK(landing.waited_ms < kCallLandingWaitMs);
  CHECK(landing_evidence(landing, "it").find("landed") != std::string::npos);
}

// A fresh session's first call: Claude Code creates the project folder and the transcript only when it first
// writes, so neither exists when the call arrives. The new folder and file must wake the wait (found among
// the appended bytes), not the last look after the full wait.
TEST_CASE("the calling tool_use is found when its transcript and project folder appear after the call") {
  TempStore store;
  const std::string other = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";
  store.write("-elsewhere/" + other + ".jsonl", user_line(other));
  const std::string root = store.projects().string();
  const std::string dir = root + "/-fresh";
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/" + kS1 + ".jsonl")
        << user_line(kS1) << tool_use_line(kS1, "toolu_fresh", "mcp__csift__whoami", "{}");
  });
  const CallLanding landing = find_tool_use_landing(root, "toolu_fresh", {kS1}, "/fresh", kCallLandingWaitMs);
  writer.join();
  REQUIRE(landing.hits.size() == 1);
  CHECK(landing.hits[0].id == kS1);
  CHECK(landing.found_among == "appended");
  CHECK(landing.waited_ms < kCallLandingWaitMs);
}

}  // namespace whoami_unit
