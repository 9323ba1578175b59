// The warm-up's steps (store_warm_up.h): it walks only when asked to go on, counts what the walk found, and
// stops taking screens the moment it is told to (a call has begun). Whether the screens it takes answer the
// first call is tests/mcp/test_disk_cache.py's (it needs a disk cache an earlier server filled).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/cache/scan_memo.h"
#include "core/store/discovery_memo.h"
#include "core/store/project_walk_memo.h"
#include "core/store/store_warm_up.h"
#include "core/store/targets.h"
#include "tests/unit/server_memos.h"
#include "tests/unit/temp_store.h"

namespace store_warm_up_unit {

using csift::StoreWarmUp;
using csift_test::TempStore;
using csift_test::user_line;

const std::string kWarmS1 = "7c3e0000-0000-4000-8000-000000000001";
const std::string kWarmS2 = "7c3e0000-0000-4000-8000-000000000002";

struct ServerMemos {
  ServerMemos() {
    csift::install_discovery_memo(size_t{1} << 20);
    csift::install_scan_memo(size_t{1} << 20);
  }
  ~ServerMemos() {
    csift::install_scan_memo(0);
    csift::install_discovery_memo(0);
  }
};

TEST_CASE("store warm-up: walks when asked to go on, and stops between screens when told") {
  ServerMemos memos;
  TempStore store;
  store.write("-home-dev-warm/" + kWarmS1 + ".jsonl", user_line(kWarmS1));
  store.write("-home-dev-warm/" + kWarmS2 + ".jsonl", user_line(kWarmS2));
  store.write("-home-dev-warm/" + kWarmS1 + "/subagents/agent-a1b2c3d4.jsonl", user_line(kWarmS1, "agent"));

  const StoreWarmUp::Report none = StoreWarmUp::run(store.env(), [] { return false; });
  CHECK_FALSE(none.walked);
  CHECK(none.transcripts == 0);

  const StoreWarmUp::Report whole = StoreWarmUp::run(store.env(), [] { return true; });
  CHECK(whole.walked);
  CHECK(whole.transcripts == 3);
  CHECK(whole.screens == 0);  // no disk cache: nothing to take
  CHECK(whole.probes == 0);
  CHECK_FALSE(whole.stopped);

  int asked = 0;  // yes for the walk and the first screen, then no: a call began
  std::vector<std::string> stepped;
  const auto step = [&stepped](const csift::Transcript& t) {
    stepped.push_back(t.id);
    return t.is_subagent;  // "took something" for the agent only
  };
  const StoreWarmUp::Report cut = StoreWarmUp::run(
      store.env(), [&] { return ++asked <= 2; }, step);
  CHECK(cut.walked);
  CHECK(cut.transcripts == 3);
  CHECK(cut.stopped);
  CHECK(asked == 3);
  CHECK(stepped.size() == 1);  // the caller's step ran for the one transcript taken before the stop

  stepped.clear();
  const StoreWarmUp::Report all = StoreWarmUp::run(
      store.env(), [] { return true; }, step);
  CHECK(stepped.size() == 3);  // once per transcript, in the scope's order: a session, its agent, a session
  CHECK(stepped == std::vector<std::string>{kWarmS1, "a1b2c3d4", kWarmS2});
  CHECK(all.also == 1);
}

// A store that cannot be walked (no Claude Code home) leaves the warm-up with nothing done, no exception.
TEST_CASE("store warm-up: a missing store is left to the first call") {
  ServerMemos memos;
  csift::Environment env;
  env.vars["HOME"] = "/nonexistent-csift-home";
  env.claude_home = "/nonexistent-csift-home/.claude";
  const StoreWarmUp::Report r = StoreWarmUp::run(env, [] { return true; });
  CHECK_FALSE(r.walked);
}

// A server's warm-up sets the step its watched stamps run once a walk's looks are watched: the whole-store
// walk made again, every answer from a watch, so it is kept and the next call answers it from memory (the
// first call after an idle start, or the call after one whose looks were watched after its reply).
TEST_CASE("store warm-up: once a walk's looks are watched, the walk is made again and kept") {
  csift_test::ServerMemosInstalled memos;
  TempStore store;
  store.write("-home-dev-kept/" + kWarmS1 + ".jsonl", user_line(kWarmS1));
  store.write("-home-dev-kept/" + kWarmS1 + "/subagents/agent-a1b2c3d4.jsonl", user_line(kWarmS1, "agent"));
  csift::WatchedStamps* watched = csift::process_watched_stamps();
  REQUIRE(watched);
  csift::ProjectWalkMemo* walks = csift::process_project_walk_memo();
  REQUIRE(walks);
  const StoreWarmUp warm_up(store.env(), true);  // its own thread may walk too: either way the step runs
  const auto resolve = [&] { return csift::TargetResolver(store.env(), std::nullopt).resolve({}); };
  CHECK(resolve().transcripts.size() == 2);  // its looks are noted, not watched
  watched->watch_noted_later();
  for (int i = 0; i < 500 && watched->usage().after_watching == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(watched->usage().after_watching >= 1);
  const uint64_t reused = walks->reused();
  CHECK(resolve().transcripts.size() == 2);
  CHECK(walks->reused() == reused + 1);  // answered from the walk the step kept
}

}  // namespace store_warm_up_unit
