// The warm server's result memo: an entry answers only while its file's stamp is unchanged and only for its
// own type, a result read while the file changed (or one the caller declines) is never kept, the budget
// evicts least recently used entries, and parallel use stays within the budget.
#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/cache/result_memo.h"
#include "temp_store.h"
#include "tools/stats/remembered_tally.h"

namespace result_memo_unit {

using csift::FileStamp;
using csift::ResultKind;
using csift::ResultMemo;
using csift::ResultMemoUse;

constexpr ResultKind<std::string> kResultMemoTestKind{"test-text"};

std::shared_ptr<const void> result_memo_text(const std::string& s) {
  return std::make_shared<const std::string>(s);
}

TEST_CASE("result memo: a changed stamp or another type misses; the budget evicts the least recently used") {
  const void* text_type = csift::result_type_tag<std::string>();
  const FileStamp a_stamp{1, 2, 10, 3};
  ResultMemo memo(1000);  // each entry below costs 400 + its key's bookkeeping (~170): room for one, not two
  memo.remember("a", text_type, a_stamp, result_memo_text("A"), 400);
  REQUIRE(memo.find("a", text_type, a_stamp));
  CHECK(*std::static_pointer_cast<const std::string>(memo.find("a", text_type, a_stamp)) == "A");
  CHECK_FALSE(memo.find("a", csift::result_type_tag<int>(), a_stamp));  // another type: dropped
  CHECK(memo.usage().entries == 0);
  memo.remember("a", text_type, a_stamp, result_memo_text("A"), 400);
  CHECK_FALSE(memo.find("a", text_type, FileStamp{1, 2, 11, 4}));  // appended since: stale, but kept ...
  CHECK(memo.usage().entries == 1);
  const auto grown = memo.find_grown("a", text_type, FileStamp{1, 2, 11, 4});  // ... for an extension
  REQUIRE(grown);
  CHECK(grown->stamp == a_stamp);
  CHECK_FALSE(memo.find_grown("a", text_type, FileStamp{1, 2, 9, 4}));  // shrunk: not the same file grown
  CHECK_FALSE(memo.find("a", text_type, FileStamp{1, 7, 11, 4}));       // another inode: dropped
  CHECK(memo.usage().entries == 0);
  memo.remember("a", text_type, a_stamp, result_memo_text("A"), 400);
  memo.remember("b", text_type, a_stamp, result_memo_text("B"), 400);
  CHECK(memo.usage().entries == 1);
  CHECK(memo.usage().evictions == 1);
  CHECK(memo.usage().bytes <= memo.usage().budget);
  CHECK_FALSE(memo.find("a", text_type, a_stamp));
  CHECK(memo.find("b", text_type, a_stamp));
  memo.remember("c", text_type, a_stamp, result_memo_text("C"), 5000);  // larger than the budget: not kept
  CHECK_FALSE(memo.find("c", text_type, a_stamp));
  CHECK(memo.usage().entries == 1);
}

// A result the disk cache held for the very stamp the memo keys by is kept without a stat after it; one read
// from the file (a plain T), or vouched for another stamp, still needs the file to hold that stamp after.
// The path below names no file, so every stat after computing fails: only a vouched result is kept.
TEST_CASE("result memo: a result vouched for its stamp is kept without the stat after; others are not") {
  ResultMemo memo(1 << 20);
  ResultMemoUse use;
  const std::string path = "/nonexistent/csift-vouched.jsonl";
  const FileStamp known{1, 2, 10, 3};
  int computed = 0;
  auto recall = [&](auto compute) {
    return *csift::recall_or_compute(
        &memo, use, kResultMemoTestKind, path, "", std::optional<FileStamp>(known), compute,
        [](const std::string&) { return true; }, [](const std::string& v) { return v.size(); });
  };
  const auto plain = [&] {
    ++computed;
    return std::string("read");
  };
  CHECK(recall(plain) == "read");
  CHECK(recall(plain) == "read");
  CHECK(computed == 2);  // the stat after failed: never kept
  const auto elsewhere = [&] {
    ++computed;
    return csift::Vouched<std::string>{"other", FileStamp{1, 2, 11, 4}};
  };
  CHECK(recall(elsewhere) == "other");
  CHECK(recall(elsewhere) == "other");
  CHECK(computed == 4);  // vouched for another stamp: the stat decides, and fails
  const auto vouched = [&] {
    ++computed;
    return csift::Vouched<std::string>{"stored", known};
  };
  CHECK(recall(vouched) == "stored");
  CHECK(recall(vouched) == "stored");
  CHECK(computed == 5);  // kept at once, answered from the memo the second time
  CHECK(use.hits == 1);
}

TEST_CASE("result memo: recall_or_compute recomputes after an append and never keeps a file read mid-write") {
  csift_test::TempStore store;
  const std::string path = store.write("p/s.jsonl", "{}\n");
  ResultMemo memo(size_t{1} << 20);
  ResultMemoUse use;
  int computed = 0;
  const auto read_size = [&] {
    ++computed;
    return std::to_string(csift::stamp_file(path)->size);
  };
  const auto keep_all = [](const std::string&) { return true; };
  const auto cost = [](const std::string& s) { return s.size(); };
  const auto recall = [&](auto compute, auto keep) {
    return *csift::recall_or_compute(&memo, use, kResultMemoTestKind, path, "v1", compute, keep, cost);
  };
  CHECK(recall(read_size, keep_all) == "3");
  CHECK(recall(read_size, keep_all) == "3");
  CHECK(computed == 1);
  CHECK(use.hits == 1);
  CHECK(use.misses == 1);
  // Another variant of the same file is another entry.
  CHECK(*csift::recall_or_compute(&memo, use, kResultMemoTestKind, path, "v2", read_size, keep_all, cost) ==
        "3");
  CHECK(computed == 2);
  store.write("p/s.jsonl", "{}\n{}\n");
  CHECK(recall(read_size, keep_all) == "6");
  CHECK(computed == 3);
  // Written while computed: answered, never remembered.
  const auto read_then_append = [&] {
    const std::string got = read_size();
    std::ofstream(path, std::ios::app) << "{}\n";
    return got;
  };
  store.write("p/s.jsonl", "{}\n{}\n{}\n");
  CHECK(recall(read_then_append, keep_all) == "9");
  CHECK(recall(read_size, keep_all) == "12");
  CHECK(recall(read_size, keep_all) == "12");  // read cleanly: remembered
  CHECK(computed == 5);
  // Declined by keep(): computed every time.
  store.write("p/s.jsonl", "{}\n");
  const auto keep_none = [](const std::string&) { return false; };
  recall(read_size, keep_none);
  recall(read_size, keep_none);
  CHECK(computed == 7);
  // Without a memo the computation simply runs, and nothing is counted.
  ResultMemoUse no_use;
  CHECK(*csift::recall_or_compute(static_cast<ResultMemo*>(nullptr), no_use, kResultMemoTestKind, path, "",
                                  read_size, keep_all, cost) == "3");
  CHECK(no_use.hits + no_use.misses == 0);
}

TEST_CASE("result memo: a stamp the caller already took stands for the stat before computing") {
  csift_test::TempStore store;
  const std::string path = store.write("p/k.jsonl", "{}\n");
  const FileStamp discovered = *csift::stamp_file(path);
  ResultMemo memo(size_t{1} << 20);
  ResultMemoUse use;
  int computed = 0;
  const auto compute = [&] {
    ++computed;
    return std::to_string(csift::stamp_file(path)->size);
  };
  const auto keep_all = [](const std::string&) { return true; };
  const auto cost = [](const std::string& s) { return s.size(); };
  const auto recall = [&](const std::optional<FileStamp>& known) {
    return *csift::recall_or_compute(&memo, use, kResultMemoTestKind, path, "", known, compute, keep_all,
                                     cost);
  };
  CHECK(recall(discovered) == "3");
  CHECK(recall(discovered) == "3");
  CHECK(recall(std::nullopt) == "3");  // the file's own stat finds the same entry
  CHECK(computed == 1);
  CHECK(use.hits == 2);
  // A stamp discovery took before an append: the result read now (of the longer file) is answered but not
  // kept under the older stamp, and the newer stamp misses the entry kept under the older one.
  store.write("p/k.jsonl", "{}\n{}\n");
  CHECK(recall(FileStamp{discovered.device, discovered.inode, 99, discovered.mtime_ns}) == "6");
  CHECK(recall(*csift::stamp_file(path)) == "6");
  CHECK(recall(*csift::stamp_file(path)) == "6");
  CHECK(computed == 3);
}

TEST_CASE("result memo: a stats tally's signature names every window input and the transcript's lane") {
  csift::Transcript session;
  session.path = "/s.jsonl";
  csift::Transcript agent = session;
  agent.is_subagent = true;
  csift::StatsWindow open_window;
  csift::StatsWindow since_window;
  since_window.time.since = 1000;
  csift::StatsWindow until_window;
  until_window.time.until = 1000;
  csift::StatsWindow turn_window;
  turn_window.turn = csift::parse_range("2..3", "turn", false);
  csift::StatsWindow other_turn_window;
  other_turn_window.turn = csift::parse_range("2..", "turn", false);
  const std::vector<std::string> signatures = {
      csift::tally_signature(session, open_window),  csift::tally_signature(agent, open_window),
      csift::tally_signature(session, since_window), csift::tally_signature(session, until_window),
      csift::tally_signature(session, turn_window),  csift::tally_signature(session, other_turn_window)};
  for (size_t i = 0; i < signatures.size(); ++i)
    for (size_t j = i + 1; j < signatures.size(); ++j)
      CHECK(signatures[i] != signatures[j]);
}

TEST_CASE("result memo: parallel finds and remembers keep it within its budget") {
  ResultMemo memo(size_t{8} << 10);  // room for ~13 of the 40 keys: evictions on every thread
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&memo, w] {
      std::mt19937 result_memo_rng(static_cast<unsigned>(w));
      const void* text_type = csift::result_type_tag<std::string>();
      for (int i = 0; i < 3000; ++i) {
        const std::string key = "/p" + std::to_string(result_memo_rng() % 40);
        const FileStamp stamp{1, 2, 1 + result_memo_rng() % 3, 3};
        if (result_memo_rng() % 2) {
          memo.remember(key, text_type, stamp, result_memo_text(key), 400);
        } else if (const auto hit = memo.find(key, text_type, stamp)) {
          CHECK(*std::static_pointer_cast<const std::string>(hit) == key);
        }
      }
    });
  }
  for (auto& t : workers)
    t.join();
  CHECK(memo.usage().bytes <= memo.usage().budget);
  CHECK(memo.usage().evictions > 0);
}

