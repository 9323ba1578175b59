// The target grammar: every form, its span, and every fail-loud error.
#include <doctest/doctest.h>

#include "core/base/error.h"
#include "core/store/targets.h"
#include "core/store/trap_marker.h"
#include "tests/unit/temp_store.h"

namespace targets_unit {

using namespace csift;
using csift_test::TempStore;
using csift_test::tool_use_line;
using csift_test::user_line;
namespace fs = std::filesystem;

namespace {

const std::string kS1 = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const std::string kS2 = "13d9645a-0000-4000-8000-000000000001";
const std::string kS3 = "13d9ffff-0000-4000-8000-000000000002";

std::string bash(const std::string& sid, const std::string& id, const std::string& command) {
  return tool_use_line(sid, id, "Bash", "{\"command\":\"" + command + "\"}");
}

// A store whose project dir belongs to a real directory, with a nested subagent tree under kS1:
// main spawns A (toolu_A) and D (toolu_D); A spawns B (toolu_B); C names B as parentAgentId.
struct Fixture {
  TempStore store;
  fs::path cwd;
  std::string dir;
  Fixture() {
    cwd = store.root / "work" / "proj_x";
    fs::create_directories(cwd);
    dir = encode_cwd(cwd.string());
    std::string sub = dir + "/" + kS1 + "/subagents/";
    store.write(dir + "/" + kS1 + ".jsonl",
                user_line(kS1) + tool_use_line(kS1, "toolu_A", "Agent", "{}") +
                    tool_use_line(kS1, "toolu_D", "Agent", "{}") +
                    bash(kS1, "toolu_M", "csift search @trap:VelvetOrchardPilot5829"));
    store.write(sub + "agent-aaaa1111.jsonl",
                user_line(kS1) + tool_use_line(kS1, "toolu_B", "Task", "{}") +
                    bash(kS1, "toolu_x", "csift agents @trap:CopperHarborLantern7261"));
    store.write(sub + "agent-aaaa1111.meta.json", R"({"toolUseId":"toolu_A"})");
    store.write(sub + "agent-bbbb2222.jsonl",
                user_line(kS1) + bash(kS1, "toolu_y", "echo SilverTideHarbor5821"));
    store.write(sub + "agent-bbbb2222.meta.json", R"({"toolUseId":"toolu_B"})");
    store.write(sub + "agent-cccc3333.jsonl",
                user_line(kS1) + tool_use_line(kS1, "toolu_z", "PowerShell",
                                               "{\"command\":\"csift x @trap:AmberFalconRiver3907\"}"));
    store.write(sub + "agent-cccc3333.meta.json", R"({"parentAgentId":"bbbb2222"})");
    store.write(sub + "agent-dddd4444.jsonl",
                user_line(kS1) + bash(kS1, "toolu_w", "csift @trap:AmberFalconRiver3907"));
    store.write(sub + "agent-dddd4444.meta.json", R"({"toolUseId":"toolu_D"})");
    store.write(dir + "/" + kS1 + "/elicitations.jsonl", "{\"csift\":\"elicitation-marker-v1\"}\n");
    store.write("-other/" + kS2 + ".jsonl", user_line(kS2));
    store.write("-other/" + kS3 + ".jsonl", user_line(kS3));
    store.write("C--Users-x/" + kS3 + ".jsonl", user_line(kS3));
    store.write("-empty/memory/x.md", "x");
  }
  Environment env(bool with_session = true) const {
    Environment e = store.env(cwd.string());
    if (with_session) e.vars["CLAUDE_CODE_SESSION_ID"] = kS1;
    return e;
  }
};

std::vector<std::string> ids(const Scope& scope) {
  std::vector<std::string> out;
  for (const auto& t : scope.transcripts)
    out.push_back(t.id);
  return out;
}

Scope resolve(const Fixture& f, std::vector<std::string> targets, bool subagents = true,
              const Environment* env = nullptr) {
  Environment e = env ? *env : f.env();
  TargetResolver resolver(e, std::nullopt);
  TargetRequest req;
  req.targets = std::move(targets);
  req.subagents = subagents;
  return resolver.resolve(req);
}

// The error kind and message of a resolution that must fail.
std::pair<ErrorKind, std::string> failure(const Fixture& f, std::vector<std::string> targets,
                                          const Environment* env = nullptr) {
  try {
    resolve(f, std::move(targets), true, env);
  } catch (const ToolError& e) {
    return {e.kind(), e.what()};
  }
  FAIL("resolution did not fail");
  return {ErrorKind::failure, ""};
}

const std::vector<std::string> kS1Span = {kS1, "aaaa1111", "bbbb2222", "cccc3333", "dddd4444"};

}  // namespace

TEST_CASE("a real path, '.', a bare encoded dir and ~/.claude/projects/<dir> all name the project") {
  Fixture f;
  CHECK(ids(resolve(f, {f.cwd.string()})) == kS1Span);
  CHECK(ids(resolve(f, {"."})) == kS1Span);
  CHECK(ids(resolve(f, {f.dir})) == kS1Span);
  CHECK(ids(resolve(f, {"~/.claude/projects/" + f.dir})) == kS1Span);
  CHECK(ids(resolve(f, {"$HOME/.claude/projects/" + f.dir})) == kS1Span);
  CHECK(ids(resolve(f, {"@" + f.dir})) == kS1Span);
  CHECK(ids(resolve(f, {"."}, false)) == std::vector<std::string>{kS1});
  Scope scope = resolve(f, {"."});
  CHECK(scope.top_level_sessions == 1);
  CHECK(scope.subagent_sessions == 4);
  CHECK_FALSE(scope.unscoped);
}

TEST_CASE("drive-shaped encoded dirs resolve bare and with @") {
  Fixture f;
  CHECK(ids(resolve(f, {"C--Users-x"})) == std::vector<std::string>{kS3});
  CHECK(ids(resolve(f, {"@C--Users-x"})) == std::vector<std::string>{kS3});
}

TEST_CASE("no target = every project; duplicates collapse; order is session then its subagents") {
  Fixture f;
  Scope all = resolve(f, {});
  CHECK(all.unscoped);
  CHECK(all.transcripts.size() == 8);
  CHECK(ids(resolve(f, {".", "@" + kS1, f.dir})) == kS1Span);
  auto mixed = ids(resolve(f, {".", "@" + kS2}));
  // Path order (-other < the temp cwd's dir), not argument order; the picks are put in order in place.
  CHECK(mixed == std::vector<std::string>{kS2, kS1, "aaaa1111", "bbbb2222", "cccc3333", "dddd4444"});
  CHECK(ids(resolve(f, {"@" + kS3, ".", "@" + kS2, "@" + kS1})) ==
        std::vector<std::string>{kS2, kS3, kS1, "aaaa1111", "bbbb2222", "cccc3333", "dddd4444"});
}

TEST_CASE("@uuid and @uuid-prefix") {
  Fixture f;
  CHECK(ids(resolve(f, {"@" + kS1})) == kS1Span);
  CHECK(ids(resolve(f, {"@" + kS1}, false)) == std::vector<std::string>{kS1});
  CHECK(ids(resolve(f, {"@13d9645a"})) == std::vector<std::string>{kS2});
  CHECK(ids(resolve(f, {"@13d9645a-0000"})) == std::vector<std::string>{kS2});
  CHECK(ids(resolve(f, {"@0a1b"}, false)) == std::vector<std::string>{kS1});
  auto [kind, msg] = failure(f, {"@13d9"});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("ambiguous") != std::string::npos);
  CHECK(msg.find(kS2) != std::string::npos);
  CHECK(msg.find(kS3) != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@0a1"});
  CHECK(msg.find("too short") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@ffff9999"});
  CHECK(kind == ErrorKind::not_found);
  std::tie(kind, msg) = failure(f, {"@ffffffff-0000-4000-8000-000000000009"});
  CHECK(kind == ErrorKind::not_found);
}

TEST_CASE("@agent-id spans the agent's topological subtree; alone without subagents") {
  Fixture f;
  CHECK(ids(resolve(f, {"@aaaa1111"})) == std::vector<std::string>{"aaaa1111", "bbbb2222", "cccc3333"});
  CHECK(ids(resolve(f, {"@bbbb2222"})) == std::vector<std::string>{"bbbb2222", "cccc3333"});
  CHECK(ids(resolve(f, {"@dddd4444"})) == std::vector<std::string>{"dddd4444"});
  CHECK(ids(resolve(f, {"@aaaa1111"}, false)) == std::vector<std::string>{"aaaa1111"});
  Scope scope = resolve(f, {"@aaaa"});  // a unique prefix of an agent id dispatches like the full id
  CHECK(ids(scope).size() == 3);
  CHECK(scope.transcripts[0].parent_session_id() == kS1);
}

TEST_CASE("@main uses CLAUDE_CODE_SESSION_ID, then CODEX_COMPANION_SESSION_ID, and notes the lane") {
  Fixture f;
  Scope scope = resolve(f, {"@main"});
  CHECK(ids(scope) == kS1Span);
  REQUIRE(scope.notes.size() == 1);
  CHECK(scope.notes[0].find("TOP-LEVEL") != std::string::npos);
  Environment codex = f.env(false);
  codex.vars["CODEX_COMPANION_SESSION_ID"] = kS2;
  CHECK(ids(resolve(f, {"@main"}, true, &codex)) == std::vector<std::string>{kS2});
  Environment none = f.env(false);
  auto [kind, msg] = failure(f, {"@main"}, &none);
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("CLAUDE_CODE_SESSION_ID") != std::string::npos);
  CHECK(msg.find("@<uuid>") != std::string::npos);
}

TEST_CASE("@trap resolves the subagent whose shell command carries the marker and csift") {
  Fixture f;
  CHECK(ids(resolve(f, {"@trap:CopperHarborLantern7261"})) ==
        std::vector<std::string>{"aaaa1111", "bbbb2222", "cccc3333"});
  Scope main_hit = resolve(f, {"@trap:VelvetOrchardPilot5829"}, false);
  CHECK(ids(main_hit) == std::vector<std::string>{kS1});
  REQUIRE(main_hit.notes.size() == 1);
  CHECK(main_hit.notes[0].find("@main") != std::string::npos);
  auto [kind, msg] = failure(f, {"@trap:AmberFalconRiver3907"});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("cccc3333") != std::string::npos);
  CHECK(msg.find("dddd4444") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@trap:SilverTideHarbor5821"});  // no csift in the command
  CHECK(kind == ErrorKind::not_found);
  CHECK(msg.find("@main") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@trap:JollyShinyBrook4283"});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("reserved") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@trap:lowercase1234"});
  CHECK(kind == ErrorKind::usage);
  Environment none = f.env(false);
  std::tie(kind, msg) = failure(f, {"@trap:CopperHarborLantern7261"}, &none);
  CHECK(msg.find("CLAUDE_CODE_SESSION_ID") != std::string::npos);
}

