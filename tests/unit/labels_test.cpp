// The taxonomy table and the -t/-T selector grammar.
#include <doctest/doctest.h>

#include <set>

#include "core/base/error.h"
#include "core/record/labels.h"

namespace labels_unit {

using namespace csift;

namespace {
std::set<std::string> paths(LabelSet s) {
  std::set<std::string> out;
  for (Label l : all_labels()) {
    if (s.has(l)) out.insert(std::string(label_path(l)));
  }
  return out;
}
std::string usage_message(const std::vector<std::string>& inc, const std::vector<std::string>& exc) {
  try {
    parse_label_filter(inc, exc);
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("34 leaves in taxonomy order with round-tripping paths") {
  REQUIRE(all_labels().size() == 34);
  CHECK(label_path(all_labels().front()) == "user.message");
  CHECK(label_path(all_labels().back()) == "harness.meta.system");
  std::set<std::string> seen;
  for (Label l : all_labels()) {
    auto p = label_path(l);
    CHECK(label_from_path(p) == l);
    seen.insert(std::string(p));
  }
  CHECK(seen.size() == 34);
  CHECK(label_path(Label::harness_notification_background_command) ==
        "harness.notification.background-command");
  CHECK_FALSE(label_from_path("agent.tool").has_value());
}

TEST_CASE("roles, glyphs, visibility and gates") {
  CHECK(label_role(Label::agent_communication_inbox) == Role::agent);
  CHECK(label_role(Label::user_queued) == Role::user);
  CHECK(label_role(Label::harness_meta_system) == Role::harness);
  CHECK(role_glyph(Role::user) == "◂");
  CHECK(role_glyph(Role::agent) == "▸");
  CHECK(role_glyph(Role::harness) == "⚙");
  std::set<std::string> invisible, gated;
  for (Label l : all_labels()) {
    if (!label_llm_visible(l)) invisible.insert(std::string(label_path(l)));
    if (label_gated(l)) gated.insert(std::string(label_path(l)));
  }
  CHECK(invisible == std::set<std::string>{"user.unsent", "user.queued", "harness.compaction.boundary",
                                           "harness.meta.turn-duration", "harness.meta.away-summary",
                                           "harness.meta.stop-hooks", "harness.meta.snapshot",
                                           "harness.meta.system"});
  CHECK(gated == std::set<std::string>{"user.queued", "harness.meta.turn-duration",
                                       "harness.meta.away-summary", "harness.meta.stop-hooks",
                                       "harness.meta.snapshot", "harness.meta.system"});
  CHECK(label_llm_visible(Label::harness_meta_attachment));
}

TEST_CASE("richest-first ranks") {
  CHECK(label_richness(Label::user_answer) < label_richness(Label::agent_tool_result));
  CHECK(label_richness(Label::user_rejection) < label_richness(Label::agent_tool_result));
  CHECK(label_richness(Label::user_message) < label_richness(Label::harness_command_invocation));
  CHECK(label_richness(Label::agent_communication_sent) < label_richness(Label::agent_tool_use));
  CHECK(label_richness(Label::agent_communication_signal) < label_richness(Label::agent_tool_use));
  CHECK(label_richness(Label::agent_communication_inbox) < label_richness(Label::agent_tool_result));
  std::set<int> ranks;
  for (Label l : all_labels())
    ranks.insert(label_richness(l));
  CHECK(ranks.size() == 34);
}

TEST_CASE("selector expansion") {
  // A bare role names the LLM-visible leaves only.
  CHECK(paths(*expand_selector("user")) ==
        std::set<std::string>{"user.message", "user.answer", "user.rejection"});
  CHECK_FALSE(expand_selector("harness")->has(Label::harness_compaction_boundary));
  CHECK(expand_selector("harness")->has(Label::harness_compaction_summary));
  // A glob reaches every leaf under its prefix.
  CHECK(paths(*expand_selector("user.*")).size() == 5);
  CHECK(expand_selector("harness.meta.*")->has(Label::harness_meta_snapshot));
  // Intermediate prefixes and full leaf paths keep their full sets.
  CHECK(expand_selector("harness.compaction")->has(Label::harness_compaction_boundary));
  CHECK(paths(*expand_selector("agent.thinking")) ==
        std::set<std::string>{"agent.thinking", "agent.thinking.narration"});
  CHECK(paths(*expand_selector("agent.tool")) ==
        std::set<std::string>{"agent.tool.use", "agent.tool.result"});
  CHECK(paths(*expand_selector("user.unsent")) == std::set<std::string>{"user.unsent"});
  // Dot-SEGMENT prefix: a partial segment names nothing.
  CHECK_FALSE(expand_selector("agent.tho").has_value());
  CHECK_FALSE(expand_selector("bogus").has_value());
  CHECK_FALSE(expand_selector("nothing.*").has_value());
}

TEST_CASE("label filter sets and errors") {
  LabelFilter none = parse_label_filter({}, {});
  CHECK_FALSE(none.has_include);
  CHECK(none.admits(Label::user_unsent));
  CHECK_FALSE(none.explicitly_reaches(Label::user_queued));

  LabelFilter f = parse_label_filter({"agent.thinking"}, {"agent.thinking.narration"});
  CHECK(f.admits(Label::agent_thinking));
  CHECK_FALSE(f.admits(Label::agent_thinking_narration));
  CHECK(f.explicitly_reaches(Label::agent_thinking_narration));

  LabelFilter meta = parse_label_filter({"harness.meta"}, {});
  CHECK(meta.explicitly_reaches(Label::harness_meta_turn_duration));

  std::string legacy = usage_message({"thinking"}, {});
  CHECK(legacy.find("'thinking' is the pre-v0.5 flat spelling — today that is agent.thinking") == 0);
  CHECK(legacy.find("agent.communication.inbox") != std::string::npos);
  CHECK(usage_message({"tool"}, {}).find("today that is agent.tool\n") != std::string::npos);
  CHECK(usage_message({}, {"tool-response"}).find("agent.tool.result") != std::string::npos);

  std::string unknown = usage_message({"agent.bogus"}, {});
  CHECK(unknown.find("'agent.bogus' names no label") != std::string::npos);
  CHECK(unknown.find("harness.meta.stop-hooks") != std::string::npos);

  std::string empty = usage_message({"agent.tool.use"}, {"agent.tool"});
  CHECK(empty.find("selects nothing") != std::string::npos);
  CHECK(usage_message({}, {"user.*", "agent", "agent.*", "harness.*"}).find("selects nothing") !=
        std::string::npos);
}

TEST_CASE("valid selector text lists roles, classes and leaves") {
  std::string t = valid_selectors_text();
  CHECK(t.find("user, agent, harness") != std::string::npos);
  CHECK(t.find("agent.communication") != std::string::npos);
  CHECK(t.find("harness.meta.system") != std::string::npos);
}

}  // namespace labels_unit
