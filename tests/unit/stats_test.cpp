// stats: the per-message-id token dedup (v0.9.2 ②) and the per-transcript tally on a temp file.
#include <doctest/doctest.h>

#include "core/harness/claude_code/record_parser.h"
#include "temp_store.h"
#include "tools/stats/stats_tally.h"
#include "tools/stats/token_ledger.h"

namespace stats_unit {

using namespace csift;

namespace {

// An assistant record of message `id` ("" = no id) with the given usage and content blocks.
std::string assistant_line(const std::string& id, const std::string& model, int in, int out, int cache_read,
                           int cache_create, const std::string& content = R"([{"type":"text","text":"ok"}])",
                           const std::string& ts = "2026-03-01T10:00:00Z") {
  std::string msg = R"({"role":"assistant",)";
  if (!id.empty()) msg += R"("id":")" + id + R"(",)";
  msg += R"("model":")" + model + R"(","content":)" + content + R"(,"usage":{"input_tokens":)" +
         std::to_string(in) + R"(,"output_tokens":)" + std::to_string(out) +
         R"(,"cache_read_input_tokens":)" + std::to_string(cache_read) +
         R"(,"cache_creation_input_tokens":)" + std::to_string(cache_create) + "}}";
  return R"({"type":"assistant","uuid":"a-)" + id + R"(","timestamp":")" + ts + R"(","message":)" + msg +
         "}\n";
}

std::string user_line_at(const std::string& text, const std::string& ts) {
  return R"({"type":"user","uuid":"u-)" + ts + R"(","timestamp":")" + ts +
         R"(","message":{"role":"user","content":")" + text + "\"}}\n";
}

Record parse(const std::string& line) {
  RecordParser parser;
  Record r;
  REQUIRE(parser.parse(line.substr(0, line.size() - 1), r) == ParseStatus::ok);
  return r;
}

}  // namespace

TEST_CASE("token ledger: one API message counts once, each field at its maximum") {
  TokenLedger ledger;
  // The same message on three per-block records, a streaming partial, and a zeroed compaction replay.
  ledger.admit(parse(assistant_line("m1", "opus", 10, 50, 2000, 1000)));
  ledger.admit(parse(assistant_line("m1", "opus", 10, 50, 2000, 1000)));
  ledger.admit(parse(assistant_line("m2", "opus", 7, 1, 4000, 50)));
  ledger.admit(parse(assistant_line("m2", "opus", 7, 300, 4000, 50)));
  ledger.admit(parse(assistant_line("m2", "opus", 0, 0, 0, 0)));
  const TokensByModel totals = ledger.totals();
  REQUIRE(totals.count("opus") == 1);
  CHECK(totals.at("opus") == TokenCounts{17, 350, 6000, 1050});
}

TEST_CASE("token ledger: id-less records each count on their own, per model") {
  TokenLedger ledger;
  ledger.admit(parse(assistant_line("", "sonnet", 3, 9, 100, 0)));
  ledger.admit(parse(assistant_line("", "sonnet", 3, 9, 100, 0)));
  ledger.admit(parse(assistant_line("m4", "sonnet", 20, 80, 5000, 0)));
  ledger.admit(parse(assistant_line("m4", "sonnet", 20, 80, 5000, 0)));
  const TokensByModel totals = ledger.totals();
  CHECK(totals.at("sonnet") == TokenCounts{26, 98, 5200, 0});
}

TEST_CASE("token ledger: records without usage are ignored; a missing model is named") {
  TokenLedger ledger;
  Record no_usage = parse(R"({"type":"assistant","message":{"role":"assistant","id":"x","content":[]}})"
                          "\n");
  ledger.admit(no_usage);
  CHECK(ledger.totals().empty());
  ledger.admit(parse(assistant_line("m9", "", 1, 2, 3, 4)));
  CHECK(ledger.totals().at(kUnknownModel) == TokenCounts{1, 2, 3, 4});
}

TEST_CASE("scope totals sum rows and never dedupe across files") {
  TokensByModel a{{"opus", TokenCounts{1, 2, 3, 4}}};
  TokensByModel b{{"opus", TokenCounts{1, 2, 3, 4}}, {"haiku", TokenCounts{5, 0, 0, 0}}};
  TokensByModel total;
  add_tokens(total, a);
  add_tokens(total, b);
  CHECK(total.at("opus") == TokenCounts{2, 4, 6, 8});
  CHECK(total.at("haiku") == TokenCounts{5, 0, 0, 0});
}

TEST_CASE("tally: whole-file census, windowed counts and per-id tokens") {
  csift_test::TempStore store;
  const std::string tool = R"([{"type":"tool_use","id":"t1","name":"Bash","input":{}}])";
  const std::string path = store.write(
      "-p/s.jsonl", user_line_at("first question", "2026-03-01T09:00:00Z") +
                        assistant_line("m1", "opus", 10, 50, 2000, 1000, tool, "2026-03-01T09:00:01Z") +
                        assistant_line("m1", "opus", 10, 50, 2000, 1000, R"([{"type":"text","text":"done"}])",
                                       "2026-03-01T09:00:02Z") +
                        "{\"type\":\"attachment\",\"attachment\":{}}\n" + "{not json}\n" +
                        user_line_at("second question", "2026-03-02T09:00:00Z") +
                        assistant_line("m2", "opus", 1, 2, 3, 4, R"([{"type":"text","text":"again"}])",
                                       "2026-03-02T09:00:01Z"));
  Transcript t;
  t.path = path;
  t.id = "s";

  SUBCASE("unwindowed") {
    const TranscriptTally tally = tally_transcript(t, StatsWindow{}, nullptr);
    CHECK(tally.lines == 7);
    CHECK(tally.skipped_lines == 1);
    CHECK(tally.line_types.at("attachment") == 1);
    CHECK(tally.user_records == 2);
    CHECK(tally.assistant_records == 3);
    CHECK(tally.turns == 2);
    CHECK(tally.tools.at("Bash") == 1);
    CHECK(tally.tokens.at("opus") == TokenCounts{11, 52, 2003, 1004});
    CHECK(tally.first_timestamp == "2026-03-01T09:00:00Z");
    CHECK(tally.last_timestamp == "2026-03-02T09:00:01Z");
  }
  SUBCASE("a time window bounds the counted records but not the line census") {
    StatsWindow window;
    window.time.since = parse_iso8601("2026-03-02T00:00:00Z");
    const TranscriptTally tally = tally_transcript(t, window, nullptr);
    CHECK(tally.lines == 7);
    CHECK(tally.line_types.at("attachment") == 1);
    CHECK(tally.user_records == 1);
    CHECK(tally.turns == 1);
    CHECK(tally.tokens.at("opus") == TokenCounts{1, 2, 3, 4});
    CHECK(tally.tools.empty());
  }
  SUBCASE("a turn window picks turns over the whole transcript") {
    StatsWindow window;
    window.turn = parse_range("0", "--turn", false);
    const TranscriptTally tally = tally_transcript(t, window, nullptr);
    CHECK(tally.user_records == 1);
    CHECK(tally.assistant_records == 2);
    CHECK(tally.tokens.at("opus") == TokenCounts{10, 50, 2000, 1000});
  }
}

}  // namespace stats_unit