TEST_CASE("trap marker grammar") {
  for (const char* ok :
       {"CopperHarborLantern7261", "AmberFalconRiver3907", "OakElmAsh1029", "AbcDefGhi9182"}) {
    CAPTURE(ok);
    CHECK(trap_marker_problem(ok).empty());
  }
  for (const char* bad :
       {"", "JollyShinyBrook4283", "CopperHarbor7261", "CopperHarborLanternMoss7261", "CopperHTMLLantern7261",
        "CopperHaLantern7261", "CopperHarborLantern726", "CopperHarborLantern72611",
        "CopperHarborLantern0000", "CopperHarborLantern1234", "CopperHarborLantern9876",
        "CopperHarborLantern1357", "CopperHarborLantern2468", "copperHarborLantern7261",
        "CopperHarborLantern7261x", "Copper-HarborLantern7261", "CopperHarborLantern", "CopperXHarbor7261"}) {
    CAPTURE(bad);
    CHECK_FALSE(trap_marker_problem(bad).empty());
  }
}

TEST_CASE("*.jsonl targets: a session, a subagent subtree, a bare basename; the sidecar is refused") {
  Fixture f;
  std::string session_file = (f.store.projects() / f.dir / (kS1 + ".jsonl")).string();
  CHECK(ids(resolve(f, {session_file})) == kS1Span);
  CHECK(ids(resolve(f, {session_file}, false)) == std::vector<std::string>{kS1});
  std::string agent_file = (f.store.projects() / f.dir / kS1 / "subagents" / "agent-aaaa1111.jsonl").string();
  CHECK(ids(resolve(f, {agent_file})) == std::vector<std::string>{"aaaa1111", "bbbb2222", "cccc3333"});
  Environment in_subagents = f.store.env((f.store.projects() / f.dir / kS1 / "subagents").string());
  CHECK(ids(resolve(f, {"agent-bbbb2222.jsonl"}, true, &in_subagents)) ==
        std::vector<std::string>{"bbbb2222", "cccc3333"});
  auto [kind, msg] = failure(f, {(f.store.projects() / f.dir / kS1 / "elicitations.jsonl").string()});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("sidecar") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"/nonexistent/x.jsonl"});
  CHECK(kind == ErrorKind::not_found);
}

