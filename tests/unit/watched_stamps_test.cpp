// A warm server's watched stamps: a transcript's stamp is served from memory only while no change notice
// about it arrived, and every kind of change (append, truncation, a new mtime, a replacing rename, a delete,
// a directory replaced at its path) is seen by the next look. Symlinked and multiply linked files are
// stat'ed every time, since a change through another name raises no notice in this directory.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/store/discovery_memo.h"
#include "core/store/store.h"
#include "core/store/watched_stamps.h"
#include "tests/unit/server_memos.h"
#include "tests/unit/temp_store.h"

namespace watched_stamps_unit {

namespace fs = std::filesystem;
using csift::FileStamp;
using csift::WatchedStamps;
using csift_test::append_to;
using csift_test::TempStore;
using csift_test::user_line;

const std::string kWatchedS1 = "3a7c0000-0000-4000-8000-000000000001";
const std::string kWatchedS2 = "3a7c0000-0000-4000-8000-000000000002";

FileStamp dir_stamp(const fs::path& dir) {
  auto s = csift::stamp_file(dir.string());
  REQUIRE(s);
  return *s;
}

// One look, as discovery takes it: the directory's stamp now, then the file's.
std::optional<FileStamp> look(WatchedStamps& w, const fs::path& dir, const std::string& name,
                              bool followed = false) {
  w.catch_up();
  return w.stamp(dir.string(), dir_stamp(dir), name, (dir / name).string(), followed);
}

// A project directory holding one transcript (`session`'s), as most cases start.
struct OneTranscriptDir {
  OneTranscriptDir(const std::string& project, const std::string& session)
      : dir(store.projects() / project), name(session + ".jsonl"), file(dir / name) {
    store.write(project + "/" + name, user_line(session));
  }
  TempStore store;
  const fs::path dir;
  const std::string name;
  const fs::path file;
};

TEST_CASE("watched stamps: remembered while unchanged, and every change is seen on the next look") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  OneTranscriptDir one("-home-dev-watched", kWatchedS1);
  TempStore& store = one.store;
  const fs::path& dir = one.dir;
  const std::string& name = one.name;
  const fs::path& file = one.file;

  auto first = look(*w, dir, name);
  REQUIRE(first);
  CHECK(*first == *csift::stamp_file(file.string()));
  CHECK(w->usage().stated == 1);
  auto again = look(*w, dir, name);
  CHECK(*again == *first);
  CHECK(w->usage().remembered == 1);
  CHECK(w->usage().stated == 1);
  CHECK(w->usage().entries == 1);
  CHECK(w->usage().watches == 1);

  SUBCASE("an append") {
    append_to(file, user_line(kWatchedS1, "more"));
    auto now = look(*w, dir, name);
    CHECK(now->size == fs::file_size(file));
    CHECK(now->size > first->size);
  }
  SUBCASE("a truncation") {
    fs::resize_file(file, 3);
    CHECK(look(*w, dir, name)->size == 3);
  }
  SUBCASE("a new mtime alone") {
    const timespec times[2] = {{0, UTIME_OMIT}, {1234567890, 5}};
    REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
    auto now = look(*w, dir, name);
    CHECK(now->mtime_ns == int64_t{1234567890} * 1000000000 + 5);
    CHECK(now->size == first->size);
  }
  SUBCASE("a rename over the name") {
    const fs::path other = dir / "replacement.tmp";
    std::ofstream(other, std::ios::binary) << user_line(kWatchedS1, "a rewritten transcript");
    fs::rename(other, file);
    auto now = look(*w, dir, name);
    CHECK(*now == *csift::stamp_file(file.string()));
    CHECK(now->inode != first->inode);
  }
  SUBCASE("a delete") {
    fs::remove(file);
    CHECK_FALSE(look(*w, dir, name));
    CHECK(w->usage().entries == 0);
    CHECK(w->usage().forgotten == 1);
  }
  SUBCASE("an ancestor replaced: no notice reaches the watched directory") {
    fs::rename(store.projects(), store.projects().string() + ".old");
    store.write("-home-dev-watched/" + name, user_line(kWatchedS1, "a restored backup, the same name"));
    auto now = look(*w, dir, name);
    CHECK(*now == *csift::stamp_file(file.string()));
    CHECK(now->inode != first->inode);
  }
  SUBCASE("the directory replaced at its path") {
    fs::rename(dir, dir.string() + ".old");
    store.write("-home-dev-watched/" + name, user_line(kWatchedS1, "another directory, the same name"));
    auto now = look(*w, dir, name);
    CHECK(*now == *csift::stamp_file(file.string()));
    CHECK(now->inode != first->inode);
  }
}

