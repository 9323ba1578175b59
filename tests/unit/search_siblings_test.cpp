// `search --siblings`: the fixed per-leaf caps, the gated-leaf law on the context surface, the hidden counts
// and turn span, and the text form with its `show` pointer.
#include <doctest/doctest.h>

#include <map>

#include "fake_scan.h"
#include "server/cli.h"
#include "temp_store.h"
#include "tools/search/search_siblings.h"

namespace search_siblings_unit {

using namespace csift;
using csift_test::fixture_transcript;
using csift_test::request;
using csift_test::TempStore;

namespace {

const std::string kSid = "51b11b5a-0000-4000-8000-000000000001";

std::string line(const std::string& type, const std::string& uuid, const std::string& content) {
  return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid + "\",\"sessionId\":\"" + kSid +
         "\",\"timestamp\":\"2026-06-07T04:32:00.000Z\",\"message\":{\"role\":\"" +
         (type == "user" ? "user" : "assistant") + "\",\"content\":" + content + "}}\n";
}

std::string use(int n) {
  return line("assistant", "a" + std::to_string(n),
              "[{\"type\":\"tool_use\",\"id\":\"toolu_" + std::to_string(n) +
                  "\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]");
}

std::string result(int n) {
  return line(
      "user", "r" + std::to_string(n),
      "[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_" + std::to_string(n) + "\",\"content\":\"ok\"}]");
}

// L1 the prompt · L2 three thinking blocks · L3-L12 five Bash use/result pairs · L13 the answer.
std::string busy_turn() {
  std::string t =
      line("user", "u1", "\"run the checks\"") +
      line("assistant", "t1",
           "[{\"type\":\"thinking\",\"thinking\":\"one\"},{\"type\":\"thinking\",\"thinking\":\"two\"},"
           "{\"type\":\"thinking\",\"thinking\":\"three\"}]");
  for (int n = 1; n <= 5; ++n)
    t += use(n) + result(n);
  return t + line("assistant", "m1", "[{\"type\":\"text\",\"text\":\"all green\"}]");
}

std::map<std::string, int> leaves_of(const TurnSiblings& s) {
  std::map<std::string, int> out;
  for (const auto& h : s.siblings)
    ++out[h["label"].get<std::string>()];
  return out;
}

}  // namespace

TEST_CASE("siblings: the fixed caps per leaf, messages always, the remainder counted per leaf") {
  TempStore store;
  Transcript t;
  t.path = store.write("-work-demo/" + kSid + ".jsonl", busy_turn());
  t.id = kSid;
  const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);
  const TurnSiblings s = select_siblings(request(), ct, 0, {{0, 0}});  // the prompt (entry 0) is the hit

  const auto shown = leaves_of(s);
  CHECK(shown.at("agent.thinking") == 2);
  CHECK(shown.at("agent.tool.use") == 3);
  CHECK(shown.at("agent.tool.result") == 3);
  CHECK(shown.at("agent.message") == 1);
  CHECK(shown.count("user.message") == 0);  // rendered by the exchange already
  CHECK(s.hidden == json({{"agent.thinking", 1}, {"agent.tool.use", 2}, {"agent.tool.result", 2}}));
  CHECK(s.hidden_total == 5);
  REQUIRE(s.turn_lines.has_value());
  CHECK(s.turn_lines->first == 1);
  CHECK(s.turn_lines->second == 13);
  CHECK(s.siblings[0]["sibling"] == true);
  CHECK(s.siblings[0]["matched"] == false);
  CHECK(s.siblings[0]["line"] == 2);
  CHECK(s.siblings.back()["line"] == 13);  // file order
}

TEST_CASE("siblings: the policy table") {
  CHECK_FALSE(sibling_cap(Label::user_message).has_value());
  CHECK_FALSE(sibling_cap(Label::agent_message).has_value());
  CHECK_FALSE(sibling_cap(Label::agent_communication_inbox).has_value());
  CHECK(sibling_cap(Label::agent_thinking) == 2);
  CHECK(sibling_cap(Label::agent_thinking_narration) == 1);
  CHECK(sibling_cap(Label::agent_tool_use) == 3);
  CHECK(sibling_cap(Label::agent_tool_result) == 3);
  CHECK(sibling_cap(Label::harness_notification_task) == 2);
  CHECK(sibling_cap(Label::harness_compaction_summary) == 2);
}

TEST_CASE(
    "siblings: gated leaves and attachments stay off the context surface unless the request reached them") {
  SearchRequest plain = request();
  CHECK_FALSE(sibling_visible(plain, Label::harness_meta_turn_duration));
  CHECK_FALSE(sibling_visible(plain, Label::harness_meta_attachment));
  CHECK(sibling_visible(plain, Label::harness_compaction_boundary));
  CHECK(sibling_visible(request({"harness.meta.turn-duration"}), Label::harness_meta_turn_duration));
  plain.attachments = true;
  CHECK(sibling_visible(plain, Label::harness_meta_attachment));

  // Basics turn 1 (L11-L17): the stop-hooks and turn-duration records (L15, L16) are gated.
  const ClassifiedTranscript ct = load_classified_transcript(
      fixture_transcript("-home-dev-projects-csift-demo", "11111111-1111-4111-8111-000000000001"), false,
      nullptr);
  const TurnSiblings s = select_siblings(request(), ct, 1, {});
  for (const auto& h : s.siblings) {
    CHECK(h["line"] != 15);
    CHECK(h["line"] != 16);
  }
  CHECK(s.hidden.empty());
  REQUIRE(s.turn_lines.has_value());
  CHECK(s.turn_lines->first == 11);
  CHECK(s.turn_lines->second == 17);
}

TEST_CASE("siblings text: one context line per sibling and the exact show pointer for what the caps hid") {
  ToolContext cli;
  cli.spell_call = render_continuation_cli;
  json exchange = {{"kind", "exchange"}, {"session_id", kSid}};
  CHECK(render_siblings_text(exchange, cli).empty());
  json sib = {{"label", "agent.message"}, {"line", 13}, {"text", "all green"}, {"pairing", nullptr}};
  exchange["siblings"] = json::array({sib});
  exchange["siblings_hidden"] = {{"agent.tool.use", 2}, {"agent.thinking", 1}};
  exchange["turn_lines"] = {1, 13};
  CHECK(render_siblings_text(exchange, cli) ==
        "  \xC2\xB7 \xE2\x96\xB8 agent.message L13 all green\n"
        "  \xC2\xB7 (+3 more \xC2\xB7 csift-mcp --cli show @" +
            kSid + " --line 1..13)\n");
  // Over MCP (no spelling set) the same pointer is the show call with its arguments.
  CHECK(render_siblings_text(exchange, ToolContext{})
            .find("more \xC2\xB7 show {\"targets\":[\"@" + kSid + "\"],\"line\":[\"1..13\"]})") !=
        std::string::npos);
}

}  // namespace search_siblings_unit