TEST_CASE("grammar errors: unknown @-shape, bare uuid, mistyped flag, unresolvable paths") {
  Fixture f;
  auto [kind, msg] = failure(f, {"@what/ever"});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("@-forms") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@"});
  CHECK(kind == ErrorKind::usage);
  std::tie(kind, msg) = failure(f, {kS1});
  CHECK(msg.find("did you mean '@" + kS1 + "'?") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"--no-subagent"});
  CHECK(kind == ErrorKind::usage);
  CHECK(msg.find("mistype a flag") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"/definitely/not/here"});
  CHECK(kind == ErrorKind::not_found);
  CHECK(msg.find("-definitely-not-here") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"-no-such-dir"});
  CHECK(kind == ErrorKind::not_found);
  std::tie(kind, msg) = failure(f, {"-empty"});
  CHECK(kind == ErrorKind::not_found);
  CHECK(msg.find("no session") != std::string::npos);
  std::tie(kind, msg) = failure(f, {"@nosuchagent"});
  CHECK(kind == ErrorKind::not_found);
}

TEST_CASE("an encoding longer than 200 chars is found by the <first-200>- prefix") {
  Fixture f;
  fs::path deep = f.store.root / std::string(120, 'd') / std::string(120, 'e');
  fs::create_directories(deep);
  std::string encoded = encode_cwd(deep.string());
  REQUIRE(encoded.size() > kMaxEncodedLength);
  f.store.write(encoded.substr(0, kMaxEncodedLength) + "-1a2b3c/" + kS2 + ".jsonl", user_line(kS2));
  CHECK(ids(resolve(f, {deep.string()})) == std::vector<std::string>{kS2});
}

