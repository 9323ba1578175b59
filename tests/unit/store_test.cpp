// The store: home resolution, §2.1 encoding, and discovery of sessions and every subagent shape.
#include <doctest/doctest.h>

#include "tests/unit/corpus_root.h"

#include <algorithm>
#include <map>

#include "core/base/error.h"
#include "core/store/retention.h"
#include "core/store/store.h"
#include "tests/unit/server_memos.h"
#include "tests/unit/temp_store.h"

namespace store_unit {

using namespace csift;
using csift_test::TempStore;
using csift_test::user_line;
namespace fs = std::filesystem;

namespace {
const std::string kS1 = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const std::string kS2 = "13d9645a-0000-4000-8000-000000000001";
}  // namespace

TEST_CASE("claude home precedence: override > CLAUDE_CONFIG_DIR (non-empty) > $HOME/.claude") {
  Environment env;
  env.vars["HOME"] = "/home/u";
  CHECK(resolve_claude_home(std::nullopt, env) == "/home/u/.claude");
  env.vars["CLAUDE_CONFIG_DIR"] = "";
  CHECK(resolve_claude_home(std::nullopt, env) == "/home/u/.claude");
  env.vars["CLAUDE_CONFIG_DIR"] = "/cfg";
  CHECK(resolve_claude_home(std::nullopt, env) == "/cfg");
  CHECK(resolve_claude_home(std::string("~/alt"), env) == "/home/u/alt");
  CHECK(projects_root("/cfg") == "/cfg/projects");
  CHECK_FALSE(env.get("CLAUDE_CONFIG_DIR_MISSING").has_value());
}

TEST_CASE("the server's claude home sits between a call's own and the environment's") {
  Environment env;
  env.vars["HOME"] = "/home/u";
  env.vars["CLAUDE_CONFIG_DIR"] = "/cfg";
  env.claude_home = "/served";
  CHECK(resolve_claude_home(std::nullopt, env) == "/served");
  CHECK(resolve_claude_home(std::string("/mine"), env) == "/mine");
}

TEST_CASE("a claude home that does not exist is an error naming it and its source") {
  Environment env;
  env.vars["HOME"] = "/nonexistent-home-for-csift";
  try {
    require_claude_home(resolve_claude_home(std::nullopt, env), std::nullopt, env);
    FAIL("no error");
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(std::string(e.what()).find("/nonexistent-home-for-csift/.claude (from the default") !=
          std::string::npos);
  }
  TempStore store;
  CHECK_NOTHROW(require_claude_home(store.home().string(), std::nullopt, env));
}

TEST_CASE("Environment::from_process reads the real environment and cwd") {
  Environment env = Environment::from_process();
  CHECK_FALSE(env.cwd.empty());
  CHECK(env.vars.count("PATH") == 1);
}

TEST_CASE("encode_cwd follows §2.1 exactly") {
  CHECK(encode_cwd("/Users/testuser/Projects/widget_app_prototype") ==
        "-Users-testuser-Projects-widget-app-prototype");
  CHECK(encode_cwd("/Users/testuser/Projects/Acme/widget_factory-worktrees/main") ==
        "-Users-testuser-Projects-Acme-widget-factory-worktrees-main");
  CHECK(encode_cwd("/a/.claude/b") == "-a--claude-b");
  CHECK(encode_cwd("C:\\Users\\x") == "C--Users-x");
  CHECK(encode_cwd("\\\\server\\share") == "--server-share");
  // NFD (e + combining acute) normalizes to one composed unit: one dash, like the NFC spelling.
  CHECK(encode_cwd("/caf\x65\xcc\x81") == "-caf-");
  CHECK(encode_cwd("/caf\xc3\xa9") == "-caf-");
  // An astral char is a surrogate pair: two dashes.
  CHECK(encode_cwd("/x\xf0\x9f\x98\x80y") == "-x--y");
  // Invalid UTF-8 bytes: one dash each.
  CHECK(encode_cwd("/a\xff\xfe"
                   "b") == "-a--b");
  CHECK(encode_cwd("/Mixed Case 42") == "-Mixed-Case-42");
}

TEST_CASE("head_session_id: the first non-empty sessionId of the head lines") {
  TempStore st;
  const auto head_session_id = [](const std::string& path) {
    Transcript agent;
    agent.path = path;
    return csift::head_session_id(agent);
  };
  CHECK(head_session_id(st.write("p/a.jsonl", user_line(kS1))) == kS1);
  // json.dumps spacing; an empty id and a quoted pair in a string are passed over.
  CHECK(head_session_id(st.write("p/b.jsonl",
                                 "{\"sessionId\":\"\",\"text\":\"\\\"sessionId\\\":\\\"zz\\\"\"}\n"
                                 "{\"sessionId\" : \"" +
                                     kS2 + "\"}\n")) == kS2);
  // Only the first 64 lines are read.
  std::string late(64, '\n');
  CHECK(head_session_id(st.write("p/c.jsonl", late + user_line(kS1))).empty());
  CHECK(head_session_id(st.write("p/d.jsonl", std::string(63, '\n') + user_line(kS1))) == kS1);
}

TEST_CASE("id shapes") {
  CHECK(is_uuid(kS1));
  CHECK_FALSE(is_uuid("0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d"));
  CHECK(is_teammate_agent_id("aVSRepro-68a2a1661c9390c1"));
  CHECK(is_teammate_agent_id("aP1-engine-9cf2a1661c9390c1"));
  CHECK_FALSE(is_teammate_agent_id("acompact-946d2b"));
  CHECK_FALSE(is_teammate_agent_id("aac57f5"));
  CHECK(agent_id_from_filename("agent-aac57f5.jsonl") == "aac57f5");
  CHECK(agent_id_from_filename("agent-aac57f5.meta.json") == "");
  CHECK(agent_id_from_filename("journal.jsonl") == "");
}

TEST_CASE("discovery: sessions, the three subagent shapes, legacy flat agents, exclusions") {
  TempStore store;
  std::string dir = (store.projects() / "-w").string();
  store.write("-w/" + kS1 + ".jsonl", user_line(kS1));
  store.write("-w/" + kS2 + ".jsonl", user_line(kS2));
  store.write("-w/agent-a0d87c4.jsonl", "\n" + user_line(kS2));  // legacy flat (CC 1.x)
  store.write("-w/notes.jsonl", user_line(kS1));                 // not uuid-named: still a session
  store.write("-w/" + kS1 + "/elicitations.jsonl", "{\"csift\":\"elicitation-marker-v1\"}\n");
  store.write("-w/" + kS1 + "/subagents/agent-aac57f5.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-aac57f5.meta.json",
              R"({"agentType":"Explore","description":"look","toolUseId":"toolu_1","parentAgentId":"x"})");
  store.write("-w/" + kS1 + "/subagents/agent-acompact-946d2b.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-acompact-946d2b.meta.json", "{not json");
  store.write("-w/" + kS1 + "/subagents/agent-aTeam-68a2a1661c9390c1.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-b1.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-b1.meta.json",
              R"({"taskKind":"in_process_teammate","name":"bee"})");
  store.write("-w/" + kS1 + "/subagents/workflows/wf_7/agent-c2.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/workflows/wf_7/journal.jsonl", "{\"agentId\":\"c2\"}\n");
  store.write("-childless/" + kS1 + "/subagents/agent-zz.jsonl", user_line(kS1));
  store.write("-memory-only/memory/notes.md", "x");

  auto sessions = list_sessions(dir);
  REQUIRE(sessions.size() == 3);
  CHECK(sessions[0].id == kS1);
  CHECK(sessions[2].id == "notes");  // every top-level *.jsonl but agent-*, journal and elicitations
  CHECK(sessions[0].path == dir + "/" + kS1 + ".jsonl");
  CHECK(sessions[0].size > 0);
  CHECK(sessions[0].mtime_ns > 0);
  CHECK_FALSE(sessions[0].is_subagent);
  CHECK(sessions[0].parent_session_id() == kS1);

  auto agents = list_subagents(sessions[0]);
  REQUIRE(agents.size() == 5);
  std::map<std::string, Transcript> by_id;
  for (auto& a : agents)
    by_id[a.id] = a;
  CHECK(by_id["aac57f5"].shape == TranscriptShape::builtin_task);
  CHECK(by_id["aac57f5"].agent_type() == "Explore");
  CHECK(by_id["aac57f5"].description() == "look");
  CHECK(by_id["aac57f5"].spawn_tool_use_id() == "toolu_1");
  CHECK(by_id["aac57f5"].parent_agent_id() == "x");
  CHECK(by_id["aac57f5"].parent_session_id() == kS1);
  CHECK(by_id["acompact-946d2b"].shape == TranscriptShape::builtin_task);
  CHECK(by_id["acompact-946d2b"].agent_type().empty());
  CHECK(by_id["aTeam-68a2a1661c9390c1"].shape == TranscriptShape::teammate);
  CHECK(by_id["b1"].shape == TranscriptShape::teammate);
  CHECK(by_id["b1"].agent_name() == "bee");
  CHECK(by_id["c2"].shape == TranscriptShape::workflow);
  CHECK(by_id["c2"].workflow_id == "wf_7");
  CHECK(std::is_sorted(agents.begin(), agents.end(),
                       [](const Transcript& a, const Transcript& b) { return a.path < b.path; }));

  auto legacy = list_legacy_agents(dir);
  REQUIRE(legacy.size() == 1);
  CHECK(legacy[0].id == "a0d87c4");
  CHECK(legacy[0].session_id == kS2);
  CHECK(legacy[0].shape == TranscriptShape::legacy_flat);
  CHECK(legacy[0].is_subagent);

  auto dirs = list_project_dirs(store.projects().string());
  CHECK(dirs == std::vector<std::string>{dir});

  CHECK(std::string(shape_name(TranscriptShape::builtin_task)) == "builtin-task");
  CHECK(sidecar_path(sessions[0]) == dir + "/" + kS1 + "/elicitations.jsonl");
  CHECK(is_sidecar_path(sidecar_path(sessions[0])));
  std::string renamed = store.write("-w/renamed.jsonl", "{\"csift\":\"elicitation-marker-v1\",\"a\":1}\n\n");
  CHECK(is_sidecar_path(renamed));
  CHECK_FALSE(is_sidecar_path(sessions[0].path));

  auto file = transcript_for_file(dir + "/" + kS1 + "/subagents/workflows/wf_7/agent-c2.jsonl");
  REQUIRE(file);
  CHECK(file->shape == TranscriptShape::workflow);
  CHECK(file->session_id == kS1);
  auto flat = transcript_for_file(dir + "/agent-a0d87c4.jsonl");
  REQUIRE(flat);
  CHECK(flat->shape == TranscriptShape::legacy_flat);
  CHECK_FALSE(transcript_for_file(dir + "/missing.jsonl"));
}

// What list_sessions, list_subagents and list_legacy_agents give, as list_ids names it.
std::vector<std::string> ids_by_listing(const std::string& projects_root) {
  std::vector<std::string> sessions, agents, legacy;
  std::vector<Transcript> listed;
  for (const std::string& dir : list_project_dirs(projects_root)) {
    for (Transcript& s : list_sessions(dir)) {
      sessions.push_back("session " + s.id + " " + s.project_dir);
      listed.push_back(std::move(s));
    }
  }
  for (const Transcript& s : listed) {
    for (const Transcript& a : list_subagents(s))
      agents.push_back("subagent " + a.id + " " + a.project_dir + " " + a.session_id);
  }
  for (const std::string& dir : list_project_dirs(projects_root)) {
    for (const Transcript& a : list_legacy_agents(dir))
      legacy.push_back("legacy " + a.id + " " + a.project_dir);
  }
  sessions.insert(sessions.end(), agents.begin(), agents.end());
  sessions.insert(sessions.end(), legacy.begin(), legacy.end());
  return sessions;
}

std::vector<std::string> ids_by_name(const std::vector<ListedId>& ids) {
  std::vector<std::string> out;
  for (const ListedId& l : ids) {
    switch (l.kind) {
      case ListedId::Kind::session:
        out.push_back("session " + l.id + " " + l.project_dir);
        break;
      case ListedId::Kind::subagent:
        out.push_back("subagent " + l.id + " " + l.project_dir + " " + l.session_id);
        break;
      case ListedId::Kind::legacy_agent:
        out.push_back("legacy " + l.id + " " + l.project_dir);
        break;
    }
  }
  return out;
}

TEST_CASE("list_ids names what the listings list, in their order, and transcript_of builds it as they do") {
  TempStore store;
  const std::string kS3 = "22222222-0000-4000-8000-000000000003";
  store.write("-w/" + kS1 + ".jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-b9.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/agent-b9.meta.json", R"({"agentType":"Explore"})");
  store.write("-w/" + kS1 + "/subagents/agent-a1.jsonl", user_line(kS1));
  // By path "wf_1-x/" sorts before "wf_1/" ('-' < '/'), though the folder names sort the other way.
  store.write("-w/" + kS1 + "/subagents/workflows/wf_1/agent-d1.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/workflows/wf_1-x/agent-d2.jsonl", user_line(kS1));
  store.write("-w/" + kS1 + "/subagents/workflows/other/agent-g1.jsonl", user_line(kS1));   // not wf_*
  fs::create_directories(store.projects() / "-w" / kS1 / "subagents" / "agent-dir.jsonl");  // not a file
  store.write("-w/" + kS2 + ".jsonl", user_line(kS2));
  store.write("-w/" + kS2, "a file where a session folder would be");
  // A dangling symlink is no session, so the subagents beside it are not listed either.
  fs::create_symlink(store.projects() / "nowhere.jsonl", store.projects() / "-w" / (kS3 + ".jsonl"));
  store.write("-w/" + kS3 + "/subagents/agent-e1.jsonl", user_line(kS3));
  store.write("-w/agent-a0d87c4.jsonl", user_line(kS2));  // legacy flat
  fs::create_symlink(store.projects() / "nowhere.jsonl", store.projects() / "-w" / "agent-f00.jsonl");
  store.write("-v/" + kS3 + ".jsonl", user_line(kS3));
  store.write("-v/" + kS3 + "/subagents/agent-c7.jsonl", user_line(kS3));
  store.write("-v/agent-a11.jsonl", user_line(kS3));
  store.write("-childless/" + kS1 + "/subagents/agent-zz.jsonl", user_line(kS1));

  const std::string root = store.projects().string();
  const auto check_against_listings = [&root] {
    const std::vector<ListedId> ids = list_ids(root);
    const std::vector<std::string> expected = ids_by_listing(root);
    CHECK(ids_by_name(ids) == expected);
    REQUIRE(expected.size() == 10);  // 3 sessions, 5 subagents (-v's first; d2 before d1), 2 legacy agents
    CHECK(expected[3].rfind("subagent c7 ", 0) == 0);
    CHECK(expected[6].rfind("subagent d2 ", 0) == 0);
    CHECK(expected[7].rfind("subagent d1 ", 0) == 0);
    for (const ListedId& l : ids) {
      const std::optional<Transcript> t = transcript_of(l);
      REQUIRE(t);
      const std::optional<Transcript> by_path = transcript_for_file(t->path);
      REQUIRE(by_path);
      CHECK(t->id == l.id);
      CHECK(t->shape == by_path->shape);
      CHECK(t->session_id == by_path->session_id);
      CHECK(t->agent_type() == by_path->agent_type());
      CHECK(t->workflow_id == by_path->workflow_id);
      CHECK(t->size == by_path->size);
    }
  };
  check_against_listings();
  csift_test::ServerMemosInstalled memos;  // a server's listings: remembered, keyed by the folders' stamps
  check_against_listings();
  check_against_listings();
  fs::remove(store.projects() / "-w" / kS1 / "subagents" / "agent-a1.jsonl");  // seen by the next listing
  CHECK(ids_by_name(list_ids(root)) == ids_by_listing(root));
  CHECK(ids_by_name(list_ids(root)).size() == 9);
  ListedId gone{ListedId::Kind::subagent, "a1", (store.projects() / "-w").string(), kS1};
  CHECK_FALSE(transcript_of(gone));
}

TEST_CASE("discovery over the real corpus layouts") {
  const std::string corpus = csift_test::corpus_root().string() + "/";
  const std::string legacy_dir =
      corpus + "scripts-and-tools/src/claude-history/test/fixtures/claude-projects/-Users-user-project";
  auto legacy = list_legacy_agents(legacy_dir);
  CHECK(legacy.size() >= 10);
  for (const auto& a : legacy)
    CHECK(is_uuid(a.session_id));
  auto sessions = list_sessions(corpus + "spotter/test/fixtures/transcripts");
  REQUIRE_FALSE(sessions.empty());
  size_t agents = 0;
  for (const auto& s : sessions)
    agents += list_subagents(s).size();
  CHECK(agents >= 10);
}

TEST_CASE("retention: cleanupPeriodDays from settings.json, days left rounded up and never below 0") {
  csift_test::TempDir home("csift-retention");
  CHECK(claude_cleanup_period(home.root.string()).days == 30);
  CHECK(claude_cleanup_period(home.root.string()).from == "default");
  home.write("settings.json", R"({"cleanupPeriodDays": 10})");
  const CleanupPeriod ten = claude_cleanup_period(home.root.string());
  CHECK(ten.days == 10);
  CHECK(ten.from == (home.root / "settings.json").string());
  home.write("settings.json", R"({"cleanupPeriodDays": 0})");
  const CleanupPeriod refused = claude_cleanup_period(home.root.string());
  CHECK(refused.days == 30);
  CHECK(refused.note.find("refuses") != std::string::npos);

  const EpochMs now = 100LL * 86400000;
  Transcript t;
  t.path = "/nonexistent";
  auto aged = [&](double days) {
    t.mtime_ns = static_cast<int64_t>((static_cast<double>(now) - days * 86400000.0) * 1e6);
    return expires_in_days(t, ten, now);
  };
  CHECK(aged(1) == std::nullopt);    // 9 days left: beyond the 7-day horizon
  CHECK(aged(2.9) == std::nullopt);  // 7.1 left
  CHECK(aged(3) == 7);               // exactly 7 left
  CHECK(aged(8.5) == 2);             // 1.5 left, rounded up
  CHECK(aged(9.9) == 1);             // hours left: not yet due
  CHECK(aged(10.2) == 0);            // past due: at Claude Code's next start
  t.harness = HarnessId::codex;      // no cleanup read for another harness
  CHECK(aged(10.2) == std::nullopt);
}

}  // namespace store_unit
