// Turn grouping and superseded drafts.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/record/turns.h"

namespace turns_unit {

using namespace csift;

namespace {

Record rec(const std::string& json) {
  RecordParser p;
  Record r;
  REQUIRE(p.parse(json, r) == ParseStatus::ok);
  return r;
}

Record human(const std::string& uuid, const std::string& parent, const std::string& text) {
  return rec(R"({"type":"user","uuid":")" + uuid + R"(","parentUuid":")" + parent +
             R"(","message":{"role":"user","content":")" + text + R"("}})");
}

Record reply(const std::string& uuid, const std::string& parent) {
  return rec(R"({"type":"assistant","uuid":")" + uuid + R"(","parentUuid":")" + parent +
             R"(","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}})");
}

Record carrier(const std::string& uuid, const std::string& parent) {
  return rec(
      R"({"type":"user","uuid":")" + uuid + R"(","parentUuid":")" + parent +
      R"(","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}})");
}

}  // namespace

TEST_CASE("turns open on openers, 0-based, prelude outside") {
  std::vector<Record> rs = {
      rec(R"({"type":"file-history-snapshot","snapshot":{}})"),
      human("u1", "", "first"),
      reply("a1", "u1"),
      carrier("c1", "a1"),
      rec(R"({"type":"user","uuid":"i1","parentUuid":"c1","message":{"role":"user","content":"[Request interrupted by user]"}})"),
      human("u2", "i1", "second"),
      reply("a2", "u2"),
  };
  TurnAssignment t = assign_turns(rs, TurnRule{&opens_turn});
  CHECK(t.turn_count == 2);
  CHECK(t.turn_of == std::vector<int>{-1, 0, 0, 0, 0, 1, 1});
  CHECK(t.opener_index == std::vector<size_t>{1, 5});
  CHECK(t.is_opener[1]);
  CHECK_FALSE(t.is_opener[4]);
  CHECK(std::none_of(t.is_draft.begin(), t.is_draft.end(), [](bool b) { return b; }));
}

TEST_CASE("a superseded draft sits outside numbering and relabels user.unsent") {
  std::vector<Record> rs = {
      human("u1", "", "first"),
      reply("a1", "u1"),
      human("d1", "a1", "draft text"),   // esc-recalled
      human("u2", "a1", "edited text"),  // the resend shares the parent
      reply("a2", "u2"),
  };
  TurnAssignment t = assign_turns(rs, TurnRule{&opens_turn});
  CHECK(t.turn_count == 2);
  CHECK(t.is_draft == std::vector<bool>{false, false, true, false, false});
  CHECK(t.turn_of == std::vector<int>{0, 0, -1, 1, 1});
  CHECK_FALSE(t.is_opener[2]);
  CHECK(t.opener_index == std::vector<size_t>{0, 3});

  ClassifyContext ctx;
  auto units = classify_record(rs[2], ctx);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::user_message});
  relabel_as_draft(rs[2], units);
  REQUIRE(units.size() == 1);
  CHECK(units[0].labels == std::vector<Label>{Label::user_unsent});
  CHECK(units[0].text == "draft text");

  std::vector<Unit> none;
  relabel_as_draft(rs[2], none);
  REQUIRE(none.size() == 1);
  CHECK(none[0].text == "draft text");
}

TEST_CASE("two drafts before one resend; parentless openers are never drafts") {
  std::vector<Record> rs = {
      human("d1", "p", "v1"),         human("d2", "p", "v2"),         human("u3", "p", "v3"),
      human("x1", "", "no parent a"), human("x2", "", "no parent b"),
  };
  TurnAssignment t = assign_turns(rs, TurnRule{&opens_turn});
  CHECK(t.is_draft == std::vector<bool>{true, true, false, false, false});
  CHECK(t.turn_count == 3);
  CHECK(t.turn_of == std::vector<int>{-1, -1, 0, 1, 2});
}

TEST_CASE("inline sidechain records of a session file open no turn and belong to none") {
  std::vector<Record> rs = {
      human("u1", "", "build it"),
      reply("a1", "u1"),
      rec(R"({"type":"user","isSidechain":true,"version":"1.0.80","uuid":"s1","message":{"role":"user","content":"act as DIRECTOR"}})"),
      rec(R"({"type":"assistant","isSidechain":true,"version":"1.0.80","uuid":"s2","parentUuid":"s1","message":{"role":"assistant","content":[{"type":"text","text":"done"}]}})"),
      carrier("c1", "a1"),
      human("u2", "c1", "thanks"),
  };
  TurnAssignment main_lane = assign_turns(rs, TurnRule{&opens_turn, &is_inline_sidechain});
  CHECK(main_lane.turn_count == 2);
  CHECK(main_lane.turn_of == std::vector<int>{0, 0, -1, -1, 0, 1});
  CHECK(main_lane.is_foreign == std::vector<bool>{false, false, true, true, false, false});
  // An agent-<id>.jsonl (every record a sidechain) numbers its own turns as before.
  TurnAssignment own = assign_turns(rs, TurnRule{&opens_turn});
  CHECK(own.turn_count == 3);
  // A streaming reader's skeleton keeps only what numbering needs, and numbers the same.
  TurnSkeleton skeleton(TurnRule{&opens_turn, &is_inline_sidechain});
  for (const Record& r : rs)
    skeleton.keep(r);
  const TurnAssignment kept = skeleton.number();
  CHECK(kept.turn_of == main_lane.turn_of);
  CHECK(kept.is_foreign == main_lane.is_foreign);
  CHECK(kept.opener_index == main_lane.opener_index);
}

TEST_CASE("a skeleton numbers superseded drafts as assign_turns does") {
  std::vector<Record> rs = {
      human("u1", "", "first"),    reply("a1", "u1"), human("d1", "a1", "draft"),
      human("u2", "a1", "resend"), reply("a2", "u2"),
  };
  const TurnAssignment whole = assign_turns(rs, TurnRule{&opens_turn});
  TurnSkeleton skeleton(TurnRule{&opens_turn});
  for (const Record& r : rs)
    skeleton.keep(r);
  const TurnAssignment kept = skeleton.number();
  CHECK(kept.turn_of == whole.turn_of);
  CHECK(kept.is_draft == whole.is_draft);
  CHECK(kept.turn_count == 2);
}

}  // namespace turns_unit