// One call walking `keys` in order (a warm `stats` over a scope): the hits it found in memory.
size_t result_memo_cyclic_call(csift::ByteBudgetLru<int>& lru, size_t keys, size_t cost) {
  const uint64_t call = csift::new_lru_call();
  size_t hits = 0;
  for (size_t k = 0; k < keys; ++k) {
    const std::string key = "/store/t" + std::to_string(k);
    if (lru.lookup(
            key, [](const int&) { return csift::LruVerdict::use; }, call)) {
      ++hits;
    } else {
      lru.put(key, static_cast<int>(k), cost, call);
    }
  }
  return hits;
}

TEST_CASE("byte budget lru: a call's working set 1.3x the budget keeps hitting the part that fits") {
  // 100 entries fit; each call needs 130. A plain LRU walked cyclically by it hits nothing, call after call.
  csift::ByteBudgetLru<int> lru(100 * 1000);
  CHECK(result_memo_cyclic_call(lru, 130, 1000) == 0);  // cold
  for (int round = 0; round < 4; ++round) {
    const size_t hits = result_memo_cyclic_call(lru, 130, 1000);
    CHECK(hits == 100);  // budget / working set of the 130: every entry the budget holds
    CHECK(lru.usage().bytes <= lru.usage().budget);
  }
  CHECK(lru.usage().declined == 30 * 5);  // the part that does not fit is declined, not churned
  // Another scope (a later call over other transcripts) still gets in: across calls it is plain LRU.
  CHECK(result_memo_cyclic_call(lru, 0, 1000) == 0);
  const uint64_t other = csift::new_lru_call();
  for (int k = 0; k < 50; ++k)
    lru.put("/other/t" + std::to_string(k), k, 1000, other);
  CHECK(lru.usage().entries == 100);
  CHECK(lru.lookup("/other/t0", [](const int&) { return csift::LruVerdict::use; }));
  CHECK(lru.usage().declined == 30 * 5);
  // Without a call named, a put evicts the least recently used as before (the same cyclic walk thrashes).
  csift::ByteBudgetLru<int> plain(100 * 1000);
  for (int round = 0; round < 3; ++round) {
    size_t hits = 0;
    for (int k = 0; k < 130; ++k) {
      const std::string key = "/store/t" + std::to_string(k);
      if (plain.lookup(key, [](const int&) { return csift::LruVerdict::use; }))
        ++hits;
      else
        plain.put(key, k, 1000);
    }
    CHECK(hits == 0);
  }
}

