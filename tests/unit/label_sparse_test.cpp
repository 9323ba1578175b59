// Also: a count that leaves assistant lines unparsed (SearchPrefilter::agent_lines_matter false) sees every
// other entry under the labels a full read gives it, for every label such a count can admit.
//
// A classification from a sparse parse (ReadOptions::Payloads::skip) gives every entry the labels, turn and
// draft and lane flags a full parse gives it, over every Claude Code transcript of the fixtures and the real
// corpus: what lets a counted label-only search parse sparsely and its census stand for a full read's.
#include <doctest/doctest.h>

#include <filesystem>

#include <fstream>
#include <map>

#include "tests/unit/corpus_root.h"
#include "tools/common/classified_transcript.h"
#include "tools/search/search_prefilter.h"

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

TEST_CASE(
    "a count without assistant lines classifies every other entry as a full read, for the labels it admits") {
  uint64_t differing = 0;  // labels some entry gains or loses without the assistant lines
  size_t compared = 0;
  // A carrier of two results, one an AskUserQuestion's known only by its tool call (its text has no
  // answer phrasing): the corpus has none, and the answer's label depends on the assistant line.
  const fs::path named_answer = fs::temp_directory_path() / "csift-label-sparse-named-answer.jsonl";
  {
    std::ofstream out(named_answer, std::ios::trunc);
    const std::string head = R"("sessionId":"s","timestamp":"2026-01-01T00:00:00.000Z")";
    out << R"({"type":"user","uuid":"u1","parentUuid":null,)" << head
        << R"(,"message":{"role":"user","content":"pick one"}})"
        << "\n";
    out << R"({"type":"assistant","uuid":"a1","parentUuid":"u1",)" << head
        << R"(,"message":{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"toolu_q","name":)"
        << R"("AskUserQuestion","input":{"questions":[{"question":"Which?"}]}},{"type":"tool_use","id":)"
        << R"("toolu_b","name":"Bash","input":{"command":"ls"}}]}})"
        << "\n";
    out << R"({"type":"user","uuid":"u2","parentUuid":"a1",)" << head
        << R"(,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_q","content":)"
        << R"("A"},{"type":"tool_result","tool_use_id":"toolu_b","content":"file"}]},)"
        << R"("toolUseResult":{"answers":{"Which?":"A"}}})"
        << "\n";
  }
  std::vector<fs::path> logs = csift_test::claude_code_logs();
  logs.push_back(named_answer);
  for (const fs::path& path : logs) {
    CAPTURE(path.string());
    const Transcript t = csift_test::transcript_of(path);
    const RawLineProbes* probes = reader_for(t).raw_probes();
    const ClassifiedTranscript full = load_classified_transcript(t, false, nullptr);
    const ClassifiedTranscript without = load_classified_transcript(
        t, false, nullptr,
        [probes](std::string_view line) { return probes->peek_type(line) != "assistant"; });
    std::map<uint64_t, uint64_t> full_labels;
    for (const ClassifiedEntry& e : full.entries)
      full_labels[e.record->line] = label_set(e);
    for (const ClassifiedEntry& e : without.entries) {
      REQUIRE(full_labels.count(e.record->line) == 1);
      differing |= label_set(e) ^ full_labels[e.record->line];
      ++compared;
    }
  }
  fs::remove(named_answer);
  CHECK(compared > 10000);
  CHECK((differing >> static_cast<unsigned>(Label::user_answer) & 1) == 1);
  for (size_t i = 0; i < kLabelCount; ++i) {
    if (!(differing >> i & 1)) continue;
    const Label l = static_cast<Label>(i);
    CAPTURE(std::string(label_path(l)));
    json args = {{"pattern", ""}, {"label", json::array({std::string(label_path(l))})}, {"count_only", true}};
    if (l == Label::harness_meta_attachment) args["attachments"] = true;
    const SearchRequest req = parse_search_request(args);
    CHECK(SearchPrefilter(req, false).agent_lines_matter());
  }
}

}  // namespace label_sparse_unit
