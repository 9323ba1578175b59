// A server's whole-store walk answered again (project_walk_memo.h): only after a walk every answer of which
// came from a watch, and only while no notice but a transcript's write arrived since. Each case compares the
// walk's answer with what the store holds now, so an answer kept too long fails whatever the timing: an
// append is restamped, and a created, deleted or renamed entry, a rewritten meta.json or a rewritten legacy
// agent walks again.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "core/store/discovery_memo.h"
#include "core/store/project_walk_memo.h"
#include "core/store/targets.h"
#include "core/store/watched_stamps.h"
#include "tests/unit/server_memos.h"
#include "tests/unit/temp_store.h"

namespace project_walk_memo_unit {

namespace fs = std::filesystem;
using csift::Scope;
using csift::Transcript;
using csift_test::append_to;
using csift_test::TempStore;
using csift_test::user_line;

const std::string kS1 = "5b1d0000-0000-4000-8000-000000000001";
const std::string kS2 = "5b1d0000-0000-4000-8000-000000000002";
const std::string kS3 = "5b1d0000-0000-4000-8000-000000000003";
const std::string kS4 = "5b1d0000-0000-4000-8000-000000000004";

// A server's memos for one case: the discovery memo and watched stamps (which the walk memo follows).
using ServerWalks = csift_test::ServerMemosInstalled;

// Two projects: one with two sessions (the first with a subagent and its meta.json), one with a session and a
// legacy flat agent whose head names it.
struct Store {
  TempStore store;
  const std::string a = "-home-dev-walk-a", b = "-home-dev-walk-b";
  std::string s1, s2, agent, meta, s3, legacy;
  Store() {
    s1 = store.write(a + "/" + kS1 + ".jsonl", user_line(kS1));
    s2 = store.write(a + "/" + kS2 + ".jsonl", user_line(kS2));
    agent = store.write(a + "/" + kS1 + "/subagents/agent-a1b2c3d4.jsonl", user_line(kS1, "agent"));
    meta = store.write(a + "/" + kS1 + "/subagents/agent-a1b2c3d4.meta.json", R"({"description":"first"})");
    s3 = store.write(b + "/" + kS3 + ".jsonl", user_line(kS3));
    legacy = store.write(b + "/agent-e5f6a7b8.jsonl", user_line(kS3, "legacy"));
  }
  Scope walk() const {
    csift::TargetResolver resolver(store.env(), std::nullopt);
    return resolver.resolve(csift::TargetRequest{});
  }
};

uint64_t reused() {
  csift::ProjectWalkMemo* memo = csift::process_project_walk_memo();
  REQUIRE(memo);
  return memo->reused();
}

// The walk's answer as the store holds it now: every transcript's id, session, size and mtime, and an
// agent's description.
void check_current(const Scope& scope, size_t want_transcripts) {
  REQUIRE(scope.transcripts.size() == want_transcripts);
  for (const Transcript& t : scope.transcripts) {
    CAPTURE(t.path);
    struct stat st {};
    REQUIRE(::stat(t.path.c_str(), &st) == 0);
    const csift::FileStamp now = csift::stamp_of_stat(st);
    CHECK(csift::discovered_stamp(t) == std::optional<csift::FileStamp>(now));
    if (t.shape == csift::TranscriptShape::legacy_flat) CHECK(t.session_id == kS3);
  }
}

std::string description_of(const Scope& scope, const std::string& agent_id) {
  for (const Transcript& t : scope.transcripts)
    if (t.id == agent_id) return t.description();
  FAIL("no such agent in the scope");
  return "";
}

TEST_CASE("project walk memo: answered again only after a watched walk, and an append is restamped") {
  ServerWalks installed;
  Store s;
  const uint64_t before = reused();
  check_current(s.walk(), 5);  // unwatched (the server's watches are deferred): not kept
  check_current(s.walk(), 5);
  CHECK(reused() == before);
  csift::process_watched_stamps()->watch_noted();
  check_current(s.walk(), 5);  // every answer watched: kept
  CHECK(reused() == before);
  check_current(s.walk(), 5);
  CHECK(reused() == before + 1);

  append_to(s.s1, user_line(kS1, "a second prompt"));
  append_to(s.agent, user_line(kS1, "the agent goes on"));
  check_current(s.walk(), 5);  // restamped, not walked
  CHECK(reused() == before + 2);
}

TEST_CASE("project walk memo: a created, deleted or renamed entry and a rewritten meta.json walk again") {
  ServerWalks installed;
  Store s;
  s.walk();
  csift::process_watched_stamps()->watch_noted();
  s.walk();
  uint64_t count = reused();
  auto walked_again = [&](size_t transcripts) {
    const Scope scope = s.walk();
    check_current(scope, transcripts);
    CHECK(reused() == count);  // walked, not answered again
    const Scope next = s.walk();
    check_current(next, transcripts);
    return next;
  };

  SUBCASE("a session created") {
    s.store.write(s.a + "/" + kS4 + ".jsonl", user_line(kS4));
    walked_again(6);
  }
  SUBCASE("a session deleted") {
    fs::remove(s.s2);
    walked_again(4);
  }
  SUBCASE("a subagent renamed") {
    fs::rename(s.agent, fs::path(s.agent).parent_path() / "agent-0f0f0f0f.jsonl");
    walked_again(5);
  }
  SUBCASE("a meta.json rewritten in place") {
    CHECK(description_of(s.walk(), "a1b2c3d4") == "first");
    count = reused();
    std::ofstream(s.meta, std::ios::binary | std::ios::trunc) << R"({"description":"second"})";
    CHECK(description_of(walked_again(5), "a1b2c3d4") == "second");
  }
  SUBCASE("a legacy flat agent rewritten to name another session") {
    s.store.write(s.b + "/" + kS4 + ".jsonl", user_line(kS4));
    s.walk();
    s.walk();  // kept again after the create's walk
    count = reused();
    std::ofstream(s.legacy, std::ios::binary | std::ios::trunc) << user_line(kS4, "rewritten");
    const Scope scope = s.walk();
    CHECK(reused() == count);
    for (const Transcript& t : scope.transcripts)
      if (t.shape == csift::TranscriptShape::legacy_flat) CHECK(t.session_id == kS4);
  }
}

// A walk through a directory whose stamp could not be taken under a watch (here: not yet watched, made after
// the watches went in) is not kept, so a later change there cannot go unseen.
TEST_CASE("project walk memo: a walk with an unwatched directory is not kept") {
  ServerWalks installed;
  Store s;
  s.walk();
  csift::process_watched_stamps()->watch_noted();
  s.walk();
  s.store.write(s.a + "/" + kS2 + "/subagents/agent-99887766.jsonl", user_line(kS2, "new lane"));
  const uint64_t count = reused();
  check_current(s.walk(), 6);  // the new directories are stat'ed, unwatched
  check_current(s.walk(), 6);
  CHECK(reused() == count);
  append_to(fs::path(s.store.projects()) / s.a / kS2 / "subagents" / "agent-99887766.jsonl",
            user_line(kS2, "more"));
  check_current(s.walk(), 6);
}

// A dangling symlink named like a session is reported, not looked at: its target can appear where no watch
// sees it, so a walk that reported it is never answered again.
TEST_CASE("project walk memo: a walk that reported a dangling symlink is not kept") {
  ServerWalks installed;
  Store s;
  csift_test::TempDir elsewhere("csift-walk-target");
  const fs::path target = elsewhere.root / "target.jsonl";
  fs::create_symlink(target, s.store.projects() / s.a / (kS4 + ".jsonl"));
  s.walk();
  csift::process_watched_stamps()->watch_noted();
  const uint64_t count = reused();
  const Scope dangling = s.walk();
  CHECK(dangling.transcripts.size() == 5);
  CHECK(dangling.problems.size() == 1);
  s.walk();
  std::ofstream(target, std::ios::binary) << user_line(kS4);
  const Scope found = s.walk();
  check_current(found, 6);
  CHECK(found.problems.empty());
  CHECK(reused() == count);
}

}  // namespace project_walk_memo_unit