// A directory's own stamp (what its remembered listing is keyed by): remembered under its own watch while its
// whole path up to a directory stat'ed in the same walk is watched, and re-stat'ed after any change to it, a
// rename below a watch, or a re-pointing from above every watch.
struct LaneStore {
  TempStore store;
  const fs::path root = store.projects(), project = root / "-home-dev-dirs", session = project / kWatchedS1,
                 lane = session / "subagents";
  LaneStore() {
    store.write("-home-dev-dirs/" + kWatchedS1 + ".jsonl", user_line(kWatchedS1));
    store.write("-home-dev-dirs/" + kWatchedS1 + "/subagents/agent-a1.jsonl",
                user_line(kWatchedS1, "a lane"));
  }
  // One walk as discovery makes it, from the projects directory down to the lane: the lane's stamp.
  std::optional<FileStamp> walk_to_lane(WatchedStamps& w, uint64_t walk) const {
    std::optional<FileStamp> last;
    for (const fs::path& d : {root, project, session, lane})
      last = w.dir_stamp(d.string(), walk);
    return last;
  }
};

TEST_CASE("watched stamps: a directory's stamp is remembered only while its path surely leads to it") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  LaneStore s;
  uint64_t walk = 1;
  (void)s.walk_to_lane(*w, walk++);  // the watches go in
  (void)s.walk_to_lane(*w, walk++);
  const WatchedStamps::Usage before = w->usage();
  const auto first = s.walk_to_lane(*w, walk++);
  REQUIRE(first);
  CHECK(*first == *csift::stamp_file(s.lane.string()));
  // The projects directory, the topmost watched, is stat'ed once a walk; the three below it are remembered.
  CHECK(w->usage().dirs_stated - before.dirs_stated == 1);
  CHECK(w->usage().dirs_remembered - before.dirs_remembered == 3);

  SUBCASE("a walk of 0 stats") {
    const uint64_t stated = w->usage().dirs_stated;
    CHECK(*w->dir_stamp(s.lane.string(), 0) == *first);
    CHECK(w->usage().dirs_stated == stated + 1);
  }
  SUBCASE("an entry added to the directory") {
    s.store.write("-home-dev-dirs/" + kWatchedS1 + "/subagents/agent-a2.jsonl", user_line(kWatchedS1, "two"));
    CHECK(*s.walk_to_lane(*w, walk++) == *csift::stamp_file(s.lane.string()));
  }
  SUBCASE("the directory's own mtime set") {
    const timespec times[2] = {{0, UTIME_OMIT}, {1234567890, 5}};
    REQUIRE(::utimensat(AT_FDCWD, s.lane.c_str(), times, 0) == 0);
    CHECK(s.walk_to_lane(*w, walk++)->mtime_ns == int64_t{1234567890} * 1000000000 + 5);
  }
  SUBCASE("its parent replaced by a rename below a watch") {
    fs::rename(s.session, s.session.string() + ".old");
    s.store.write("-home-dev-dirs/" + kWatchedS1 + "/subagents/agent-a9.jsonl", user_line(kWatchedS1, "new"));
    const auto now = s.walk_to_lane(*w, walk++);
    CHECK(*now == *csift::stamp_file(s.lane.string()));
    CHECK(now->inode != first->inode);
  }
  SUBCASE("the store re-pointed from above every watch") {
    fs::rename(s.store.home(), s.store.home().string() + ".old");
    s.store.write("-home-dev-dirs/" + kWatchedS1 + "/subagents/agent-a9.jsonl", user_line(kWatchedS1, "new"));
    const auto now = s.walk_to_lane(*w, walk++);
    CHECK(*now == *csift::stamp_file(s.lane.string()));
    CHECK(now->inode != first->inode);
  }
  SUBCASE("a walk that skips the topmost directory stats the first it asks for") {
    const uint64_t stated = w->usage().dirs_stated;
    CHECK(*w->dir_stamp(s.lane.string(), walk++) == *first);
    CHECK(w->usage().dirs_stated == stated + 1);
  }
}

