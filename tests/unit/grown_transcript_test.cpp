// What a server extends over the lines appended to a transcript equals what a read of the whole grown file
// gives: a label census (extend_label_census: entry by entry the same labels, turn and draft and lane flags,
// skipped-line and out-of-range counts) and show's turn openers. Over every Claude Code log of the fixtures
// and the corpus, grown in steps: at a line boundary, then in the middle of a line (the earlier read ends on
// a torn line), and a line before each resend that supersedes an earlier opener (an appended opener turns a
// remembered one into a draft, and the record appended before it moves to the turn before).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/cache/file_stamp.h"
#include "core/search/search_label_census.h"
#include "tests/unit/corpus_root.h"
#include "tools/show/show_line_facts.h"
#include "tools/stats/remembered_tally.h"

namespace grown_transcript_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

struct EntryFacts {
  uint64_t labels;
  int32_t turn;
  bool draft, foreign;
  bool operator==(const EntryFacts&) const = default;
};

std::vector<EntryFacts> expand(const LabelCensus& c) {
  std::vector<EntryFacts> out;
  for (const LabelCensus::Run& r : c.runs)
    out.insert(out.end(), r.entries, EntryFacts{r.labels, r.turn, r.draft, r.foreign});
  return out;
}

// The census a counted search takes of `t` (every line parsed sparsely, no sidecar).
LabelCensus census_of(const Transcript& t) {
  LabelCensusBuilder builder;
  ClassifyContext context;
  const std::optional<uint64_t> head = head_hash_of(t.path);
  const ClassifiedTranscript ct = load_classified_transcript(
      t, false, nullptr, {}, [&](const ClassifiedTranscript&, ClassifiedEntry& e, size_t) { builder.add(e); },
      ReadOptions::Payloads::skip, &context);
  return builder.take(ct, context, head);
}

void write_bytes(const fs::path& path, std::string_view bytes, bool append) {
  std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void check_same(const LabelCensus& got, const LabelCensus& want) {
  CHECK(got.skipped_lines == want.skipped_lines);
  CHECK(got.values_out_of_range == want.values_out_of_range);
  const std::vector<EntryFacts> a = expand(got), b = expand(want);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].labels == b[i].labels);
    CHECK(a[i].turn == b[i].turn);
    CHECK(a[i].draft == b[i].draft);
    CHECK(a[i].foreign == b[i].foreign);
  }
}

// The byte offsets of each line's start.
std::vector<size_t> line_starts(const std::string& bytes) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == '\n' && i + 1 < bytes.size()) starts.push_back(i + 1);
  return starts;
}

// The lines (0-based) at which a resend supersedes an earlier opener: the opener after a draft that shares
// its parent.
std::vector<size_t> resend_lines(const Transcript& t) {
  const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);
  std::vector<size_t> out;
  for (size_t i = 0; i < ct.entries.size(); ++i) {
    if (!ct.entries[i].superseded_draft) continue;
    const std::string& parent = ct.entries[i].record->parent_uuid;
    for (const size_t opener : ct.turns.opener_index) {
      if (opener > i && ct.read.records[opener].parent_uuid == parent) {
        out.push_back(static_cast<size_t>(ct.read.records[opener].line - 1));
        break;
      }
    }
  }
  return out;
}

// Growth points of a log (byte offsets, ascending, inside it): a third in at a line start, the middle of a
// line further on, and the start of the line before each resend.
std::vector<size_t> growth_points(const std::string& bytes, const Transcript& t) {
  const std::vector<size_t> starts = line_starts(bytes);
  std::vector<size_t> cuts{starts[starts.size() / 3]};
  const size_t mid = 2 * starts.size() / 3;
  const size_t line_end = mid + 1 < starts.size() ? starts[mid + 1] : bytes.size();
  cuts.push_back(starts[mid] + (line_end - starts[mid]) / 2);
  for (const size_t line : resend_lines(t))
    cuts.push_back(starts[line > 0 ? line - 1 : 0]);  // the resend is appended after another record
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  cuts.erase(std::remove_if(cuts.begin(), cuts.end(), [&](size_t c) { return c == 0 || c >= bytes.size(); }),
             cuts.end());
  return cuts;
}

// Writes each log of three lines or more to `grown` up to its first growth point, calls start(t), then
// appends up to each next point (the last is the whole log) and calls step(t) after each append. `t` is the
// log's Transcript at the path `grown`. Returns the number of logs grown.
size_t grow_each_log(const fs::path& grown, const std::function<void(const Transcript&)>& start,
                     const std::function<void(const Transcript&)>& step) {
  size_t logs = 0;
  for (const fs::path& path : csift_test::claude_code_logs()) {
    CAPTURE(path.string());
    std::ostringstream all;
    all << std::ifstream(path, std::ios::binary).rdbuf();
    const std::string bytes = all.str();
    if (line_starts(bytes).size() < 3) continue;
    Transcript t = csift_test::transcript_of(path);
    const std::vector<size_t> cuts = growth_points(bytes, t);
    t.path = grown.string();
    write_bytes(grown, std::string_view(bytes).substr(0, cuts.front()), false);
    start(t);
    size_t at = cuts.front();
    for (size_t k = 1; k <= cuts.size(); ++k) {
      const size_t to = k < cuts.size() ? cuts[k] : bytes.size();
      CAPTURE(to);
      write_bytes(grown, std::string_view(bytes).substr(at, to - at), true);
      step(t);
      at = to;
    }
    ++logs;
  }
  fs::remove(grown);
  return logs;
}

}  // namespace

