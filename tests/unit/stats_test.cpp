// stats: the per-message-id token dedup (v0.9.2 ②), the per-transcript tally on a temp file, and the cost of
// counted tokens at the price table's rates.
#include <doctest/doctest.h>

#include "core/harness/claude_code/record_parser.h"
#include "temp_store.h"
#include "tools/stats/cost.h"
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

// The cost (SPEC.md §9.4): hand-computed from the per-MTok prices in tools/stats/prices.json.
TEST_CASE("cost: usage's cache writes split by lifetime; an unsplit write is five minutes") {
  const Record split = parse(
      R"({"type":"assistant","message":{"id":"m","model":"x","role":"assistant","content":[],"usage":)"
      R"({"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":30,)"
      R"("cache_creation":{"ephemeral_5m_input_tokens":10,"ephemeral_1h_input_tokens":20}}}})"
      "\n");
  CHECK(TokenCounts::of(split.message.usage) == TokenCounts{1, 2, 3, 30, 20});
  CHECK(TokenCounts::of(parse(assistant_line("m", "x", 1, 2, 3, 30)).message.usage) ==
        TokenCounts{1, 2, 3, 30, 0});
}

TEST_CASE("cost: a model is priced by its name or a dated snapshot of it, never a near match") {
  REQUIRE(price_of("claude-opus-4-1-20250805") != nullptr);
  CHECK(price_of("claude-opus-4-1-20250805")->model == "claude-opus-4-1");
  CHECK(price_of("claude-opus-4-20250514")->model == "claude-opus-4");
  CHECK(price_of("claude-opus-4-6")->model == "claude-opus-4-6");
  CHECK(price_of("claude-opus-4-8") == nullptr);
  CHECK(price_of("sonnet") == nullptr);
  CHECK(price_of("<synthetic>") == nullptr);
  CHECK(price_of("claude-sonnet-4-5-2025") == nullptr);
  CHECK(price_sources().contains("anthropic"));
}

TEST_CASE("cost: each token kind at its rate; long context per request above 200k input") {
  const ModelPrice& sonnet = *price_of("claude-sonnet-4-5-20250929");
  bool lc = true;
  // 1000*3 + 200*15 + 1000*3.75 (5m) + 2000*6 (1h) + 10000*0.3 = 24,750 per million.
  CHECK(request_usd(sonnet, TokenCounts{1000, 200, 10000, 3000, 2000}, &lc) == doctest::Approx(0.02475));
  CHECK_FALSE(lc);
  // 150000*6 + 1000*22.5 + 60000*0.6 = 958,500 per million: 210,000 input tokens pay the long-context rates.
  CHECK(request_usd(sonnet, TokenCounts{150000, 1000, 60000, 0, 0}, &lc) == doctest::Approx(0.9585));
  CHECK(lc);
  // Exactly 200,000 is not above the threshold.
  CHECK(request_usd(sonnet, TokenCounts{200000, 0, 0, 0, 0}, &lc) == doctest::Approx(0.6));
  CHECK_FALSE(lc);
  // Opus 4.1, a write with no lifetime split: 10*15 + 100*75 + 400*18.75 = 15,150 per million.
  CHECK(request_usd(*price_of("claude-opus-4-1-20250805"), TokenCounts{10, 100, 0, 400, 0}, nullptr) ==
        doctest::Approx(0.01515));
}

TEST_CASE("cost: Codex and Gemini CLI models by exact name; uncached input, cache reads, output each once") {
  // The readers hand over input without its cached part and output with its reasoning/thoughts (SPEC §9.4).
  const ModelPrice* codex = price_of("gpt-5-codex");
  REQUIRE(codex != nullptr);
  bool lc = true;
  // The fixture rollout's totals: 2,300 input of which 1,700 cached, 80 output.
  // 600*1.25 + 1700*0.125 + 80*10 = 1,762.5 per million.
  CHECK(request_usd(*codex, TokenCounts{600, 80, 1700, 0, 0}, &lc) == doctest::Approx(0.0017625));
  CHECK_FALSE(lc);
  CHECK(price_of("gpt-5.1-codex")->model == "gpt-5.1-codex");
  CHECK(price_of("gpt-5-mini")->model == "gpt-5-mini");
  CHECK(price_of("gpt-5.3-codex") == nullptr);
  CHECK(price_of("gpt-5.4") == nullptr);
  CHECK(price_of("gpt-5-2025-08-07") == nullptr);  // only the table's -YYYYMMDD rule, never a guess
  CHECK(price_of("gemini-3-flash-preview") == nullptr);
  const ModelPrice& pro = *price_of("gemini-2.5-pro");
  // The fixture's first Gemini message: input 5,000 of which 3,000 cached, output 40 + thoughts 10.
  // 2000*1.25 + 3000*0.31 + 50*10 = 3,930 per million.
  CHECK(request_usd(pro, TokenCounts{2000, 50, 3000, 0, 0}, &lc) == doctest::Approx(0.00393));
  CHECK_FALSE(lc);
  // A prompt above 200,000 tokens (cached included) pays the higher tier on all of it:
  // 50000*2.5 + 1000*15 + 160000*0.625 = 240,000 per million.
  CHECK(request_usd(pro, TokenCounts{50000, 1000, 160000, 0, 0}, &lc) == doctest::Approx(0.24));
  CHECK(lc);
  // 1000*0.3 + 100*2.5 + 1000*0.075 = 625 per million.
  CHECK(request_usd(*price_of("gemini-2.5-flash"), TokenCounts{1000, 100, 1000, 0, 0}, nullptr) ==
        doctest::Approx(0.000625));
  CHECK(price_sources().contains("openai"));
  CHECK(price_sources().contains("google"));
}