// Deferred, as a server runs them: a walk notes the directories, watch_noted watches and stamps them.
TEST_CASE("watched stamps: deferred directory watches are added by watch_noted") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  w->defer_watches();
  LaneStore s;
  (void)s.walk_to_lane(*w, 1);
  CHECK(w->usage().watches == 0);
  CHECK(w->has_noted());
  CHECK(w->usage().noted == 4);
  (void)s.walk_to_lane(*w, 2);  // one walk notes between two runs of the watches
  CHECK(w->usage().noted == 4);
  w->watch_noted();
  CHECK(w->usage().watches == 4);
  const uint64_t remembered = w->usage().dirs_remembered;
  CHECK(*s.walk_to_lane(*w, 3) == *csift::stamp_file(s.lane.string()));
  CHECK(w->usage().dirs_remembered == remembered + 3);
  // After the watches went in, a new walk notes again: a new lane directory is noted, then watched.
  s.store.write("-home-dev-dirs/" + kWatchedS2 + "/subagents/agent-b1.jsonl", user_line(kWatchedS2, "b"));
  CHECK(w->dir_stamp((s.project / kWatchedS2 / "subagents").string(), 4));
  CHECK(w->usage().noted == 5);
  w->watch_noted();
  CHECK(w->usage().watches == 5);
}

// A server defers its watches to after a call's reply: the call's looks stat and are noted, adding no watch;
// watch_noted() watches and takes the stamps; the next look is answered from memory, and a change made after
// watch_noted() is seen.
TEST_CASE("watched stamps: deferred watches are added by watch_noted, never by a look") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  w->defer_watches();
  OneTranscriptDir one("-home-dev-deferred", kWatchedS1);
  TempStore& store = one.store;
  const fs::path& dir = one.dir;
  store.write("-home-dev-deferred/" + kWatchedS2 + ".jsonl", user_line(kWatchedS2));
  const std::string& name = one.name;
  const fs::path& file = one.file;

  auto first = look(*w, dir, name);
  REQUIRE(first);
  CHECK(*first == *csift::stamp_file(file.string()));
  CHECK(look(*w, dir, kWatchedS2 + ".jsonl"));
  CHECK(w->usage().watches == 0);
  CHECK(w->usage().noted == 2);
  CHECK(w->has_noted());
  CHECK(look(*w, dir, name));  // still unwatched: stat'ed and noted again
  CHECK(w->usage().remembered == 0);

  w->watch_noted();
  CHECK_FALSE(w->has_noted());
  CHECK(w->usage().watches == 1);
  CHECK(w->usage().entries == 2);
  const uint64_t stated = w->usage().stated;
  CHECK(*look(*w, dir, name) == *first);
  CHECK(w->usage().remembered == 1);
  CHECK(w->usage().stated == stated);

  append_to(file, user_line(kWatchedS1, "more"));
  auto now = look(*w, dir, name);
  CHECK(now->size == fs::file_size(file));
  CHECK(now->size > first->size);
  CHECK(w->usage().stated == stated + 1);
}

// A server runs watch_noted() on the stamps' own thread: the noted directory gets its watch without the
// caller waiting, and the thread ends with the stamps.
TEST_CASE("watched stamps: watch_noted_later watches on a thread of its own") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  w->defer_watches();
  OneTranscriptDir one("-home-dev-later", kWatchedS1);
  const fs::path& dir = one.dir;
  const std::string& name = one.name;
  REQUIRE(look(*w, dir, name));
  CHECK(w->usage().watches == 0);
  w->watch_noted_later();
  for (int i = 0; i < 500 && w->usage().entries == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(w->usage().watches == 1);
  CHECK(w->usage().entries == 1);
  REQUIRE(look(*w, dir, name));
  CHECK(w->usage().remembered == 1);
  w.reset();  // joins the thread
}

