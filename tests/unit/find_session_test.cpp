// find_session (core/store/store.cpp): the session an @<uuid> names, found with one look per project dir,
// must be the one listing every session finds first (list_project_dirs' order, list_sessions' rules).
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>

#include "core/store/store.h"
#include "core/store/store_index.h"
#include "tests/unit/temp_store.h"

namespace find_session_unit {

using namespace csift;
using csift_test::TempStore;
using csift_test::user_line;
namespace fs = std::filesystem;

namespace {

const std::string kId = "0a1b2c3d-0000-4000-8000-00000000aaaa";

// The first session with id `id` that listing every project dir finds.
std::optional<Transcript> listed_first(const TempStore& s, const std::string& id) {
  for (const std::string& dir : list_project_dirs(s.projects().string())) {
    for (const Transcript& t : list_sessions(dir))
      if (t.id == id) return t;
  }
  return std::nullopt;
}

// What the lookup found against what the listing found: every field a later step reads.
void check_same(const std::optional<Transcript>& found, const std::optional<Transcript>& listed) {
  REQUIRE(listed.has_value() == found.has_value());
  if (!found) return;
  CHECK(found->path == listed->path);
  CHECK(found->project_dir == listed->project_dir);
  CHECK(found->id == listed->id);
  CHECK(found->session_id == listed->session_id);
  CHECK(found->is_subagent == listed->is_subagent);
  CHECK(found->shape == listed->shape);
  CHECK(found->workflow_id == listed->workflow_id);
  CHECK(found->agent_type() == listed->agent_type());
  CHECK(found->size == listed->size);
  CHECK(found->mtime_ns == listed->mtime_ns);
  CHECK(found->session_dir_absent == listed->session_dir_absent);
  CHECK(found->session_dir.listed == listed->session_dir.listed);
  CHECK(found->session_dir.subagents == listed->session_dir.subagents);
  CHECK(found->session_dir.sidecar == listed->session_dir.sidecar);
}

void check_same(const TempStore& s, const std::string& id) {
  check_same(find_session(s.projects().string(), id), listed_first(s, id));
}

}  // namespace

TEST_CASE("find_session: the first project dir in listing order that holds the session") {
  TempStore s;
  s.write("-b-project/" + kId + ".jsonl", user_line(kId));
  s.write("-a-project/" + kId + ".jsonl", user_line(kId, "the first"));
  s.write("-a-project/" + kId + "/subagents/agent-a1.jsonl", user_line(kId));
  check_same(s, kId);
  CHECK(find_session(s.projects().string(), kId)->project_dir.find("-a-project") != std::string::npos);
  CHECK_FALSE(find_session(s.projects().string(), kId)->session_dir_absent);
}

TEST_CASE("find_session: an entry the listing skips is skipped, and the next project dir answers") {
  TempStore s;
  fs::create_directories(s.projects() / "-a-project" / (kId + ".jsonl"));  // a directory, no transcript
  s.write("-a-project/other.jsonl", user_line(kId));
  fs::create_directories(s.projects() / "-b-project");
  fs::create_symlink(s.projects() / "nowhere.jsonl", s.projects() / "-b-project" / (kId + ".jsonl"));
  s.write("-b-project/keep.jsonl", user_line(kId));
  s.write("-c-project/" + kId + ".jsonl", user_line(kId));
  check_same(s, kId);
  CHECK(find_session(s.projects().string(), kId)->project_dir.find("-c-project") != std::string::npos);
  CHECK(find_session(s.projects().string(), kId)->session_dir_absent);
}

TEST_CASE("find_session: a missing session, and a name no session file can have") {
  TempStore s;
  s.write("-a-project/" + kId + ".jsonl", user_line(kId));
  check_same(s, "ffffffff-0000-4000-8000-000000000009");
  CHECK_FALSE(find_session(s.projects().string(), "agent-a1"));
  CHECK_FALSE(find_session(s.projects().string(), "journal"));
}

namespace {

const std::string kAgent = "a0c0ffee00000001";

// The first subagent with id `id` that listing every session's subagents, then the legacy agents, finds.
std::optional<Transcript> listed_agent(const TempStore& s, const std::string& id) {
  const std::vector<std::string> dirs = list_project_dirs(s.projects().string());
  for (const std::string& dir : dirs) {
    for (const Transcript& session : list_sessions(dir)) {
      for (const Transcript& a : list_subagents(session))
        if (a.id == id) return a;
    }
  }
  for (const std::string& dir : dirs) {
    for (const Transcript& a : list_legacy_agents(dir))
      if (a.id == id) return a;
  }
  return std::nullopt;
}

void check_same_agent(const TempStore& s, const std::string& id) {
  check_same(find_agent(s.projects().string(), id), listed_agent(s, id));
}

const std::string kS1 = "0a1b2c3d-0000-4000-8000-000000000001";
const std::string kS2 = "0a1b2c3d-0000-4000-8000-000000000002";

}  // namespace

TEST_CASE("find_agent: the first session in listing order whose subagents hold the agent, meta read") {
  TempStore s;
  s.write("-b-project/" + kS1 + ".jsonl", user_line(kS1));
  s.write("-b-project/" + kS1 + "/subagents/agent-" + kAgent + ".jsonl", user_line(kS1));
  s.write("-a-project/" + kS2 + ".jsonl", user_line(kS2));
  s.write("-a-project/" + kS2 + "/subagents/agent-" + kAgent + ".jsonl", user_line(kS2, "the first"));
  s.write("-a-project/" + kS2 + "/subagents/agent-" + kAgent + ".meta.json", R"({"agentType":"Explore"})");
  check_same_agent(s, kAgent);
  const auto found = find_agent(s.projects().string(), kAgent);
  REQUIRE(found);
  CHECK(found->session_id == kS2);
  CHECK(found->agent_type() == "Explore");
}

TEST_CASE("find_agent: workflow agents, orphans skipped, legacy flat agents after every session's") {
  TempStore s;
  // An orphan: the session file is gone, so the listing never looks into its folder.
  s.write("-a-project/other.jsonl", user_line(kS1));
  s.write("-a-project/" + kS1 + "/subagents/agent-" + kAgent + ".jsonl", user_line(kS1));
  // A legacy flat agent in an earlier project dir still comes after every session's subagents.
  s.write("-a-project/agent-" + kAgent + ".jsonl", user_line(kS1));
  s.write("-b-project/" + kS2 + ".jsonl", user_line(kS2));
  s.write("-b-project/" + kS2 + "/subagents/workflows/wf_0001/agent-" + kAgent + ".jsonl", user_line(kS2));
  check_same_agent(s, kAgent);
  CHECK(find_agent(s.projects().string(), kAgent)->workflow_id == "wf_0001");
  fs::remove_all(s.projects() / "-b-project" / kS2);
  check_same_agent(s, kAgent);
  CHECK(find_agent(s.projects().string(), kAgent)->project_dir.find("-a-project") != std::string::npos);
  CHECK(find_agent(s.projects().string(), kAgent)->shape == TranscriptShape::legacy_flat);
  check_same_agent(s, "a0c0ffee00000002");
  CHECK_FALSE(find_agent(s.projects().string(), "a/b"));
}

TEST_CASE("StoreIndex: lookups past the first few answer from the listed ids as the listing would") {
  TempStore s;
  s.write("-b-project/" + kS1 + ".jsonl", user_line(kS1));
  s.write("-b-project/" + kS1 + "/subagents/agent-" + kAgent + ".jsonl", user_line(kS1));
  s.write("-a-project/" + kS1 + ".jsonl", user_line(kS1, "the first"));
  s.write("-a-project/" + kS2 + ".jsonl", user_line(kS2));
  s.write("-a-project/" + kS2 + "/subagents/workflows/wf_0001/agent-" + kAgent + ".jsonl", user_line(kS2));
  s.write("-a-project/" + kS2 + "/subagents/agent-a0c0ffee00000003.jsonl", user_line(kS2));
  s.write("-a-project/" + kS2 + "/subagents/agent-a0c0ffee00000003.meta.json", R"({"agentType":"Plan"})");
  s.write("-b-project/agent-a0c0ffee00000002.jsonl", user_line(kS1));  // legacy flat
  StoreIndex index(s.projects().string());
  // Two rounds: the first lookups look per project dir, the later ones answer from index.ids().
  for (int round = 0; round < 2; ++round) {
    check_same(index.session_by_id(kS1), listed_first(s, kS1));
    check_same(index.session_by_id(kS2), listed_first(s, kS2));
    check_same(index.session_by_id("ffffffff-0000-4000-8000-000000000009"),
               listed_first(s, "ffffffff-0000-4000-8000-000000000009"));
    for (const std::string& id : {kAgent, std::string("a0c0ffee00000002"), std::string("a0c0ffee00000003"),
                                  std::string("a0c0ffee00000009")})
      check_same(index.agent_by_id(id), listed_agent(s, id));
  }
  CHECK(index.session_by_id(kS1)->project_dir.find("-a-project") != std::string::npos);
  CHECK(index.agent_by_id(kAgent)->workflow_id == "wf_0001");
  CHECK(index.agent_by_id("a0c0ffee00000003")->agent_type() == "Plan");
  CHECK(index.agent_by_id("a0c0ffee00000002")->shape == TranscriptShape::legacy_flat);
  CHECK(index.ids().size() == 7);  // 3 sessions (kS1 twice), 4 agents (kAgent twice)
}

}  // namespace find_session_unit
