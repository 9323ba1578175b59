// Also: a count that parses only the lines whose label bound meets the labels it admits (labels_bound) sees
// every entry carrying them under the labels a full read gives it.
//
// A classification from a sparse parse (ReadOptions::Payloads::skip) gives every entry the labels, turn and
// draft and lane flags a full parse gives it, over every Claude Code transcript of the fixtures and the real
// corpus: what lets a counted label-only search parse sparsely and its census stand for a full read's.
#include <doctest/doctest.h>

#include <filesystem>

#include <fstream>
#include <map>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/search/search_prefilter.h"
#include "core/store/classified_transcript.h"
#include "tests/unit/corpus_root.h"

namespace label_sparse_unit {

using namespace csift;
using namespace csift::detail;
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

namespace {

// Loads `t` parsing only the lines whose labels_bound meets `admitted` (as a count does).
ClassifiedTranscript load_admitted(const Transcript& t, LabelSet admitted) {
  ReadOptions options;
  options.keyed_depth = kLabelKeyDepth;
  options.want_keyed = [admitted](std::string_view line, const std::vector<OuterKey>& keys) {
    return (labels_bound(line, keys).bits & admitted.bits) != 0 ? ReadOptions::Keyed::parse
                                                                : ReadOptions::Keyed::decline;
  };
  return load_classified_transcript(t, false, std::move(options), {}, nullptr);
}

}  // namespace

// labels_bound (record_parser.h) is what lets a count leave lines unparsed: a line whose bound misses every
// label the count admits. Over every Claude Code log of the fixtures and the corpus, and each label alone:
// every record's own labels lie within its line's bound, and a load that parses only the lines whose bound
// holds the label gives every entry carrying it in a full read the same labels, and no other entry the label.
TEST_CASE("a count parses only lines whose label bound meets its labels, and counts as a full read") {
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
  size_t records = 0, compared = 0, declined = 0, openers = 0, carriers = 0;
  std::vector<OuterKey> keys;
  for (const fs::path& path : logs) {
    CAPTURE(path.string());
    const Transcript t = csift_test::transcript_of(path);
    const ClassifiedTranscript full = load_classified_transcript(t, false, nullptr);
    std::ifstream in(path, std::ios::binary);
    std::map<uint64_t, uint64_t> bound_of;  // line number -> labels_bound
    std::map<uint64_t, bool> may_open;      // line number -> keyed may_open_turn
    std::string line;
    for (uint64_t n = 1; std::getline(in, line); ++n) {
      if (!json_object_outer_keys(line, kLabelKeyDepth, keys)) continue;
      bound_of[n] = labels_bound(line, keys).bits;
      may_open[n] = may_open_turn(line, keys);
      CHECK((!may_open[n] || may_open_turn(line)));  // the keyed probe rules out all the byte walk does
      carriers += bound_of[n] == plain_result_carrier_labels().bits;
    }
    for (const ClassifiedEntry& e : full.entries) {
      CAPTURE(e.record->line);
      REQUIRE(bound_of.count(e.record->line) == 1);
      CHECK((label_set(e) & ~bound_of[e.record->line]) == 0);
      if (opens_turn(*e.record)) CHECK(may_open[e.record->line]);  // never false for an opener
      openers += opens_turn(*e.record);
      ++records;
    }
    for (size_t i = 0; i < kLabelCount; ++i) {
      const Label l = static_cast<Label>(i);
      CAPTURE(std::string(label_path(l)));
      LabelSet admitted;
      admitted.add(l);
      const ClassifiedTranscript part = load_admitted(t, admitted);
      CHECK(part.read.skipped_lines == full.read.skipped_lines);
      CHECK(part.read.values_out_of_range == full.read.values_out_of_range);
      declined += part.read.non_candidate_lines;
      std::map<uint64_t, uint64_t> part_labels;
      for (const ClassifiedEntry& e : part.entries)
        part_labels[e.record->line] = label_set(e);
      const uint64_t bit = uint64_t{1} << i;
      for (const ClassifiedEntry& e : full.entries) {
        const auto it = part_labels.find(e.record->line);
        if (label_set(e) & bit) {
          CAPTURE(e.record->line);
          REQUIRE(it != part_labels.end());
          CHECK(it->second == label_set(e));
          ++compared;
        } else if (it != part_labels.end()) {
          CHECK((it->second & bit) == 0);
        }
      }
    }
  }
  fs::remove(named_answer);
  CHECK(records > 10000);
  CHECK(compared > 10000);
  CHECK(declined > records);  // most labels leave most lines unparsed
  CHECK(openers > 300);       // turn openers met in the full reads
  CHECK(carriers > 1000);     // tool-result carriers bounded by their results' labels
}

// A sparse parse keeps of a tool result's text only what the rules read (sparse_result_text): a marker at
// its start after blank space, a rejection anywhere. The real logs hold no long result that tests the cut
// (their answers and rejections are short), so these lines do: each marker after 0, 9 and 300 bytes of
// blank space and before 2,000 bytes more, a rejection after 600 bytes and with its typed instruction 1,000
// bytes on, as a string and as text parts, errored or not, answering an AskUserQuestion, a Task or a Bash
// call. The sparse and the full parse must give each result the same labels, turn-opening and typed text.
TEST_CASE("a sparse parse keeps every part of a long tool result that a label or turn rule reads") {
  const std::string filler(2000, 'x');
  std::vector<std::string> texts;
  for (const std::string& blank :
       {std::string(), std::string(9, ' '), std::string(150, ' ') + std::string(150, '\n')}) {
    for (const std::string_view marker :
         {kAuqAnswerMarkers[0], kAuqAnswerMarkers[1], kAuqAnswerMarkers[2], kToolUseError, kAsyncLaunchAck})
      texts.push_back(blank + std::string(marker) + filler);
    texts.push_back(blank + std::string(kRejectionMarker) + ". " + std::string(kRejectionUserSaid) +
                    "use tabs" + filler);
    texts.push_back(blank + std::string(kRejectionMarker) + filler.substr(0, 1000) +
                    std::string(kRejectionUserSaid) + "use tabs");
  }
  texts.push_back(filler.substr(0, 600) + std::string(kRejectionMarker) + std::string(kRejectionUserSaid) +
                  "go");
  texts.push_back(filler);
  auto escaped = [](const std::string& text) {
    std::string out;
    for (const char c : text)
      out += c == '\n' ? std::string("\\n") : std::string(1, c);
    return out;
  };
  RecordParser full, sparse;
  sparse.set_sparse(true);
  auto parsed = [](RecordParser& p, const std::string& line) {
    Record r;
    REQUIRE(p.parse(line, r) == ParseStatus::ok);
    return r;
  };
  size_t compared = 0, opened = 0, cut = 0;
  for (const std::string tool : {"AskUserQuestion", "Task", "Bash"}) {
    const std::string call =
        R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":")" +
        tool + R"(","input":{}}]}})";
    for (const std::string& text : texts) {
      for (const bool is_error : {false, true}) {
        for (const bool parts : {false, true}) {
          const std::string content =
              parts ? R"([{"type":"text","text":")" + escaped(text) + R"("}])" : "\"" + escaped(text) + "\"";
          const std::string line =
              R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":)" +
              std::string(is_error ? "true" : "false") + R"(,"content":)" + content + "}]}}";
          const Record a = parsed(full, line), b = parsed(sparse, line);
          cut += b.message.blocks[0].content_text.size() < a.message.blocks[0].content_text.size();
          ClassifyContext ca, cb;
          classify_record(parsed(full, call), ca);
          classify_record(parsed(sparse, call), cb);
          const std::vector<Unit> ua = classify_record(a, ca), ub = classify_record(b, cb);
          CAPTURE(line.substr(0, 200));
          REQUIRE(ua.size() == ub.size());
          for (size_t i = 0; i < ua.size(); ++i)
            CHECK(ua[i].labels == ub[i].labels);
          CHECK(opens_turn(a) == opens_turn(b));
          CHECK(rejection_typed_message(a.message.blocks[0]) == rejection_typed_message(b.message.blocks[0]));
          opened += opens_turn(a);
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 3 * texts.size() * 4);
  CHECK(opened > 20);         // answers and rejections with a typed instruction open turns
  CHECK(cut > compared / 2);  // most texts were cut by the sparse parse
}

// envelope_of (ReadOptions::Keyed::envelope) reads a record's type, uuid, timestamp and isCompactSummary from
// the keys its line check recorded, or declines: on every fixture and corpus line it takes, and on lines made
// to trip it (repeated, escaped or non-string keys, escapes and non-ASCII bytes in values), a parse reads the
// same four fields.
TEST_CASE("an envelope read from the outer keys is what a parse reads of it, or is declined") {
  std::vector<std::string> lines = {
      R"({"type":"progress","uuid":"u1","timestamp":"2026-01-01T00:00:00Z","isCompactSummary":true})",
      R"({"type":"progress","uuid":"u1","uuid":"u2"})",
      R"({"type":"progress","uuid":"u\u0031"})",
      R"({"type":"progress","uu\u0069d":"u9","uuid":"u1"})",
      R"({"type":"progress","uuid":7,"timestamp":null,"isCompactSummary":"true"})",
      R"({"type":"progress","timestamp":"2026-01-01T00:00:00Z\n"})",
      "{\"type\":\"progress\",\"uuid\":\"\xC3\xA9\"}",
      "{\"type\":\"progress\",\"uuid\":\"\xFF\"}",
      R"({"type":7,"uuid":"u1"})",
      R"({"uuid":"u1","data":{"type":"user","uuid":"inner"}})",
  };
  for (const fs::path& path : csift_test::claude_code_logs()) {
    std::ifstream in(path, std::ios::binary);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
  }
  std::vector<OuterKey> keys;
  RecordParser parser;
  size_t taken = 0, declined = 0;
  for (const std::string& line : lines) {
    if (!json_object_outer_keys(line, kLabelKeyDepth, keys)) continue;
    Record envelope, parsed;
    if (!envelope_of(line, keys, envelope)) {
      ++declined;
      continue;
    }
    CAPTURE(line.substr(0, 300));
    REQUIRE(parser.parse(line, parsed) == ParseStatus::ok);
    CHECK(envelope.type == parsed.type);
    CHECK(envelope.uuid == parsed.uuid);
    CHECK(envelope.timestamp == parsed.timestamp);
    CHECK(is_compact_summary(envelope) == is_compact_summary(parsed));
    CHECK(envelope.length == line.size());
    ++taken;
  }
  CHECK(taken > 10000);
  CHECK(declined >= 5);  // the repeated, escaped and non-ASCII lines above at least
}

}  // namespace label_sparse_unit