// The step a server sets runs on the stamps' thread after a pass has watched what was noted (a server's walk
// made again, every answer from a watch), not before it, and not at all once cleared.
TEST_CASE("watched stamps: the after-watching step runs once the noted looks are watched") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  w->defer_watches();
  OneTranscriptDir one("-home-dev-after", kWatchedS1);
  std::atomic<size_t> watches_seen{0};
  std::atomic<int> runs{0};
  w->set_after_watching([&] {
    watches_seen = w->usage().watches;
    ++runs;
  });
  REQUIRE(look(*w, one.dir, one.name));
  w->watch_noted_later();
  for (int i = 0; i < 500 && w->usage().after_watching == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(runs == 1);
  CHECK(w->usage().after_watching == 1);
  CHECK(watches_seen == 1);  // the watch was in when the step ran
  REQUIRE(look(*w, one.dir, one.name));
  CHECK(w->usage().remembered == 1);

  w->set_after_watching({});
  OneTranscriptDir two("-home-dev-after-two", kWatchedS1);
  REQUIRE(look(*w, two.dir, two.name));
  w->watch_noted_later();
  for (int i = 0; i < 500 && w->usage().watches < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(w->usage().watches == 2);
  // A step still set would run once the stamps were quiet for kQuietNs after the pass.
  std::this_thread::sleep_for(std::chrono::nanoseconds(3 * WatchedStamps::kQuietNs));
  CHECK(runs == 1);
  CHECK(w->usage().after_watching == 1);
}

// unwatch_all gives every watch back: nothing is answered from memory after it, a change made then is seen,
// the layout generation moves (a kept walk is void), and the looks after it are noted to be watched again.
TEST_CASE("watched stamps: unwatch_all removes the watches and forgets what they vouched for") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  OneTranscriptDir one("-home-dev-unwatch", kWatchedS1);
  REQUIRE(look(*w, one.dir, one.name));
  REQUIRE(look(*w, one.dir, one.name));
  REQUIRE(w->usage().watches == 1);
  REQUIRE(w->usage().remembered == 1);
  const uint64_t layout = w->layout_generation();
  CHECK(w->unwatch_all() == 1);
  CHECK(w->usage().watches == 0);
  CHECK(w->usage().entries == 0);
  CHECK(w->layout_generation() != layout);
  append_to(one.file, user_line(kWatchedS1, "after"));
  w->defer_watches();
  const uint64_t stated = w->usage().stated;
  auto now = look(*w, one.dir, one.name);
  REQUIRE(now);
  CHECK(now->size == fs::file_size(one.file));
  CHECK(w->usage().stated == stated + 1);
  CHECK(w->usage().remembered == 1);
  CHECK(w->has_noted());
  w->catch_up();  // the removed watch's IN_IGNORED notice: applied, nothing left to forget
  CHECK(w->watch_noted());
  CHECK(w->usage().watches == 1);
}

// The warm-up watches only a store that fits in the share: noted_fit_share counts the distinct directories
// the noted looks would watch (a file's directory, or a directory whose own stamp was asked) against the
// share less the watches held.
TEST_CASE("watched stamps: noted_fit_share counts the noted directories against the room left") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  w->defer_watches();
  OneTranscriptDir one("-home-dev-fit-one", kWatchedS1);
  OneTranscriptDir two("-home-dev-fit-two", kWatchedS1);
  REQUIRE(look(*w, one.dir, one.name));
  REQUIRE(look(*w, one.dir, one.name));  // the same directory twice: one watch
  REQUIRE(look(*w, two.dir, two.name));
  w->set_watch_budget(1);
  CHECK_FALSE(w->noted_fit_share());
  w->set_watch_budget(2);
  CHECK(w->noted_fit_share());
  CHECK(w->watch_noted());
  CHECK(w->usage().watches == 2);
  OneTranscriptDir three("-home-dev-fit-three", kWatchedS1);
  REQUIRE(look(*w, three.dir, three.name));
  CHECK_FALSE(w->noted_fit_share());  // the two held leave no room
  w->set_watch_budget(3);
  CHECK(w->noted_fit_share());
}

// Within one discovery walk the queue is read once; a new walk reads it again and sees what changed.
TEST_CASE("watched stamps: a walk catches up once, the next walk sees a change made between them") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  OneTranscriptDir one("-home-dev-walks", kWatchedS1);
  const fs::path& dir = one.dir;
  const std::string& name = one.name;
  const fs::path& file = one.file;
  w->catch_up_for_walk(1);
  auto first = w->stamp(dir.string(), dir_stamp(dir), name, file.string(), false);
  REQUIRE(first);
  append_to(file, user_line(kWatchedS1, "more"));
  w->catch_up_for_walk(1);  // the same walk: the notice is not read yet
  CHECK(*w->stamp(dir.string(), dir_stamp(dir), name, file.string(), false) == *first);
  w->catch_up_for_walk(2);
  CHECK(w->stamp(dir.string(), dir_stamp(dir), name, file.string(), false)->size == fs::file_size(file));
}