TEST_CASE("sessions_from: each id resolves, an empty list is an empty scope, a bad id fails loud") {
  Fixture f;
  TargetResolver resolver(f.env(), std::nullopt);
  TargetRequest req;
  req.sessions_from_ids = parse_id_list("  @13d9645a\n" + kS3 + "\tdddd4444 ");
  CHECK(*req.sessions_from_ids == std::vector<std::string>{"13d9645a", kS3, "dddd4444"});
  Scope scope = resolver.resolve(req);
  CHECK(ids(scope) == std::vector<std::string>{kS2, kS3, "dddd4444"});  // path order: -other < -tmp…
  req.sessions_from_ids = std::vector<std::string>{};
  scope = resolver.resolve(req);
  CHECK(scope.transcripts.empty());
  CHECK_FALSE(scope.unscoped);
  req.sessions_from_ids = std::vector<std::string>{"main"};
  CHECK_THROWS_AS(resolver.resolve(req), ToolError);
  req.sessions_from_ids = std::vector<std::string>{"ffff0000"};
  CHECK_THROWS_AS(resolver.resolve(req), ToolError);
}

TEST_CASE("resolve_one names exactly one transcript") {
  Fixture f;
  TargetResolver resolver(f.env(), std::nullopt);
  CHECK(resolver.resolve_one("@" + kS1).id == kS1);
  CHECK(resolver.resolve_one("@aaaa1111").id == "aaaa1111");
  CHECK(resolver.resolve_one("@13d9645a").id == kS2);
  CHECK(resolver.resolve_one(".").id == kS1);
  CHECK_THROWS_AS(resolver.resolve_one("-other"), ToolError);
  CHECK(resolver.claude_home() == (f.store.root / ".claude").string());
}

}  // namespace targets_unit
