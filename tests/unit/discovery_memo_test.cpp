// The warm server's discovery memo: a settled directory's listing and a settled meta.json are remembered, a
// directory changed since (a new session, a new subagent) is listed again, a rewritten meta.json is read
// again, and a directory changed within the racy window is never remembered.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <string>

#include "core/store/discovery_memo.h"
#include "core/store/store.h"
#include "tests/unit/temp_store.h"

namespace discovery_memo_unit {

using csift::Transcript;
using csift_test::TempStore;
using csift_test::user_line;
namespace fs = std::filesystem;

const std::string kDiscoveryMemoS1 = "d15c0000-0000-4000-8000-000000000001";
const std::string kDiscoveryMemoS2 = "d15c0000-0000-4000-8000-000000000002";

// Installs a process discovery memo for one test case and removes it after, whatever the outcome.
struct DiscoveryMemoInstalled {
  DiscoveryMemoInstalled() { csift::install_discovery_memo(size_t{1} << 20); }
  ~DiscoveryMemoInstalled() { csift::install_discovery_memo(0); }
  DiscoveryMemoInstalled(const DiscoveryMemoInstalled&) = delete;
  DiscoveryMemoInstalled& operator=(const DiscoveryMemoInstalled&) = delete;
};

// Sets a path's mtime `seconds_ago` in the past (settled: out of the racy window).
void discovery_memo_age(const fs::path& p, int seconds_ago) {
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
}

std::vector<Transcript> discovery_memo_walk(const fs::path& project) {
  auto listing = csift::list_project(project.string(), true);
  REQUIRE(listing);
  std::vector<Transcript> out;
  for (const Transcript& s : listing->sessions) {
    out.push_back(s);
    if (!s.session_dir_absent) {
      for (Transcript& a : csift::list_subagents(s))
        out.push_back(std::move(a));
    }
  }
  return out;
}

size_t discovery_memo_entries() {
  return csift::process_discovery_memo()->usage().entries;
}

TEST_CASE("discovery memo: settled listings and meta are remembered; what changes is seen on the next walk") {
  DiscoveryMemoInstalled installed;
  TempStore store;
  const fs::path project = store.projects() / "-home-dev-discovery-memo";
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS1 + ".jsonl", user_line(kDiscoveryMemoS1));
  const fs::path subagents = project / kDiscoveryMemoS1 / "subagents";
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS1 + "/subagents/agent-a1.jsonl",
              user_line(kDiscoveryMemoS1));
  const fs::path meta = subagents / "agent-a1.meta.json";
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS1 + "/subagents/agent-a1.meta.json",
              R"({"agentType":"Explore","description":"first"})");
  for (const fs::path& p : {project, subagents, meta})
    discovery_memo_age(p, 60);

  std::vector<Transcript> first = discovery_memo_walk(project);
  REQUIRE(first.size() == 2);
  CHECK(first[1].agent_type() == "Explore");
  CHECK(first[1].description() == "first");
  // The project dir, the subagents dir and the meta.json (settled) are remembered.
  const size_t remembered = discovery_memo_entries();
  CHECK(remembered >= 3);
  CHECK(discovery_memo_walk(project).size() == 2);
  CHECK(discovery_memo_entries() == remembered);

  // A new session, a new subagent and a rewritten meta.json: each is seen on the very next walk.
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS2 + ".jsonl", user_line(kDiscoveryMemoS2));
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS1 + "/subagents/agent-a2.jsonl",
              user_line(kDiscoveryMemoS1));
  store.write("-home-dev-discovery-memo/" + kDiscoveryMemoS1 + "/subagents/agent-a1.meta.json",
              R"({"agentType":"Plan","description":"second one"})");
  discovery_memo_age(meta, 30);  // settled again, under another stamp
  std::vector<Transcript> second = discovery_memo_walk(project);
  REQUIRE(second.size() == 4);
  CHECK(second[0].id == kDiscoveryMemoS1);
  CHECK(second[1].id == "a1");
  CHECK(second[1].agent_type() == "Plan");
  CHECK(second[1].description() == "second one");
  CHECK(second[2].id == "a2");
  CHECK(second[3].id == kDiscoveryMemoS2);

  // The two directories just changed are inside the racy window: listed again, not remembered, so a third
  // session added within the same timestamp tick cannot be missed.
  const size_t before_racy = discovery_memo_entries();
  store.write("-home-dev-discovery-memo/d15c0000-0000-4000-8000-000000000003.jsonl", user_line("x"));
  CHECK(discovery_memo_walk(project).size() == 5);
  CHECK(discovery_memo_entries() == before_racy);
}

TEST_CASE("discovery memo: a walk larger than the bound keeps what fits instead of evicting what it needs") {
  TempStore store;
  std::vector<fs::path> projects;
  for (int i = 0; i < 20; ++i) {
    const std::string name = "-home-dev-walk-" + std::to_string(10 + i);
    store.write(name + "/" + kDiscoveryMemoS1 + ".jsonl", user_line(kDiscoveryMemoS1));
    projects.push_back(store.projects() / name);
    discovery_memo_age(projects.back(), 60);
  }
  // Room for a few of the 20 listings (~0.4 KB each), not all.
  csift::install_discovery_memo(size_t{3} << 10);
  const auto walk = [&] {
    const csift::DiscoveryWalk named(csift::new_lru_call());
    for (const fs::path& p : projects)
      REQUIRE(csift::list_project(p.string(), true));
  };
  walk();
  const csift::LruUsage first = csift::process_discovery_memo()->usage();
  walk();
  const csift::LruUsage second = csift::process_discovery_memo()->usage();
  csift::install_discovery_memo(0);
  CHECK(first.entries > 0);
  CHECK(first.declined > 0);
  // A plain LRU walked in order evicts, on every walk, exactly the listings the next walk needs; a named walk
  // never evicts its own, so the part that fits stays and is found again.
  CHECK(first.evictions == 0);
  CHECK(second.evictions == 0);
  CHECK(second.entries == first.entries);
}

TEST_CASE("discovery memo: settled_stamp keeps a stamp only when it is older than the racy window") {
  const int64_t now = csift::realtime_ns();
  const int64_t second = 1000000000;
  CHECK(csift::settled_stamp(csift::FileStamp{1, 2, 3, now - 3 * second}, now));
  CHECK_FALSE(csift::settled_stamp(csift::FileStamp{1, 2, 3, now - second}, now));
  CHECK_FALSE(csift::settled_stamp(csift::FileStamp{1, 2, 3, now + second}, now));  // from the future
}

}  // namespace discovery_memo_unit
