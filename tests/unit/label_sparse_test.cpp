// A classification from a sparse parse (ReadOptions::Payloads::skip) gives every entry the labels, turn and
// draft and lane flags a full parse gives it, over every Claude Code transcript of the fixtures and the real
// corpus: what lets a counted label-only search parse sparsely and its census stand for a full read's.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/unit/corpus_root.h"
#include "tools/common/classified_transcript.h"

namespace label_sparse_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

uint64_t label_set(const ClassifiedEntry& e) {
  uint64_t set = 0;
  for (const Unit& u : e.units)
    for (const Label l : u.labels)
      set |= uint64_t{1} << static_cast<unsigned>(l);
  return set;
}

}  // namespace

TEST_CASE("a sparse parse classifies every entry under the labels a full parse gives it") {
  const std::vector<fs::path> files = csift_test::claude_code_logs();
  REQUIRE(files.size() > 40);
  uint64_t entries = 0, tool_units = 0;
  for (const fs::path& path : files) {
    CAPTURE(path.string());
    const Transcript t = csift_test::transcript_of(path);
    const ClassifiedTranscript full = load_classified_transcript(t, false, nullptr);
    const ClassifiedTranscript sparse =
        load_classified_transcript(t, false, nullptr, {}, {}, ReadOptions::Payloads::skip);
    REQUIRE(sparse.entries.size() == full.entries.size());
    CHECK(sparse.read.skipped_lines == full.read.skipped_lines);
    CHECK(sparse.turns.turn_count == full.turns.turn_count);
    for (size_t i = 0; i < full.entries.size(); ++i) {
      const ClassifiedEntry &a = full.entries[i], &b = sparse.entries[i];
      CAPTURE(a.record->line);
      // An attachment's label comes from its payload, which a sparse parse drops: search parses sparsely
      // only when the attachment gate is shut, and attachment lines are then not parsed at all.
      if (a.record->type != "attachment") CHECK(label_set(b) == label_set(a));
      CHECK(b.turn_index == a.turn_index);
      CHECK(b.superseded_draft == a.superseded_draft);
      CHECK(b.foreign_lane == a.foreign_lane);
      for (const Unit& u : a.units)
        tool_units += u.is_tool_use || u.is_tool_result;
    }
    entries += full.entries.size();
  }
  CHECK(entries > 10000);
  CHECK(tool_units > 1000);
}

}  // namespace label_sparse_unit
