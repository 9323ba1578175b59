// stats' streaming fold: its turn count (openers with no parent plus distinct opener parents) equals
// assign_turns' numbering, and a sparse parse folds to the same figures as a full one, over every Claude Code
// transcript of the fixtures and the real corpus.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "tests/unit/corpus_root.h"
#include "tools/stats/stats_fold.h"

namespace stats_fold_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

TranscriptTally folded(const std::vector<Record>& records, const TurnRule& rule) {
  StatsFold fold;
  for (const Record& r : records)
    fold.add(r, rule);
  TranscriptTally tally;
  fold.finish_into(tally);
  return tally;
}

}  // namespace

TEST_CASE("the fold's turn count equals assign_turns and a sparse parse folds like a full one") {
  const std::vector<fs::path> files = csift_test::claude_code_logs();
  REQUIRE(files.size() > 40);
  uint64_t drafts = 0, turns = 0;
  for (const fs::path& path : files) {
    CAPTURE(path.string());
    const Transcript t = csift_test::transcript_of(path);
    const TurnRule rule = turn_rule_of(t);
    const ReadResult full = read_transcript(t, ReadOptions{});
    ReadOptions sparse_opts;
    sparse_opts.payloads = ReadOptions::Payloads::skip;
    const ReadResult sparse = read_transcript(t, sparse_opts);
    REQUIRE(sparse.records.size() == full.records.size());
    CHECK(sparse.skipped_lines == full.skipped_lines);

    const TurnAssignment assigned = assign_turns(full.records, rule);
    const TranscriptTally a = folded(full.records, rule), b = folded(sparse.records, rule);
    CHECK(a.turns == assigned.turn_count);
    for (bool d : assigned.is_draft)
      drafts += d;
    turns += static_cast<uint64_t>(assigned.turn_count);

    CHECK(b.turns == a.turns);
    CHECK(b.user_records == a.user_records);
    CHECK(b.assistant_records == a.assistant_records);
    CHECK(b.compactions == a.compactions);
    CHECK(b.first_timestamp == a.first_timestamp);
    CHECK(b.last_timestamp == a.last_timestamp);
    CHECK(b.tokens == a.tokens);
    CHECK(b.narration_blocks == a.narration_blocks);
    CHECK(b.unknown_thinking_tags == a.unknown_thinking_tags);
    CHECK(b.tools == a.tools);
    CHECK(b.record_keys == a.record_keys);
  }
  CHECK(drafts > 0);  // the superseded-draft rule was exercised
  CHECK(turns > 100);
}

}  // namespace stats_fold_unit
