// The 34-leaf `role.class.sub` taxonomy (SPEC.md §4) and the -t/-T selector grammar.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

enum class Label : uint8_t {
  user_message,
  user_answer,
  user_rejection,
  user_unsent,
  user_queued,
  agent_message,
  agent_thinking,
  agent_thinking_narration,
  agent_tool_use,
  agent_tool_result,
  agent_communication_inbox,
  agent_communication_sent,
  agent_communication_signal,
  harness_notification_workflow,
  harness_notification_monitor,
  harness_notification_subagent,
  harness_notification_background_command,
  harness_notification_task,
  harness_compaction_summary,
  harness_compaction_boundary,
  harness_command_invocation,
  harness_command_stdout,
  harness_interrupt_user,
  harness_interrupt_tool,
  harness_schedule_wakeup,
  harness_schedule_continuation,
  harness_meta_hook,
  harness_meta_loop,
  harness_meta_attachment,
  harness_meta_turn_duration,
  harness_meta_away_summary,
  harness_meta_stop_hooks,
  harness_meta_snapshot,
  harness_meta_system,
};
inline constexpr size_t kLabelCount = 34;

enum class Role : uint8_t { user, agent, harness };

// All leaves in taxonomy order (the single source of truth for help text and selector errors).
const std::array<Label, kLabelCount>& all_labels();
std::string_view label_path(Label l);  // "agent.tool.use"
std::optional<Label> label_from_path(std::string_view path);
Role label_role(Label l);
std::string_view role_glyph(Role r);  // "◂" user, "▸" agent, "⚙" harness
// LLM-invisible leaves: reached by a bare role selector only when named explicitly (spec v0.9.4 ⑦).
bool label_llm_visible(Label l);
// Gated leaves: their lines are parsed only under an explicit selector reaching them (v0.10.0 ⑥),
// or under an explicit show address. harness.meta.attachment/hook-attachment have their own gate.
bool label_gated(Label l);
// Richness rank: lower = richer. Used to pick the rendered view among a record's surviving labels.
int label_richness(Label l);

// A set of leaves as a bitmask.
struct LabelSet {
  uint64_t bits = 0;
  void add(Label l) { bits |= (uint64_t{1} << static_cast<int>(l)); }
  bool has(Label l) const { return bits & (uint64_t{1} << static_cast<int>(l)); }
  bool empty() const { return bits == 0; }
  static LabelSet all();
};

// -t/-T: parsed selectors. `role` bare selectors expand to LLM-visible leaves; `prefix.*` globs expand to
// every leaf under the prefix; an intermediate prefix or a full leaf path reaches its full set.
struct LabelFilter {
  std::vector<std::string> include_selectors;  // as typed (for echoes)
  std::vector<std::string> exclude_selectors;
  LabelSet include;  // effective include set (all leaves when no -t)
  LabelSet exclude;
  bool has_include = false;
  LabelSet effective() const { return LabelSet{include.bits & ~exclude.bits}; }
  bool admits(Label l) const { return effective().has(l); }
  // True when an explicit -t selector reaches the leaf (the gated-leaf law).
  bool explicitly_reaches(Label l) const { return has_include && include.has(l); }
};

// Parses -t/-T values. Throws ToolError(usage) on a legacy flat value (thinking/tool/tool-response),
// an unknown selector (the message lists the valid ones) or a statically empty effective set.
LabelFilter parse_label_filter(const std::vector<std::string>& include,
                               const std::vector<std::string>& exclude);

// Expands one selector to its leaf set; std::nullopt when it names nothing.
std::optional<LabelSet> expand_selector(std::string_view selector);

// Text listing all valid selectors (roles, class prefixes, leaves), for help and errors.
std::string valid_selectors_text();

}  // namespace csift