TEST_CASE("cost: a message two transcripts hold is paid once; unknown models keep tokens, no cost") {
  TokenLedger main, resumed;
  main.admit(parse(
      assistant_line("m1", "claude-haiku-4-5-20251001", 1000, 100, 0, 0, R"([])", "2026-03-01T10:00:00Z")));
  resumed.admit(parse(
      assistant_line("m1", "claude-haiku-4-5-20251001", 1000, 100, 0, 0, R"([])", "2026-03-01T10:00:00Z")));
  resumed.admit(parse(
      assistant_line("m2", "claude-haiku-4-5-20251001", 2000, 0, 0, 0, R"([])", "2026-03-02T10:00:00Z")));
  resumed.admit(parse(assistant_line("m3", "mystery-model", 5, 5, 0, 0, R"([])", "2026-03-02T11:00:00Z")));
  ScopeTokenLedger scope;
  scope.add(main, "p1");
  scope.add(resumed, "p2");
  CostTally once;
  scope.cost_into(once);
  // 1000*1 + 100*5 = 1,500; 2000*1 = 2,000 per million.
  CHECK(once.usd() == doctest::Approx(0.0035));
  CHECK(once.by_model_json()["mystery-model"].is_null());
  CHECK(once.unpriced_json().contains("mystery-model"));
  CHECK(scope.totals().at("mystery-model") == TokenCounts{5, 5, 0, 0});
  CHECK(scope.usd_by_day() == std::map<std::string, double>{{"2026-03-01", 0.0015}, {"2026-03-02", 0.002}});
  CHECK(scope.usd_by_project() == std::map<std::string, double>{{"p1", 0.0015}, {"p2", 0.002}});
  CostTally rows;
  main.cost_into(rows);
  resumed.cost_into(rows);
  CHECK(rows.usd() == doctest::Approx(0.005));
}

// A remembered ledger is compacted (its id index dropped); a fold resumed over an append admits into a copy
// of it, which must find the messages it already holds rather than add them again.
TEST_CASE(
    "ledger: a compacted ledger admits again by id, in first-admitted order; restoring refuses a twin") {
  TokenLedger ledger;
  ledger.admit(
      parse(assistant_line("m1", "claude-haiku-4-5-20251001", 10, 1, 0, 0, R"([])", "2026-03-01T10:00:00Z")));
  ledger.admit(
      parse(assistant_line("m2", "claude-haiku-4-5-20251001", 20, 2, 0, 0, R"([])", "2026-03-01T10:00:01Z")));
  ledger.compact();
  TokenLedger resumed = ledger;
  resumed.admit(
      parse(assistant_line("m1", "claude-haiku-4-5-20251001", 30, 1, 0, 0, R"([])", "2026-03-01T10:00:02Z")));
  resumed.admit(
      parse(assistant_line("m3", "claude-opus-4-5-20251101", 5, 5, 0, 0, R"([])", "2026-03-01T10:00:03Z")));
  REQUIRE(resumed.messages().size() == 3);
  CHECK(resumed.messages()[0].id == stable_hash128("m1"));
  CHECK(resumed.messages()[0].max.input_tokens == 30);  // raised, not added again
  CHECK(resumed.messages()[2].model_name() == "claude-opus-4-5-20251101");
  CHECK(resumed.totals().at("claude-haiku-4-5-20251001") == TokenCounts{50, 3, 0, 0});
  CHECK(interned_model("claude-opus-4-5-20251101") == resumed.messages()[2].model);
  std::vector<MessageUsage> twins = {ledger.messages()[0], ledger.messages()[1], ledger.messages()[0]};
  CHECK_FALSE(TokenLedger::restored(twins, {}));
  twins.pop_back();
  const auto back = TokenLedger::restored(twins, {});
  REQUIRE(back);
  CHECK(back->totals() == ledger.totals());
}

TEST_CASE("cost: a harness logging output tokens only is never priced, even for a model the table prices") {
  const std::string& why = tokens_only_reason("copilot");
  REQUIRE_FALSE(why.empty());
  CHECK(tokens_only_reason("codex").empty());
  CHECK(tokens_only_reason("gemini-cli").empty());
  TokenLedger copilot, claude;
  copilot.admit(parse(assistant_line("c1", "gpt-5-mini", 0, 400, 0, 0, R"([])", "2026-03-01T10:00:00Z")));
  claude.admit(parse(
      assistant_line("m1", "claude-haiku-4-5-20251001", 1000, 100, 0, 0, R"([])", "2026-03-01T10:00:00Z")));
  ScopeTokenLedger scope;
  scope.add(copilot, "p1", why);
  scope.add(claude, "p1");
  CostTally once;
  scope.cost_into(once);
  CHECK(once.usd() == doctest::Approx(0.0015));  // haiku's 1000*1 + 100*5 alone
  CHECK(once.by_model_json()["gpt-5-mini"].is_null());
  CHECK(once.unpriced_json()["gpt-5-mini"] == why);
  CHECK(scope.totals().at("gpt-5-mini") == TokenCounts{0, 400, 0, 0});
  CHECK(scope.usd_by_day() == std::map<std::string, double>{{"2026-03-01", 0.0015}});
  CostTally row;
  copilot.cost_into(row, why);
  CHECK(row.usd() == 0);
  CHECK(row.unpriced_json()["gpt-5-mini"] == why);
}

}  // namespace stats_unit