TEST_CASE("a census extended over appended lines is the census of the whole grown file") {
  size_t extensions = 0, torn_resumes = 0, supersessions = 0, entries = 0;
  LabelCensus census;
  const size_t logs = grow_each_log(
      fs::temp_directory_path() / "csift-census-extend.jsonl",
      [&](const Transcript& t) {
        entries += expand(census).size();
        census = census_of(t);
      },
      [&](const Transcript& t) {
        REQUIRE(census.resume != nullptr);
        ReadOptions options;
        options.payloads = ReadOptions::Payloads::skip;
        std::optional<LabelCensus> extended = extend_label_census(t, census, options);
        REQUIRE(extended.has_value());
        check_same(*extended, census_of(t));
        ++extensions;
        torn_resumes += census.resume->torn;
        const std::vector<EntryFacts> was = expand(census), now = expand(*extended);
        for (size_t i = 0; i < was.size() && i < now.size(); ++i)
          supersessions += now[i].draft && !was[i].draft;
        census = std::move(*extended);
      });
  entries += expand(census).size();
  REQUIRE(logs > 40);
  CHECK(entries > 10000);
  CHECK(extensions > logs);
  // The growth points reach both kinds of resumption: after a torn line, and a remembered opener superseded
  // by an appended resend.
  CHECK(torn_resumes > 20);
  CHECK(supersessions > 0);
  MESSAGE("extensions " << extensions << ", after a torn line " << torn_resumes << ", supersessions "
                        << supersessions);
}

TEST_CASE(
    "show's turn openers extended over appended lines are those of a classified read of the grown file") {
  install_result_memo(kDefaultResultMemoBytes);
  ResultMemoUse use;
  size_t openers = 0;
  const auto check_openers = [&](const Transcript& t) {
    const std::shared_ptr<const TurnOpeners> got = show_turn_openers(t, process_result_memo(), nullptr, use);
    const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);
    std::vector<uint64_t> want;
    for (const size_t index : ct.turns.opener_index)
      want.push_back(ct.read.records[index].line);
    CHECK(got->lines == want);
    CHECK(got->physical_lines == ct.read.lines);
    openers += want.size();
  };
  const size_t logs =
      grow_each_log(fs::temp_directory_path() / "csift-openers-extend.jsonl", check_openers, check_openers);
  install_result_memo(0);
  CHECK(logs > 40);
  CHECK(openers > 500);
  // Each step after the first of a log was extended, not read again.
  CHECK(use.extended.load() > logs);
  CHECK(use.misses.load() == logs);
}

TEST_CASE("a census is not extended over a file rewritten in place") {
  const fs::path path = fs::temp_directory_path() / "csift-census-rewritten.jsonl";
  const std::string line =
      R"({"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00.000Z",)"
      R"("message":{"role":"user","content":"hello"}})"
      "\n";
  write_bytes(path, line, false);
  Transcript t = csift_test::transcript_of(path);
  const LabelCensus census = census_of(t);
  REQUIRE(census.resume != nullptr);
  std::string other = line;
  other.replace(other.find("hello"), 5, "howdy");
  write_bytes(path, other + line, false);
  CHECK_FALSE(extend_label_census(t, census, ReadOptions{}).has_value());
  fs::remove(path);
}

// A transcript as discovery hands it over: stat'ed, so the tally memo sees its mtime.
Transcript stamped_transcript_of(const fs::path& path) {
  Transcript t = csift_test::transcript_of(path);
  const std::optional<FileStamp> stamp = stamp_file(path.string());
  REQUIRE(stamp);
  t.device = stamp->device;
  t.inode = stamp->inode;
  t.size = stamp->size;
  t.mtime_ns = stamp->mtime_ns;
  return t;
}

TEST_CASE(
    "a stats tally keeps its fold only for a recently written file; an idle one grown is tallied afresh") {
  const fs::path path = fs::temp_directory_path() / "csift-idle-tally.jsonl";
  const auto line = [](int i) {
    return R"({"type":"user","uuid":"u)" + std::to_string(i) +
           R"(","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00.000Z",)"
           R"("message":{"role":"user","content":"hello"}})"
           "\n";
  };
  install_result_memo(kDefaultResultMemoBytes);
  const StatsCaches caches{process_result_memo(), nullptr};
  for (const bool idle : {true, false}) {
    write_bytes(path, line(1) + line(2), false);
    if (idle) fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(48));
    ResultMemoUse use;
    const auto before = remembered_tally(stamped_transcript_of(path), StatsWindow{}, nullptr, caches, use);
    CHECK(before->user_records == 2);
    write_bytes(path, line(3), true);
    const Transcript grown = stamped_transcript_of(path);
    const auto after = remembered_tally(grown, StatsWindow{}, nullptr, caches, use);
    const TranscriptTally fresh = tally_transcript(grown, StatsWindow{}, nullptr);
    CHECK(after->user_records == 3);
    CHECK(after->lines == fresh.lines);
    CHECK(after->record_keys == fresh.record_keys);
    CHECK(use.extended.load() == (idle ? 0u : 1u));
    CHECK(use.misses.load() == (idle ? 2u : 1u));
  }
  install_result_memo(0);
  fs::remove(path);
}

}  // namespace grown_transcript_unit