TEST_CASE("result memo: recall_or_compute keeps what fits of a call larger than the budget") {
  // Entries cost 400 + their key's bookkeeping: some of the 13 fit in 6,000 bytes, and every later call over
  // the 13 files hits exactly those.
  csift_test::TempDir dir("csift-memo-cyclic");
  std::vector<std::string> paths;
  for (int i = 0; i < 13; ++i)
    paths.push_back(dir.write("t" + std::to_string(i) + ".jsonl", "line\n"));
  ResultMemo memo(6000);
  auto call = [&] {
    ResultMemoUse use;
    for (const std::string& p : paths)
      csift::recall_or_compute(
          &memo, use, kResultMemoTestKind, p, "", [&] { return p; }, [](const std::string&) { return true; },
          [](const std::string&) { return size_t{400}; });
    return std::pair<uint64_t, uint64_t>(use.hits.load(), use.misses.load());
  };
  CHECK(call() == std::pair<uint64_t, uint64_t>(0, 13));
  const uint64_t fit = memo.usage().entries;
  REQUIRE(fit > 0);
  REQUIRE(fit < 13);
  CHECK(call() == std::pair<uint64_t, uint64_t>(fit, 13 - fit));
  CHECK(call() == std::pair<uint64_t, uint64_t>(fit, 13 - fit));
}

