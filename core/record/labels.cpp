// The 34-leaf taxonomy and the -t/-T selector grammar (SPEC.md §4, v0.9.4 ⑦, v0.10.0 ⑥).
//
// LLM visibility (v0.9.4 ⑦ + v0.10.0 ⑤ + v0.10.1 ⑨): the spec's instrument is "does the line carry a
// `message{}` the API is sent". Two leaves were the original invisible pair — user.unsent (a superseded
// draft, outside the surviving conversation) and harness.compaction.boundary (no message field) — and every
// promoted non-message line type is invisible by the same instrument: user.queued and the five
// harness.meta.{turn-duration, away-summary, stop-hooks, snapshot, system} leaves. That makes EIGHT
// invisible leaves (v0.10.2 ⑥ "the eight invisible leaves"). harness.meta.attachment stays visible: hook
// context and attachments are sent to the model; it is reached through its own gate instead.
#include "core/record/labels.h"

#include <string>

#include "core/base/arg_ref.h"
#include "core/base/error.h"

namespace csift {

namespace {

struct LeafInfo {
  Label label;
  std::string_view path;
  Role role;
  bool llm_visible;
  bool gated;
};

constexpr std::array<LeafInfo, kLabelCount> kLeaves = {{
    {Label::user_message, "user.message", Role::user, true, false},
    {Label::user_answer, "user.answer", Role::user, true, false},
    {Label::user_rejection, "user.rejection", Role::user, true, false},
    {Label::user_unsent, "user.unsent", Role::user, false, false},
    {Label::user_queued, "user.queued", Role::user, false, true},
    {Label::agent_message, "agent.message", Role::agent, true, false},
    {Label::agent_thinking, "agent.thinking", Role::agent, true, false},
    {Label::agent_thinking_narration, "agent.thinking.narration", Role::agent, true, false},
    {Label::agent_tool_use, "agent.tool.use", Role::agent, true, false},
    {Label::agent_tool_result, "agent.tool.result", Role::agent, true, false},
    {Label::agent_communication_inbox, "agent.communication.inbox", Role::agent, true, false},
    {Label::agent_communication_sent, "agent.communication.sent", Role::agent, true, false},
    {Label::agent_communication_signal, "agent.communication.signal", Role::agent, true, false},
    {Label::harness_notification_workflow, "harness.notification.workflow", Role::harness, true, false},
    {Label::harness_notification_monitor, "harness.notification.monitor", Role::harness, true, false},
    {Label::harness_notification_subagent, "harness.notification.subagent", Role::harness, true, false},
    {Label::harness_notification_background_command, "harness.notification.background-command", Role::harness,
     true, false},
    {Label::harness_notification_task, "harness.notification.task", Role::harness, true, false},
    {Label::harness_compaction_summary, "harness.compaction.summary", Role::harness, true, false},
    {Label::harness_compaction_boundary, "harness.compaction.boundary", Role::harness, false, false},
    {Label::harness_command_invocation, "harness.command.invocation", Role::harness, true, false},
    {Label::harness_command_stdout, "harness.command.stdout", Role::harness, true, false},
    {Label::harness_interrupt_user, "harness.interrupt.user", Role::harness, true, false},
    {Label::harness_interrupt_tool, "harness.interrupt.tool", Role::harness, true, false},
    {Label::harness_schedule_wakeup, "harness.schedule.wakeup", Role::harness, true, false},
    {Label::harness_schedule_continuation, "harness.schedule.continuation", Role::harness, true, false},
    {Label::harness_meta_hook, "harness.meta.hook", Role::harness, true, false},
    {Label::harness_meta_loop, "harness.meta.loop", Role::harness, true, false},
    {Label::harness_meta_attachment, "harness.meta.attachment", Role::harness, true, false},
    {Label::harness_meta_turn_duration, "harness.meta.turn-duration", Role::harness, false, true},
    {Label::harness_meta_away_summary, "harness.meta.away-summary", Role::harness, false, true},
    {Label::harness_meta_stop_hooks, "harness.meta.stop-hooks", Role::harness, false, true},
    {Label::harness_meta_snapshot, "harness.meta.snapshot", Role::harness, false, true},
    {Label::harness_meta_system, "harness.meta.system", Role::harness, false, true},
}};

const LeafInfo& info(Label l) {
  return kLeaves[static_cast<size_t>(l)];
}

// Richest-first (SPEC.md §4): the human's words beat the carrier they ride on, comm views beat the raw tool
// block, prose beats the wrapper. Harness leaves follow in taxonomy order.
constexpr Label kRichness[] = {
    Label::user_answer,
    Label::user_rejection,
    Label::user_message,
    Label::user_unsent,
    Label::user_queued,
    Label::agent_communication_inbox,
    Label::agent_communication_signal,
    Label::agent_communication_sent,
    Label::agent_message,
    Label::agent_thinking_narration,
    Label::agent_thinking,
    Label::agent_tool_use,
    Label::agent_tool_result,
};

// Pre-v0.5 flat spellings and their successors (hard errors, v0.6.2 item 5).
struct LegacySelector {
  std::string_view flat;
  std::string_view successor;
};
constexpr LegacySelector kLegacy[] = {
    {"thinking", "agent.thinking"}, {"tool", "agent.tool"}, {"tool-response", "agent.tool.result"}};

// `prefix` names `path` or one of its dot-segment ancestors.
bool segment_prefix(std::string_view prefix, std::string_view path) {
  if (path.size() < prefix.size() || path.substr(0, prefix.size()) != prefix) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.';
}

}  // namespace

const std::array<Label, kLabelCount>& all_labels() {
  static const std::array<Label, kLabelCount> labels = [] {
    std::array<Label, kLabelCount> a{};
    for (size_t i = 0; i < kLabelCount; ++i)
      a[i] = kLeaves[i].label;
    return a;
  }();
  return labels;
}

std::string_view label_path(Label l) {
  return info(l).path;
}

std::optional<Label> label_from_path(std::string_view path) {
  for (const auto& leaf : kLeaves) {
    if (leaf.path == path) return leaf.label;
  }
  return std::nullopt;
}

Role label_role(Label l) {
  return info(l).role;
}

std::string_view role_glyph(Role r) {
  switch (r) {
    case Role::user:
      return "◂";
    case Role::agent:
      return "▸";
    default:
      return "⚙";
  }
}

bool label_llm_visible(Label l) {
  return info(l).llm_visible;
}
bool label_gated(Label l) {
  return info(l).gated;
}

int label_richness(Label l) {
  int rank = 0;
  for (Label r : kRichness) {
    if (r == l) return rank;
    ++rank;
  }
  return rank + static_cast<int>(l);
}

LabelSet LabelSet::all() {
  LabelSet s;
  for (Label l : all_labels())
    s.add(l);
  return s;
}

std::optional<LabelSet> expand_selector(std::string_view selector) {
  LabelSet out;
  bool glob = selector.size() > 2 && selector.substr(selector.size() - 2) == ".*";
  std::string_view prefix = glob ? selector.substr(0, selector.size() - 2) : selector;
  bool bare_role = !glob && (prefix == "user" || prefix == "agent" || prefix == "harness");
  for (const auto& leaf : kLeaves) {
    if (!segment_prefix(prefix, leaf.path)) continue;
    if (bare_role && !leaf.llm_visible) continue;  // v0.9.4 ⑦: a bare role names the visible leaves
    out.add(leaf.label);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::string valid_selectors_text() {
  std::string roles, prefixes, leaves;
  std::vector<std::string> seen;
  for (const auto& leaf : kLeaves) {
    std::string_view path = leaf.path;
    // Every proper dot-prefix of a leaf is an intermediate selector (role, class).
    for (size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', dot + 1)) {
      std::string p(path.substr(0, dot));
      bool known = false;
      for (const auto& s : seen)
        known = known || s == p;
      if (known) continue;
      seen.push_back(p);
      std::string& list = p.find('.') == std::string::npos ? roles : prefixes;
      list += (list.empty() ? "" : ", ") + p;
    }
    leaves += (leaves.empty() ? "" : ", ") + std::string(path);
  }
  return "valid selectors — roles (LLM-visible leaves only): " + roles +
         "; classes (each also as <prefix>.* for every leaf under it, visibility ignored): " + prefixes +
         "; leaves: " + leaves;
}

namespace {

LabelSet expand_all(const std::vector<std::string>& selectors, const std::string& flag) {
  LabelSet set;
  for (const auto& sel : selectors) {
    for (const auto& legacy : kLegacy) {
      if (sel == legacy.flat) {
        usage_error("'" + sel + "' is the pre-v0.5 flat spelling — today that is " +
                    std::string(legacy.successor) + "\n" + valid_selectors_text());
      }
    }
    auto expanded = expand_selector(sel);
    if (!expanded)
      usage_error(std::string(flag) + " '" + sel + "' names no label\n" + valid_selectors_text());
    set.bits |= expanded->bits;
  }
  return set;
}

}  // namespace

LabelFilter parse_label_filter(const std::vector<std::string>& include,
                               const std::vector<std::string>& exclude) {
  LabelFilter f;
  f.include_selectors = include;
  f.exclude_selectors = exclude;
  f.has_include = !include.empty();
  f.include = f.has_include ? expand_all(include, arg_ref("label", true)) : LabelSet::all();
  f.exclude = expand_all(exclude, arg_ref("label_not", true));
  if (f.effective().empty()) {
    usage_error("the label filter selects nothing: every leaf the " + arg_ref("label", true) +
                " selectors reach is excluded by " + arg_ref("label_not", true) + "\n" +
                valid_selectors_text());
  }
  return f;
}

}  // namespace csift