TEST_CASE("watched stamps: a symlinked or multiply linked file is stat'ed on every look") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  TempStore store;
  const fs::path dir = store.projects() / "-home-dev-watched-links";
  const fs::path elsewhere = store.root / "elsewhere";
  fs::create_directories(elsewhere);
  fs::create_directories(dir);

  SUBCASE("a symlink: its target changes in another directory") {
    const fs::path target = elsewhere / "target.jsonl";
    std::ofstream(target, std::ios::binary) << user_line(kWatchedS1);
    fs::create_symlink(target, dir / (kWatchedS1 + ".jsonl"));
    auto first = look(*w, dir, kWatchedS1 + ".jsonl", /*followed=*/true);
    append_to(target, user_line(kWatchedS1, "appended through the target"));
    auto now = look(*w, dir, kWatchedS1 + ".jsonl", true);
    CHECK(now->size == fs::file_size(target));
    CHECK(now->size > first->size);
    CHECK(w->usage().remembered == 0);
  }
  SUBCASE("a second hard link: a write through it is reported to the other directory only") {
    const fs::path file = dir / (kWatchedS2 + ".jsonl");
    std::ofstream(file, std::ios::binary) << user_line(kWatchedS2);
    fs::create_hard_link(file, elsewhere / "link.jsonl");
    auto first = look(*w, dir, kWatchedS2 + ".jsonl");
    append_to(elsewhere / "link.jsonl", user_line(kWatchedS2, "appended through the other link"));
    auto now = look(*w, dir, kWatchedS2 + ".jsonl");
    CHECK(now->size == fs::file_size(file));
    CHECK(now->size > first->size);
    CHECK(w->usage().remembered == 0);
  }
}

using csift_test::ServerMemosInstalled;

TEST_CASE("watched stamps: discovery sees an append made between two listings without a stat") {
  ServerMemosInstalled installed;
  REQUIRE(csift::process_watched_stamps());
  TempStore store;
  const fs::path project = store.projects() / "-home-dev-watched-discovery";
  const std::string session =
      store.write("-home-dev-watched-discovery/" + kWatchedS1 + ".jsonl", user_line(kWatchedS1));
  store.write("-home-dev-watched-discovery/" + kWatchedS1 + "/subagents/agent-a1b2c3.jsonl",
              user_line(kWatchedS1, "agent"));
  auto walk = [&] {
    auto listing = csift::list_project(project.string(), true);
    REQUIRE(listing);
    REQUIRE(listing->sessions.size() == 1);
    std::vector<csift::Transcript> agents = csift::list_subagents(listing->sessions[0]);
    REQUIRE(agents.size() == 1);
    return std::make_pair(listing->sessions[0], agents[0]);
  };
  const auto [s0, a0] = walk();
  CHECK(csift::process_watched_stamps()->usage().watches == 0);  // a server's looks add none
  csift::process_watched_stamps()->watch_noted();                // what a server runs after its reply
  const uint64_t stated = csift::process_watched_stamps()->usage().stated;
  const auto [s1, a1] = walk();
  CHECK(csift::process_watched_stamps()->usage().stated == stated);  // both from memory
  CHECK(s1.size == s0.size);

  append_to(session, user_line(kWatchedS1, "a second prompt"));
  append_to(a0.path, user_line(kWatchedS1, "the agent goes on"));
  const auto [s2, a2] = walk();
  CHECK(s2.size == fs::file_size(session));
  CHECK(s2.size > s0.size);
  CHECK(a2.size == fs::file_size(a0.path));
  CHECK(a2.size > a0.size);
}

// Two threads of one call each catch up before they look (discovery lists project dirs on oneTBB workers). A
// notice one thread has read from the queue must be applied before another thread's look can be answered:
// otherwise the second thread's catch-up finds the queue empty and its look answers the stamp from before a
// change that finished before the call began. The first thread is held just after its read; the second
// thread's look must wait for it, whatever the timing, and then see the append.
std::atomic<int> held_after_read{0};
std::atomic<bool> release_read{false};
void hold_after_read() {
  held_after_read.store(1);
  while (!release_read.load())
    std::this_thread::yield();
}

TEST_CASE("watched stamps: a look never answers from memory while another thread holds read notices") {
  auto w = WatchedStamps::open();
  REQUIRE(w);
  OneTranscriptDir one("-home-dev-watched-race", kWatchedS2);
  const fs::path& dir = one.dir;
  const std::string& name = one.name;
  const fs::path& file = one.file;
  const auto first = look(*w, dir, name);
  REQUIRE(first);
  REQUIRE(look(*w, dir, name) == first);  // remembered
  append_to(file, user_line(kWatchedS2, "appended before the call"));
  const uint64_t grown = fs::file_size(file);
  REQUIRE(grown > first->size);

  held_after_read.store(0);
  release_read.store(false);
  WatchedStamps::set_after_read_hook(&hold_after_read);
  std::thread reader([&] { w->catch_up(); });
  while (held_after_read.load() == 0)
    std::this_thread::yield();
  std::optional<FileStamp> seen;
  std::thread looker([&] { seen = look(*w, dir, name); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // room for a look that does not wait
  release_read.store(true);
  reader.join();
  looker.join();
  WatchedStamps::set_after_read_hook(nullptr);
  REQUIRE(seen);
  CHECK(seen->size == grown);
}

}  // namespace watched_stamps_unit