TEST_CASE(
    "byte budget lru: sharded, it keeps one budget, an entry as large as it, and a call's own entries") {
  // 16 shards of a 100,000-byte budget: an entry of 60,000 (past a sixteenth) still fits, evicting from
  // other shards.
  csift::ByteBudgetLru<int> lru(100 * 1000, 16);
  for (int k = 0; k < 90; ++k)
    lru.put("/store/t" + std::to_string(k), k, 1000);
  CHECK(lru.usage().entries == 90);
  lru.put("/store/big", -1, 60 * 1000);
  CHECK(lru.lookup("/store/big", [](const int&) { return csift::LruVerdict::use; }) == -1);
  CHECK(lru.usage().bytes <= lru.usage().budget);
  CHECK(lru.usage().entries == 41);  // 50 of the small ones went, wherever they lived
  CHECK(lru.usage().evictions == 50);
  // Scan resistance holds across shards: a call 1.3x the budget keeps hitting the part that fits.
  csift::ByteBudgetLru<int> cyclic(100 * 1000, 16);
  CHECK(result_memo_cyclic_call(cyclic, 130, 1000) == 0);
  for (int round = 0; round < 3; ++round) {
    CHECK(result_memo_cyclic_call(cyclic, 130, 1000) == 100);
    CHECK(cyclic.usage().bytes <= cyclic.usage().budget);
  }
  CHECK(cyclic.usage().declined == 30 * 4);
  // A put replacing its own key costs only the new entry.
  cyclic.put("/store/t0", 7, 1000);
  CHECK(cyclic.lookup("/store/t0", [](const int&) { return csift::LruVerdict::use; }) == 7);
}

TEST_CASE("byte budget lru: sharded, parallel calls stay within the budget once they are done") {
  csift::ByteBudgetLru<int> lru(50 * 1000, 8);
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&lru, w] {
      std::mt19937 rng(static_cast<unsigned>(w));
      for (int c = 0; c < 40; ++c) {
        const uint64_t call = csift::new_lru_call();
        for (int i = 0; i < 60; ++i) {
          const std::string key = "/p" + std::to_string(rng() % 200);
          if (!lru.lookup(
                  key, [](const int&) { return csift::LruVerdict::use; }, call))
            lru.put(key, i, 500 + rng() % 1000, call);
        }
      }
    });
  }
  for (auto& t : workers)
    t.join();
  CHECK(lru.usage().evictions > 0);
  // Concurrent puts may pass the budget for a moment, each by its own entry; a last put with no call named
  // brings it back within.
  lru.put("/last", 0, 100);
  CHECK(lru.usage().bytes <= lru.usage().budget);
}

}  // namespace result_memo_unit
