// find_session (core/store/store.cpp): the session an @<uuid> names, found with one look per project dir,
// must be the one listing every session finds first (list_project_dirs' order, list_sessions' rules).
#include <doctest/doctest.h>

#include <filesystem>
#include <optional>

#include "core/store/store.h"
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

void check_same(const TempStore& s, const std::string& id) {
  const auto listed = listed_first(s, id);
  const auto found = find_session(s.projects().string(), id);
  REQUIRE(listed.has_value() == found.has_value());
  if (!found) return;
  CHECK(found->path == listed->path);
  CHECK(found->project_dir == listed->project_dir);
  CHECK(found->id == listed->id);
  CHECK(found->session_id == listed->session_id);
  CHECK(found->size == listed->size);
  CHECK(found->mtime_ns == listed->mtime_ns);
  CHECK(found->session_dir_absent == listed->session_dir_absent);
  CHECK(found->session_dir.listed == listed->session_dir.listed);
  CHECK(found->session_dir.subagents == listed->session_dir.subagents);
  CHECK(found->session_dir.sidecar == listed->session_dir.sidecar);
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

}  // namespace find_session_unit
