// The persisted cache (core/cache/disk_cache.h): an entry answers only for its stamp; a blob failing its
// checksum, a database of another format, kind version or build, a truncated or overwritten file are each
// ignored and rebuilt; the budget evicts; the directory and files are private and an unsafe directory is
// refused; the probe's blob round-trips and a crafted one never decodes past its end.
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "core/cache/disk_cache.h"
#include "core/cache/scan_memo.h"
#include "core/cache/sqlite_wal.h"
#include "core/search/search_label_census.h"
#include "core/store/remembered_probe.h"
#include "core/triage/log_facts.h"
#include "tests/unit/corpus_root.h"
#include "tests/unit/temp_store.h"
#include "tools/list/list_row.h"
#include "tools/stats/remembered_scope_figures.h"
#include "tools/stats/remembered_tally.h"

namespace disk_cache_unit {

using csift::DiskCache;
using csift::FileStamp;
using csift::kDiskProbeKind;
using csift_test::TempDir;
namespace fs = std::filesystem;

const FileStamp kStampA{1, 2, 300, 4000};
const FileStamp kStampB{1, 2, 301, 4001};

std::string disk_dir(const TempDir& t) {
  return (t.root / "cache" / "csift-mcp").string();
}

// Runs one SQL statement on the cache file behind the cache's back (as another process or a bad disk would).
void disk_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

// The entries the cache file holds.
int disk_count(const std::string& path) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  int n = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM entries", -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}

// Replaces an entry's stored form, its checksum recomputed as the cache computes it (key, stamp, bytes).
void disk_overwrite_blob(const std::string& path, const csift::DiskCacheKind& kind, const std::string& key,
                         const FileStamp& s, const std::string& stored) {
  const std::string k = csift::disk_key(kind, key);
  const uint64_t sum = csift::disk_entry_sum(k, s, stored);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "UPDATE entries SET blob = ?1, sum = ?2 WHERE key = ?3", -1, &st, nullptr) ==
          SQLITE_OK);
  sqlite3_bind_blob(st, 1, stored.data(), static_cast<int>(stored.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(st, 2, static_cast<int64_t>(sum));
  sqlite3_bind_blob(st, 3, k.data(), static_cast<int>(k.size()), SQLITE_TRANSIENT);
  CHECK(sqlite3_step(st) == SQLITE_DONE);
  CHECK(sqlite3_changes(db) == 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

// A cache holding "blob-a" for /t/a under kStampA, written and closed.
void disk_fill(const std::string& dir, const std::string& build = "b1") {
  DiskCache c(dir, 1 << 20, build);
  CHECK_FALSE(c.get(kDiskProbeKind, "/t/a", kStampA));
  c.put(kDiskProbeKind, "/t/a", kStampA, "blob-a");
  c.flush();
}

TEST_CASE("disk cache: an entry answers only for its stamp, across processes' opens") {
  TempDir t("csift-disk");
  disk_fill(disk_dir(t));
  DiskCache c(disk_dir(t), 1 << 20, "b1");
  csift::DiskCacheUse use;
  CHECK(c.get(kDiskProbeKind, "/t/a", kStampA, &use) == std::optional<std::string>("blob-a"));
  CHECK_FALSE(c.get(kDiskProbeKind, "/t/a", kStampB, &use));  // grown or rewritten: not this entry
  CHECK_FALSE(c.get(kDiskProbeKind, "/t/b", kStampA, &use));
  CHECK(use.hits == 1);
  CHECK(use.misses == 2);
}

TEST_CASE("disk cache: the directory is 0700 and the files 0600; an unsafe directory is refused") {
  TempDir t("csift-disk");
  disk_fill(disk_dir(t));
  struct stat st {};
  REQUIRE(::stat(disk_dir(t).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  for (const char* f : {"/cache.sqlite3", "/cache.sqlite3-wal", "/cache.sqlite3-shm"}) {
    if (::stat((disk_dir(t) + f).c_str(), &st) != 0) continue;  // the WAL may be checkpointed away
    CHECK_MESSAGE((st.st_mode & 0777) == 0600, f);
  }
  // Writable by others: refused, and the process runs uncached (every lookup misses, nothing written).
  const std::string open_dir = (t.root / "open").string();
  fs::create_directories(open_dir);
  ::chmod(open_dir.c_str(), 0777);
  DiskCache refused(open_dir, 1 << 20, "b1");
  CHECK_FALSE(refused.get(kDiskProbeKind, "/t/a", kStampA));
  refused.put(kDiskProbeKind, "/t/a", kStampA, "x");
  refused.flush();
  CHECK_FALSE(fs::exists(open_dir + "/cache.sqlite3"));
  CHECK_FALSE(refused.totals().usable);
  // Inside a transcript store: refused.
  const std::string store = (t.root / "home" / ".claude").string();
  fs::create_directories(store);
  DiskCache inside(store + "/cache", 1 << 20, "b1", {store});
  CHECK_FALSE(inside.get(kDiskProbeKind, "/t/a", kStampA));
  CHECK_FALSE(inside.totals().usable);
  CHECK_FALSE(fs::exists(store + "/cache"));
  // Owned by another user (the suite may run as root): refused.
  if (::geteuid() == 0) {
    const std::string theirs = (t.root / "theirs").string();
    fs::create_directories(theirs);
    ::chmod(theirs.c_str(), 0700);
    REQUIRE(::chown(theirs.c_str(), 65534, 65534) == 0);
    DiskCache other(theirs, 1 << 20, "b1");
    CHECK_FALSE(other.get(kDiskProbeKind, "/t/a", kStampA));
    CHECK_FALSE(other.totals().usable);
  }
}

TEST_CASE("disk cache: a blob failing its checksum is not used, and is deleted") {
  TempDir t("csift-disk");
  disk_fill(disk_dir(t));
  disk_sql(disk_dir(t) + "/cache.sqlite3", "UPDATE entries SET blob = X'626C6F622D62'");  // "blob-b"
  {
    DiskCache c(disk_dir(t), 1 << 20, "b1");
    CHECK_FALSE(c.get(kDiskProbeKind, "/t/a", kStampA));
    CHECK(c.totals().errors == 1);
    c.flush();
  }
  CHECK(disk_count(disk_dir(t) + "/cache.sqlite3") == 0);
}

TEST_CASE("disk cache: another format, kind version or build drops the entries") {
  for (const std::string& sql : {std::string("UPDATE meta SET value = '999' WHERE name = 'format'"),
                                 std::string("UPDATE meta SET value = '999' WHERE name = 'kind.probe'"),
                                 std::string("UPDATE meta SET value = 'other' WHERE name = 'build'")}) {
    TempDir t("csift-disk");
    disk_fill(disk_dir(t));
    disk_sql(disk_dir(t) + "/cache.sqlite3", sql);
    DiskCache c(disk_dir(t), 1 << 20, "b1");
    CHECK_MESSAGE(!c.get(kDiskProbeKind, "/t/a", kStampA), sql);
    c.put(kDiskProbeKind, "/t/a", kStampA, "again");
    c.flush();
    CHECK(c.get(kDiskProbeKind, "/t/a", kStampA) == std::optional<std::string>("again"));
  }
}

TEST_CASE("disk cache: a truncated or overwritten database is moved out of the way and rebuilt") {
  for (int way = 0; way < 3; ++way) {
    TempDir t("csift-disk");
    disk_fill(disk_dir(t));
    const std::string file = disk_dir(t) + "/cache.sqlite3";
    if (way == 0) {
      fs::resize_file(file, 1000);  // cut inside the first page
    } else if (way == 1) {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(0);
      f << std::string(100, 'X');  // the header: not a database any more
    } else {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(1024);  // page 1's b-tree (16 KiB pages), where the schema is: unreadable
      f << std::string(15000, '\xff');
    }
    DiskCache c(disk_dir(t), 1 << 20, "b1");
    CHECK_MESSAGE(!c.get(kDiskProbeKind, "/t/a", kStampA), way);
    c.flush();  // the call ends: the next one starts a fresh database
    CHECK_FALSE(c.get(kDiskProbeKind, "/t/a", kStampA));
    c.put(kDiskProbeKind, "/t/a", kStampA, "rebuilt");
    c.flush();
    CHECK_MESSAGE(c.get(kDiskProbeKind, "/t/a", kStampA) == std::optional<std::string>("rebuilt"), way);
  }
}

TEST_CASE("disk cache: over its budget, the least recently used entries go") {
  TempDir t("csift-disk");
  DiskCache c(disk_dir(t), 256 << 10, "b1");
  std::string blob(20000, 'z');
  std::mt19937 noise(3);
  for (char& b : blob)  // incompressible: the cache stores blobs compressed when that pays
    b = static_cast<char>(noise());
  for (int i = 0; i < 40; ++i) {  // 800 KB through a 256 KiB budget
    c.put(kDiskProbeKind, "/t/" + std::to_string(i), kStampA, blob);
    c.flush();
  }
  const auto totals = c.totals();
  CHECK(totals.evictions > 0);
  CHECK(totals.bytes <= totals.budget);
  CHECK(c.get(kDiskProbeKind, "/t/39", kStampA));
  CHECK_FALSE(c.get(kDiskProbeKind, "/t/0", kStampA));
  CHECK(fs::file_size(disk_dir(t) + "/cache.sqlite3") <= (320u << 10));
}

TEST_CASE("disk cache: a probe's blob round-trips, and no cut or flipped blob decodes past its end") {
  csift::SessionProbe p;
  p.first_user = {true, "first question", "2026-01-01T00:00:00Z", 3, 120, 14};
  p.last_agent = {true, std::string(200, 'a'), "", 0, 9000, 4321};
  p.cwd = "/home/me/proj";
  p.git_branch_last = "main";
  p.is_clone = true;
  p.skipped_lines = 2;
  p.bytes_read = 12345;
  const std::string blob = csift::encode_probe(p);
  const auto back = csift::decode_probe(blob);
  REQUIRE(back);
  CHECK(csift::encode_probe(*back) == blob);
  CHECK(back->last_agent.text == p.last_agent.text);
  CHECK(back->last_agent.chars == 4321);
  CHECK(back->bytes_read == 12345);
  for (size_t cut = 0; cut < blob.size(); ++cut)
    CHECK_FALSE(csift::decode_probe(std::string_view(blob).substr(0, cut)));
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {  // under ASan: any read past the end fails loudly
    std::string b = blob;
    b[rng() % b.size()] = static_cast<char>(rng());
    (void)csift::decode_probe(b);
  }
  CHECK_FALSE(csift::decode_probe(std::string(20, '\xff')));  // a varint longer than 64 bits
}

// Every cut prefix of `blob` fails to decode, and 2,000 random byte flips never read past its end (ASan).
template <class Decode>
void check_refuses_damage(const std::string& blob, Decode&& decode) {
  for (size_t cut = 0; cut < blob.size(); ++cut)
    CHECK_FALSE(decode(std::string_view(blob).substr(0, cut)));
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    std::string b = blob;
    b[rng() % b.size()] = static_cast<char>(rng());
    (void)decode(b);
  }
  CHECK_FALSE(decode(blob + "x"));  // leftover bytes
}

TEST_CASE("disk cache: an entry's key is its kind and a fixed-size hash, never the path itself") {
  const std::string path = "/home/someone/.claude/projects/-home-someone-work/0123.jsonl";
  const std::string k = csift::disk_key(kDiskProbeKind, path);
  CHECK(k.size() == std::string_view("probe").size() + 1 + 16);
  CHECK(k.substr(0, 6) == std::string("probe\0", 6));
  CHECK(k.find("someone") == std::string::npos);
  CHECK(k == csift::disk_key(kDiskProbeKind, path));                             // stable
  CHECK(k != csift::disk_key(kDiskProbeKind, path + "x"));                       // another path
  CHECK(k.substr(6) == csift::disk_key(csift::kDiskTallyKind, path).substr(6));  // kinds share the hash ...
  CHECK(k != csift::disk_key(csift::kDiskTallyKind, path));                      // ... not the key
}

TEST_CASE("disk cache: a long blob is stored compressed and a damaged frame is refused, then rebuilt") {
  TempDir t("csift-disk");
  const std::string blob = std::string(5000, 'a') + "tail";
  {
    DiskCache c(disk_dir(t), 1 << 20, "b1");
    c.put(csift::kDiskTallyKind, "/t/a", kStampA, blob);
    c.flush();
    CHECK(c.get(csift::kDiskTallyKind, "/t/a", kStampA) == std::optional<std::string>(blob));
  }
  // Frames that do not decompress to the size they declare, or declare an absurd one, or an unknown tag, each
  // with its checksum recomputed (as a bug in a writer would leave them): refused, deleted, recomputed.
  for (const std::string& stored :
       {std::string("z\x28\xb5\x2f\xfd\x20\xff\x00", 8),
        std::string("z\x28\xb5\x2f\xfd\xa0\xff\xff\xff\x7f", 10), std::string("qraw")}) {
    {
      DiskCache c(disk_dir(t), 1 << 20, "b1");
      c.put(csift::kDiskTallyKind, "/t/a", kStampA, blob);
      c.flush();
    }
    disk_overwrite_blob(disk_dir(t) + "/cache.sqlite3", csift::kDiskTallyKind, "/t/a", kStampA, stored);
    DiskCache c(disk_dir(t), 1 << 20, "b1");
    CHECK_FALSE(c.get(csift::kDiskTallyKind, "/t/a", kStampA));
    CHECK(c.totals().errors == 1);
    c.put(csift::kDiskTallyKind, "/t/a", kStampA, blob);
    c.flush();
    CHECK(c.get(csift::kDiskTallyKind, "/t/a", kStampA) == std::optional<std::string>(blob));
  }
}

TEST_CASE("disk cache: an entry found corrupt and recomputed in the same call is kept") {
  TempDir t("csift-disk");
  disk_fill(disk_dir(t));
  disk_sql(disk_dir(t) + "/cache.sqlite3", "UPDATE entries SET sum = sum + 1");
  DiskCache c(disk_dir(t), 1 << 20, "b1");
  CHECK_FALSE(c.get(kDiskProbeKind, "/t/a", kStampA));
  c.put(kDiskProbeKind, "/t/a", kStampA, "fresh");
  c.flush();  // the deletion of the corrupt entry does not take the fresh one with it
  CHECK(c.get(kDiskProbeKind, "/t/a", kStampA) == std::optional<std::string>("fresh"));
}

TEST_CASE("disk cache: a stats tally round-trips (its ledger iterates in the same order)") {
  size_t checked = 0, with_ledger = 0;
  for (const fs::path& path : csift_test::claude_code_logs()) {
    if (checked == 60) break;
    CAPTURE(path.string());
    const csift::Transcript t = csift_test::transcript_of(path);
    const csift::TranscriptTally tally = csift::tally_transcript(t, csift::StatsWindow{}, nullptr);
    if (!tally.error.empty()) continue;
    const std::string blob = csift::encode_tally(tally);
    const auto back = csift::decode_tally(blob);
    REQUIRE(back);
    // The encoding lists the ledger's messages in iteration order: equal bytes, equal order (a cost is a
    // float sum in that order).
    CHECK(csift::encode_tally(*back) == blob);
    CHECK(back->record_keys == tally.record_keys);
    CHECK(back->tokens == tally.tokens);
    if (!tally.ledger.messages().empty()) ++with_ledger;
    if (checked++ < 3) check_refuses_damage(blob, csift::decode_tally);
  }
  CHECK(with_ledger > 5);
}

TEST_CASE("disk cache: stats scope figures round-trip, with local times made again, and damage is refused") {
  csift::StatsScopeFigures f;
  f.first_timestamp = "2026-01-02T03:04:05.000Z";
  f.last_timestamp = "2026-01-03T03:04:05.000Z";
  f.summary = csift::json::object();
  f.summary["sessions"] = 3;
  f.summary["first_utc"] = f.first_timestamp;
  f.summary["first_local"] = "written in another zone";
  f.summary["last_utc"] = f.last_timestamp;
  f.summary["last_local"] = "written in another zone";
  f.summary["cost"] = {{"usd", 0.1 + 0.2}, {"by_model", {{"m", nullptr}}}};
  f.shared.resize(3);
  f.shared[0] = {5, {1, 2}};
  f.shared[2] = {7, {0}};
  const std::string blob = csift::encode_scope_figures(f);
  const auto back = csift::decode_scope_figures(blob);
  REQUIRE(back);
  csift::json want = f.summary;
  csift::put_instant(want, "first", f.first_timestamp);
  csift::put_instant(want, "last", f.last_timestamp);
  CHECK(back->summary.dump() == want.dump());  // same fields, same order, same float bits; local times ours
  CHECK(back->summary["first_local"] != "written in another zone");
  REQUIRE(back->shared.size() == 3);
  CHECK(back->shared[0].records == 5);
  CHECK(back->shared[0].with == std::vector<size_t>{1, 2});
  CHECK(back->shared[1].records == 0);
  CHECK(back->shared[2].with == std::vector<size_t>{0});
  check_refuses_damage(blob, csift::decode_scope_figures);
  // A row marked as sharing with a row the figures do not have is refused.
  f.shared[2].with = {3};
  CHECK_FALSE(csift::decode_scope_figures(csift::encode_scope_figures(f)));
}

TEST_CASE("disk cache: a label census round-trips and a damaged one is refused") {
  csift::LabelCensus c;
  c.skipped_lines = 3;
  c.values_out_of_range = 1;
  c.runs = {{0b101, 0, false, false, 4}, {0b10, -1, true, false, 1}, {1, 7, false, true, 70000}};
  const std::string blob = csift::encode_label_census(c);
  const auto stored = csift::decode_label_census(blob);
  REQUIRE(stored);
  const csift::LabelCensus& back = stored->census;
  CHECK(csift::encode_label_census(back) == blob);
  CHECK(back.runs.size() == 3);
  CHECK(back.runs[2].entries == 70000);
  CHECK(back.runs[1].draft);
  CHECK(back.resume == nullptr);
  CHECK_FALSE(stored->joined);
  // A census whose read joined spawns keeps the children it was classified with; a transcript whose join
  // now gives others (here: none, a bare file) is not answered by it.
  auto resume = std::make_shared<csift::LabelCensus::Resume>();
  resume->context.spawn_join.spawn_calls.insert("toolu_1");
  resume->context.spawned_child = {{"toolu_1", "agent-a"}, {"toolu_2", "agent-b"}};
  resume->context.spawn_join.result_agents = {{"toolu_2", "agent-b"}};
  c.resume = resume;
  const auto joined = csift::decode_label_census(csift::encode_label_census(c));
  REQUIRE(joined);
  CHECK(joined->joined);
  CHECK(joined->children == resume->context.spawned_child);
  csift::Transcript bare;
  bare.path = "/nowhere/x.jsonl";
  CHECK_FALSE(joined->holds_for(bare));  // the meta.json child agent-a is gone
  resume->context.spawned_child.erase("toolu_1");
  CHECK(csift::decode_label_census(csift::encode_label_census(c))->holds_for(bare));  // results alone
  check_refuses_damage(blob, csift::decode_label_census);
}

TEST_CASE("disk cache: a log's triage facts round-trip and a damaged blob is refused") {
  csift::LogFacts f;
  f.cwds = {"/home/dev/app", "/home/dev/app/sub", "/tmp/\xc3\xa9t\xc3\xa9"};
  f.start = "2026-11-01T10:00:00.000Z";
  f.end = "2026-11-02T08:30:00.125Z";
  f.entries = 70000;
  f.unparsed = 3;
  const std::string blob = csift::encode_log_facts(f);
  const auto back = csift::decode_log_facts(blob);
  REQUIRE(back);
  CHECK(back->cwds == f.cwds);
  CHECK(back->start == f.start);
  CHECK(back->end == f.end);
  CHECK(back->entries == 70000);
  CHECK(back->unparsed == 3);
  const auto empty = csift::decode_log_facts(csift::encode_log_facts({}));
  REQUIRE(empty);
  CHECK(empty->cwds.empty());
  CHECK(empty->entries == 0);
  check_refuses_damage(blob, csift::decode_log_facts);
}

TEST_CASE("disk cache: screen facts round-trip; a folded sketch still holds every gram it held") {
  std::mt19937 rng(5);
  auto word = [&] {
    std::string w;
    for (int i = 0; i < 8; ++i)
      w.push_back(static_cast<char>('a' + rng() % 26));
    return w;
  };
  const FileStamp stamp{1, 2, 400000, 5};
  csift::ScreenFacts f(stamp.size);
  f.stamp = stamp;
  f.malformed_lines = 2;
  f.torn_tail = true;
  f.screened_end = 399000;
  f.values_out_of_range = 1;
  f.head_hash = 77;
  f.tail_hash = 88;
  std::vector<std::string> words;
  for (int i = 0; i < 2000; ++i) {
    words.push_back(word());
    f.grams.add(words.back());
  }
  f.grams.add("caf\\u00e9 \xc5\xbf");
  f.absent_markers = {"<command-", "compact_boundary"};
  f.rendered = csift::CoverScope{{"<task-notification>"}, true, false, true};
  const std::vector<std::string> texts{"/review x", "q", ""};
  f.rendered_texts = std::make_shared<const csift::KeptTexts>(csift::KeptTexts::pack(texts));
  const std::string blob = csift::encode_screen(f);
  CHECK(blob.size() < f.grams.bytes() / 2);  // folded while sparse, tables kept sparsely
  const auto back = csift::decode_screen(blob, stamp);
  REQUIRE(back);
  CHECK(back->stamp == stamp);
  CHECK(back->skipped_lines() == 3);
  CHECK(back->screened_end == 399000);
  CHECK(back->tail_hash == 88);
  CHECK(back->absent_markers == f.absent_markers);
  REQUIRE(back->rendered);
  CHECK(back->rendered->markers == f.rendered->markers);
  CHECK(back->rendered->snapshots);
  REQUIRE(back->rendered_texts);
  CHECK(back->rendered_texts->unpack() == texts);
  for (const std::string& w : words)
    CHECK(back->grams.may_contain(w));
  CHECK(back->grams.may_hold_escape("00e9"));
  CHECK(csift::encode_screen(*back) == blob);
  size_t absent_maybe = 0;
  for (int i = 0; i < 200; ++i)
    absent_maybe += back->grams.may_contain("zq" + word());
  CHECK(absent_maybe < 20);  // still a filter
  check_refuses_damage(blob, [&](std::string_view b) { return csift::decode_screen(b, stamp); });
  // The facts of a screen end inside the file they describe.
  CHECK_FALSE(csift::decode_screen(blob, FileStamp{1, 2, 1000, 5}));
}

// Two processes opening one new database: the second's switch to WAL meets the first's shared lock, and
// SQLite answers SQLITE_BUSY without calling the busy handler. The switch waits the lock out instead.
TEST_CASE("sqlite_enter_wal: waits out another connection's lock, which the busy handler alone does not") {
  TempDir t("csift-wal");
  const std::string path = (t.root / "new.db").string();
  sqlite3* holder = nullptr;
  sqlite3* opener = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &holder) == SQLITE_OK);
  REQUIRE(sqlite3_open(path.c_str(), &opener) == SQLITE_OK);
  sqlite3_busy_timeout(opener, 2000);
  REQUIRE(sqlite3_exec(holder, "CREATE TABLE x(a); BEGIN; SELECT count(*) FROM x;", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  // The plain pragma, busy handler and all, fails at once while the shared lock is held.
  CHECK((sqlite3_exec(opener, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr) & 0xff) == SQLITE_BUSY);
  // Held past the wait: the last code is answered.
  CHECK((csift::sqlite_enter_wal(opener, 30) & 0xff) == SQLITE_BUSY);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
  });
  const int rc = csift::sqlite_enter_wal(opener, 5000);
  release.join();
  CHECK(rc == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(opener, "PRAGMA journal_mode", -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) == "wal");
  sqlite3_finalize(st);
  sqlite3_close(opener);
  sqlite3_close(holder);
}

}  // namespace disk_cache_unit
