// The shared per-record rendering pipeline (tools/record_render): hit objects and lines from hand-built
// Records/Units, header tokens, pairing, excerpts.
#include <doctest/doctest.h>

#include "core/base/timefmt.h"
#include "tools/common/record_render.h"

namespace record_render_unit {

using namespace csift;

namespace {

Record record_at(uint64_t line, const std::string& uuid = "u-1",
                 const std::string& ts = "2026-06-07T04:32:05.478Z") {
  Record r;
  r.line = line;
  r.uuid = uuid;
  r.timestamp = ts;
  r.type = "assistant";
  return r;
}

Unit unit(Label label, const std::string& text) {
  Unit u;
  u.labels = {label};
  u.text = text;
  return u;
}

const TranscriptIdentity kSession{"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", false,
                                  "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"};
const TranscriptIdentity kAgent{"a1b2c3d4e5f6a7b8c", true, "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"};

json hit_for(const Record& r, const Unit& u, Pairing p = Pairing::none,
             const TranscriptIdentity& owner = kSession, RecordSource source = RecordSource::transcript,
             int turn = 47) {
  const HitInput in{&r, &u, &owner, turn, false, p, source, 1, nullptr};
  return build_hit_json(in, ExcerptPolicy::full_text());
}

}  // namespace

TEST_CASE("hit lines lead with the role glyph, label and L<line>") {
  const Record r = record_at(990);
  CHECK(render_hit_line(hit_for(r, unit(Label::user_message, "why is the tail-read carry needed?"))) ==
        " \xE2\x97\x82 user.message L990 why is the tail-read carry needed?");
  CHECK(render_hit_line(hit_for(r, unit(Label::agent_thinking, "The carry"))) ==
        " \xE2\x96\xB8 agent.thinking L990 The carry");
  CHECK(render_hit_line(hit_for(r, unit(Label::harness_notification_background_command, "done"))) ==
        " \xE2\x9A\x99 harness.notification.background-command L990 done");
}

TEST_CASE("tool pairing decorates the label zone: paired, pending, orphan") {
  const Record r = record_at(1005);
  Unit use = unit(Label::agent_tool_use, "rg -n carry");
  use.is_tool_use = true;
  use.tool_use_id = "toolu_1";
  use.tool_name = "Bash";
  CHECK(render_hit_line(hit_for(r, use, Pairing::paired)) ==
        " \xE2\x96\xB8 agent.tool.use \xE2\x96\xB9 agent.tool.result Bash L1005 rg -n carry");
  CHECK(render_hit_line(hit_for(r, use, Pairing::pending)) ==
        " \xE2\x96\xB8 agent.tool.use (no result \xE2\x80\x94 pending) Bash L1005 rg -n carry");

  Unit result = unit(Label::agent_tool_result, "ok");
  result.is_tool_result = true;
  result.tool_use_id = "toolu_9";
  result.tool_name = "Edit";
  CHECK(render_hit_line(hit_for(r, result, Pairing::paired)) ==
        " \xE2\x96\xB8 agent.tool.result Edit L1005 ok");
  CHECK(render_hit_line(hit_for(r, result, Pairing::orphan)) ==
        " \xE2\x96\xB8 agent.tool.result (use not in scope) Edit L1005 ok");
}

TEST_CASE("a tool_use hit line does not repeat the tool name the label zone already shows") {
  const Record r = record_at(7);
  Unit use = unit(Label::agent_tool_use, "Read {\"file_path\":\"/x\"}\n");
  use.is_tool_use = true;
  use.tool_name = "Read";
  const json hit = hit_for(r, use, Pairing::pending);
  CHECK(hit["text"] == "Read {\"file_path\":\"/x\"}\n");  // JSON keeps the unit text whole
  CHECK(render_hit_line(hit) ==
        " \xE2\x96\xB8 agent.tool.use (no result \xE2\x80\x94 pending) Read L7 {\"file_path\":\"/x\"}");
}

TEST_CASE("PairingIndex joins tool_use ids to tool_result tool_use_ids across records") {
  Record use_rec, result_rec;
  Block use;
  use.kind = BlockKind::tool_use;
  use.id = "toolu_a";
  use_rec.message.blocks.push_back(use);
  Block res;
  res.kind = BlockKind::tool_result;
  res.tool_use_id = "toolu_a";
  result_rec.message.blocks.push_back(res);
  Block orphan = res;
  orphan.tool_use_id = "toolu_gone";
  result_rec.message.blocks.push_back(orphan);

  PairingIndex index;
  index.add_record(use_rec);
  index.add_record(result_rec);
  Unit u;
  u.is_tool_use = true;
  u.tool_use_id = "toolu_a";
  CHECK(index.of(u) == Pairing::paired);
  u.tool_use_id = "toolu_b";
  CHECK(index.of(u) == Pairing::pending);
  Unit r;
  r.is_tool_result = true;
  r.tool_use_id = "toolu_gone";
  CHECK(index.of(r) == Pairing::orphan);
  r.tool_use_id = "toolu_a";
  CHECK(index.of(r) == Pairing::paired);
  CHECK(index.of(Unit{}) == Pairing::none);
}

TEST_CASE("a comm hit renders from ⇨ to; an errored result renders [error] once") {
  const Record r = record_at(1018);
  Unit inbox = unit(Label::agent_communication_inbox, "please double-check the chunk math");
  inbox.from = "VSMultiRegion";
  inbox.to = "self";
  CHECK(
      render_hit_line(hit_for(r, inbox)) ==
      " \xE2\x96\xB8 agent.communication.inbox VSMultiRegion \xE2\x87\xA8 self L1018 please double-check the "
      "chunk math");

  Unit failed = unit(Label::agent_tool_result, "exit 1");
  failed.is_tool_result = true;
  failed.is_error = true;
  failed.tool_name = "Bash";
  const json hit = hit_for(r, failed);
  CHECK(hit["is_error"] == true);
  CHECK(render_hit_line(hit) == " \xE2\x96\xB8 agent.tool.result [error] Bash L1018 exit 1");
  failed.marker = "[error]";
  CHECK(render_hit_line(hit_for(r, failed)) == " \xE2\x96\xB8 agent.tool.result [error] Bash L1018 exit 1");
}

TEST_CASE("a result hit states is_error false; other hits carry null") {
  const Record r = record_at(3);
  Unit result = unit(Label::agent_tool_result, "ok");
  result.is_tool_result = true;
  CHECK(hit_for(r, result)["is_error"] == false);
  CHECK(hit_for(r, unit(Label::agent_message, "x"))["is_error"].is_null());
}

TEST_CASE("a sidecar-merged record renders (elicitation sidecar) and a null line") {
  const Record r = record_at(0, "pending-1");
  Unit use = unit(Label::agent_tool_use, "{\"questions\":[]}");
  use.is_tool_use = true;
  use.tool_name = "AskUserQuestion";
  const json hit = hit_for(r, use, Pairing::pending, kSession, RecordSource::elicitation_sidecar);
  CHECK(hit["line"].is_null());
  CHECK(hit["source"] == "elicitation-sidecar");
  CHECK(render_hit_line(hit) ==
        " \xE2\x96\xB8 agent.tool.use (no result \xE2\x80\x94 pending) AskUserQuestion (elicitation sidecar) "
        "{\"questions\":[]}");
}

TEST_CASE("the JSON hit carries every §6.11 field, nulls instead of omissions") {
  Record r = record_at(12);
  Unit u = unit(Label::agent_message, "hello");
  u.images = 2;
  const json hit = hit_for(r, u, Pairing::none, kAgent);
  for (const char* key : {"kind",         "session_id",
                          "is_subagent",  "parent_session_id",
                          "turn_index",   "line",
                          "uuid",         "label",
                          "labels",       "tool_name",
                          "from",         "to",
                          "pairing",      "tool_use_id",
                          "is_error",     "source",
                          "ts_utc",       "ts_local",
                          "text",         "images",
                          "image_ids",    "superseded_draft",
                          "record_labels"}) {
    CHECK_MESSAGE(hit.contains(key), key);
  }
  CHECK(hit["kind"] == "record");
  CHECK(hit["session_id"] == kAgent.id);
  CHECK(hit["is_subagent"] == true);
  CHECK(hit["pairing"].is_null());
  CHECK(hit["ts_utc"] == "2026-06-07T04:32:05.478Z");
  CHECK(hit["image_ids"] == json::array({"L12i1", "L12i2"}));
  CHECK_FALSE(hit.contains("refetch"));

  HitJsonOptions opts;
  opts.with_refetch = true;
  const HitInput in{&r, &u, &kAgent, 3, false, Pairing::none, RecordSource::transcript, 1, nullptr};
  // The refetch is a follow-up call as data; the front end spells it (never a CLI string in JSON).
  CHECK(
      build_hit_json(in, ExcerptPolicy::full_text(), opts)["refetch"] ==
      json{{"tool", "show"},
           {"arguments", {{"targets", json::array({"@a1b2c3d4e5f6a7b8c"})}, {"line", json::array({"12"})}}}});
}

TEST_CASE("a sidecar record's refetch is the show call by its uuid, else by its turn") {
  HitJsonOptions opts;
  opts.with_refetch = true;
  Record r = record_at(0, "csift-pending-k-branch");
  const Unit u = unit(Label::agent_tool_use, "{}");
  const auto refetch = [&](int turn) {
    const HitInput in{&r, &u,     &kSession, turn, false, Pairing::pending, RecordSource::elicitation_sidecar,
                      1,  nullptr};
    return build_hit_json(in, ExcerptPolicy::full_text(), opts)["refetch"];
  };
  const json target = json::array({"@" + kSession.id});
  CHECK(refetch(1) ==
        json{{"tool", "show"},
             {"arguments", {{"targets", target}, {"uuid", json::array({"csift-pending-k-branch"})}}}});
  r.uuid.clear();  // the hook always writes one; a hand-made marker may not
  CHECK(refetch(1) == json{{"tool", "show"}, {"arguments", {{"targets", target}, {"turn", "1"}}}});
  CHECK(refetch(-1).is_null());
}

TEST_CASE("every unit of a batched record carries the record's whole label set") {
  Record r = record_at(20);
  std::vector<Unit> units = {unit(Label::harness_notification_background_command, "pulse"),
                             unit(Label::agent_communication_inbox, "peer")};
  units[1].from = "docs-writer";
  for (size_t k = 0; k < units.size(); ++k) {
    HitInput in{&r, &units[k], &kSession, 4, false, Pairing::none, RecordSource::transcript, 1, &units};
    const json hit = build_hit_json(in, ExcerptPolicy::full_text());
    CHECK(hit["labels"] == json::array({std::string(label_path(units[k].labels.front()))}));
    CHECK(hit["record_labels"] ==
          json::array({"harness.notification.background-command", "agent.communication.inbox"}));
  }
}

TEST_CASE("header tokens: 8 chars, growing 8 -> 12 -> full for a colliding group only") {
  HeaderTokens tokens;
  tokens.add("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
  tokens.add("ffff0000-1111-4a6b-8c7d-9e0f1a2b3c4d");
  CHECK(tokens.token("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") == "0a1b2c3d");

  tokens.add("0a1b2c3d-9999-4a6b-8c7d-9e0f1a2b3c4d");  // same 8, different 12
  CHECK(tokens.token("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") == "0a1b2c3d-4e5");
  CHECK(tokens.token("0a1b2c3d-9999-4a6b-8c7d-9e0f1a2b3c4d") == "0a1b2c3d-999");
  CHECK(tokens.token("ffff0000-1111-4a6b-8c7d-9e0f1a2b3c4d") == "ffff0000");

  tokens.add("0a1b2c3d-4e5f-ffff-8c7d-9e0f1a2b3c4d");  // same 12 as the first
  CHECK(tokens.token("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") == "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");
  CHECK(tokens.token("0a1b2c3d-4e5f-ffff-8c7d-9e0f1a2b3c4d") == "0a1b2c3d-4e5f-ffff-8c7d-9e0f1a2b3c4d");
  CHECK(tokens.token("0a1b2c3d-9999-4a6b-8c7d-9e0f1a2b3c4d") == "0a1b2c3d-999");
}

TEST_CASE("record headers: turn tag, draft, pre-turn, subagent parent, local instant") {
  HeaderTokens tokens;
  tokens.add(kSession.id);
  tokens.add(kAgent.id);
  const Record r = record_at(5);
  const Unit u = unit(Label::user_message, "x");
  CHECK(render_turn_tag(hit_for(r, u), tokens) == "0a1b2c3d\xC2\xB7t47");
  CHECK(render_turn_tag(hit_for(r, u, Pairing::none, kSession, RecordSource::transcript, -1), tokens) ==
        "0a1b2c3d\xC2\xB7pre");
  CHECK(render_turn_tag(hit_for(r, u, Pairing::none, kAgent, RecordSource::transcript, 2), tokens) ==
        "a1b2c3d4\xC2\xB7t2 (parent 0a1b2c3d)");
  const HitInput draft{&r, &u, &kSession, -1, true, Pairing::none, RecordSource::transcript, 1, nullptr};
  const json draft_hit = build_hit_json(draft, ExcerptPolicy::full_text());
  CHECK(draft_hit["turn_index"].is_null());
  CHECK(render_turn_tag(draft_hit, tokens) ==
        "0a1b2c3d\xC2\xB7"
        "draft");
  const std::string header = render_record_header(hit_for(r, u), tokens);
  CHECK(header == "0a1b2c3d\xC2\xB7t47 " + format_local(*parse_iso8601("2026-06-07T04:32:05.478Z"), true));
  Record no_ts = record_at(6, "u", "");
  CHECK(render_record_header(hit_for(no_ts, u), tokens) == "0a1b2c3d\xC2\xB7t47");
}

TEST_CASE("full text keeps its line breaks and indents continuations; search style folds them") {
  const Record r = record_at(7);
  const json hit = hit_for(r, unit(Label::agent_message, "line one\nline two"));
  CHECK(render_hit_line(hit) == " \xE2\x96\xB8 agent.message L7 line one\n    line two");
  CHECK(render_hit_line(hit, HitLineStyle{true}) == " \xE2\x96\xB8 agent.message L7 line one line two");
}

TEST_CASE("excerpts: full text is untouched; a centred window marks both cuts") {
  const std::string text = std::string(1000, 'a') + "NEEDLE" + std::string(1000, 'b');
  CHECK(apply_excerpt(text, ExcerptPolicy::full_text()).text == text);
  const Excerpt e = apply_excerpt(text, ExcerptPolicy::centered(1000, 1006, 100));
  CHECK(e.truncated);
  CHECK(e.text.find("NEEDLE") != std::string::npos);
  CHECK(e.text.rfind("(+953 chars) \xE2\x80\xA6", 0) == 0);
  const std::string tail = "\xE2\x80\xA6 (+953 chars)";
  CHECK(e.text.substr(e.text.size() - tail.size()) == tail);

  const Excerpt head = apply_excerpt(text, ExcerptPolicy::centered(0, 1, 10));  // no room on the left
  CHECK(head.text == "aaaaaaaaaa\xE2\x80\xA6 (+1996 chars)");
  const Excerpt short_text = apply_excerpt("short", ExcerptPolicy::centered(0, 5, 400));
  CHECK_FALSE(short_text.truncated);
  CHECK(short_text.text == "short");
}

TEST_CASE("excerpts count code points and never split a UTF-8 sequence") {
  std::string text;
  for (int i = 0; i < 50; ++i)
    text += "\xC3\xA9";  // é
  text += "X";
  for (int i = 0; i < 50; ++i)
    text += "\xC3\xA9";
  const size_t x = text.find('X');
  const Excerpt e = apply_excerpt(text, ExcerptPolicy::centered(x, x + 1, 11));
  CHECK(e.text ==
        "(+45 chars) \xE2\x80\xA6"
        "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9X\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xE2\x80\xA6 "
        "(+45 chars)");
}

}  // namespace record_render_unit
