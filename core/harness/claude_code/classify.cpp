// classify_record: one physical record -> taxonomy Units (SPEC.md §4, Labels). Assistant records yield one
// unit per block, tool_result carriers one per tool_result, batched user records one per section; everything
// else is a single record-level unit. Labels are richest-first; a record with no label yields no unit.
#include <nlohmann/json.hpp>
#include <optional>

#include "core/base/envelope.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/stored_json.h"

namespace csift {

using namespace detail;

namespace {

const std::string kSelf = "self";

Unit make_unit(std::initializer_list<Label> labels, std::string text, int block_index = -1) {
  Unit u;
  u.labels.assign(labels);
  u.text = std::move(text);
  u.block_index = block_index;
  return u;
}

std::string lookup(const std::unordered_map<std::string, std::string>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? "" : it->second;
}

bool is_spawn_tool(std::string_view name) {
  return name == "Task" || name == "Agent" || name == "Workflow";
}

// SendMessage carries a control signal when its type (top-level or message.type) is not a plain message.
bool send_message_is_signal(const nlohmann::json& input) {
  std::string t = json_string_at(input, "type");
  if (t.empty()) {
    auto m = input.find("message");
    if (m != input.end() && m->is_object()) t = json_string_at(*m, "type");
  }
  return !t.empty() && t != "message" && t != "direct";
}

Unit tool_use_unit(const Block& b, int index, ClassifyContext& ctx) {
  Unit u = make_unit({Label::agent_tool_use}, tool_use_text(b), index);
  u.is_tool_use = true;
  u.tool_name = b.name;
  u.tool_use_id = b.id;
  if (!b.id.empty()) ctx.tool_names[b.id] = b.name;
  // Only these three tools read their input here (an Edit's or Write's input can be a whole file).
  if (!tool_input_classifies(b.name)) return u;
  const nlohmann::json input = parse_stored_object(b.input_json);
  if (b.name == "ExitPlanMode") {
    for (const char* key : {"planFilePath", "plan_file_path", "filePath"}) {
      std::string path = json_string_at(input, key);
      if (!path.empty() && !b.id.empty()) ctx.plan_paths[b.id] = path;
    }
  }
  if (b.name == "SendMessage") {
    u.labels.insert(u.labels.begin(), send_message_is_signal(input) ? Label::agent_communication_signal
                                                                    : Label::agent_communication_sent);
    u.from = kSelf;
    u.to = json_string_at(input, "to");
    if (u.to.empty()) u.to = json_string_at(input, "recipient");
    if (u.to.empty()) u.to = "?";
  } else if (is_spawn_tool(b.name)) {
    u.labels.insert(u.labels.begin(), Label::agent_communication_sent);
    u.from = kSelf;
    u.to = lookup(ctx.spawned_child, b.id);
    if (u.to.empty()) u.to = json_string_at(input, "name");
    if (u.to.empty()) u.to = json_string_at(input, "subagent_type");
    if (u.to.empty()) u.to = "?";
  }
  return u;
}

void classify_assistant(const Record& r, ClassifyContext& ctx, std::vector<Unit>& out) {
  if (r.message.content_is_string) {
    if (!trim(r.message.content_string).empty())
      out.push_back(make_unit({Label::agent_message}, r.message.content_string));
    return;
  }
  for (size_t i = 0; i < r.message.blocks.size(); ++i) {
    const Block& b = r.message.blocks[i];
    int index = static_cast<int>(i);
    switch (b.kind) {
      case BlockKind::text:
        if (!trim(b.text).empty()) out.push_back(make_unit({Label::agent_message}, b.text, index));
        break;
      case BlockKind::thinking:
        if (is_narration_signature(b.signature)) {
          out.push_back(make_unit({Label::agent_thinking_narration}, b.text, index));
          out.back().marker = "[narration summary]";
        } else {
          out.push_back(make_unit({Label::agent_thinking}, b.text, index));
        }
        break;
      case BlockKind::redacted_thinking:
        out.push_back(make_unit({Label::agent_thinking}, "[redacted thinking]", index));
        break;
      case BlockKind::tool_use:
        out.push_back(tool_use_unit(b, index, ctx));
        break;
      case BlockKind::tool_result: {
        Unit u = make_unit({Label::agent_tool_result}, b.content_text, index);
        u.is_tool_result = true;
        u.tool_use_id = b.tool_use_id;
        u.tool_name = lookup(ctx.tool_names, b.tool_use_id);
        u.is_error = b.is_error;
        u.marker = status_marker_of(b);
        out.push_back(std::move(u));
        break;
      }
      default:
        break;
    }
  }
}

// A spawn tool_result that only acknowledges the launch (teammate spawn / async agent) is not the return.
bool is_spawn_launch_ack(const StoredObject& tur, const Block& b) {
  const std::string status = tur.string_field("status");
  return status == "teammate_spawned" || status == "async_launched" || tur.bool_field("isAsync") == true ||
         starts_with(b.content_text, kAsyncLaunchAck);
}

// A result the harness wrote instead of running the tool (`<tool_use_error>InputValidationError…`, a
// cancelled sibling call): no subagent ran, so a spawn's refusal is a plain errored tool result.
bool is_harness_refusal(const Block& b) {
  return b.is_error && starts_with(trim_start(b.content_text), kToolUseError);
}

Unit tool_result_unit(const Record& r, const Block& b, int index, bool auq_block, ClassifyContext& ctx,
                      const StoredObject& tur) {
  Unit u = make_unit({Label::agent_tool_result}, b.content_text, index);
  u.is_tool_result = true;
  u.tool_use_id = b.tool_use_id;
  u.tool_name = lookup(ctx.tool_names, b.tool_use_id);
  u.is_error = b.is_error;
  u.images = b.content_images;
  if (b.is_error) u.marker = "[error]";
  if (b.has_result_status()) u.marker = status_marker_of(b);
  if (u.tool_name == "ExitPlanMode" && !b.tool_use_id.empty()) {
    std::string path = tur.string_field("filePath");
    if (path.empty()) path = tur.string_field("planFilePath");
    if (!path.empty()) ctx.plan_paths[b.tool_use_id] = path;
  }
  if (auq_block) {
    u.labels = {Label::user_answer, Label::agent_tool_result};
    u.source_text = b.content_text;
    u.text = auq_exchange_text(r, b.content_text);
    return u;
  }
  if (auto typed = rejection_typed_message(b)) {
    u.labels = {Label::user_rejection, Label::agent_tool_result};
    u.source_text = b.content_text;
    u.text = *typed;
    std::string plan = lookup(ctx.plan_paths, b.tool_use_id);
    if (!plan.empty()) u.text += "\n[plan: " + plan + "]";
    return u;
  }
  std::string child = lookup(ctx.spawned_child, b.tool_use_id);
  bool spawn_result = !child.empty() || u.tool_name == "Task" || u.tool_name == "Agent";
  if (spawn_result && !is_spawn_launch_ack(tur, b) && !is_harness_refusal(b)) {
    u.labels = {Label::agent_communication_inbox, Label::agent_tool_result};
    if (child.empty()) child = tur.string_field("agentId");
    u.from = child.empty() ? "?" : child;
    u.to = kSelf;
  }
  return u;
}

void classify_tool_results(const Record& r, ClassifyContext& ctx, std::vector<Unit>& out) {
  const StoredObject tur(cc(r).tool_use_result_json);
  bool auq = is_auq_answer(r);
  // The answer's dual label belongs to the AskUserQuestion result (by tool name or phrasing); a lone
  // tool_result on an answered carrier is that result.
  size_t results = 0, auq_index = SIZE_MAX;
  for (size_t i = 0; i < r.message.blocks.size(); ++i) {
    const Block& b = r.message.blocks[i];
    if (b.kind != BlockKind::tool_result) continue;
    ++results;
    bool named = lookup(ctx.tool_names, b.tool_use_id) == "AskUserQuestion";
    bool phrased = false;
    for (auto m : kAuqAnswerMarkers)
      phrased = phrased || starts_with(trim_start(b.content_text), m);
    if (auq && auq_index == SIZE_MAX && (named || phrased)) auq_index = i;
  }
  for (size_t i = 0; i < r.message.blocks.size(); ++i) {
    const Block& b = r.message.blocks[i];
    if (b.kind != BlockKind::tool_result) continue;
    bool auq_block = auq && (i == auq_index || (auq_index == SIZE_MAX && results == 1));
    out.push_back(tool_result_unit(r, b, static_cast<int>(i), auq_block, ctx, tur));
  }
}

// The string (or joined text-block) body of a user record that carries no section and no tool_result.
void classify_user_text(const Record& r, const std::string& s, bool first_opener, ClassifyContext& ctx,
                        std::vector<Unit>& out) {
  if (s == kInterruptUser) return out.push_back(make_unit({Label::harness_interrupt_user}, s));
  if (s == kInterruptTool) return out.push_back(make_unit({Label::harness_interrupt_tool}, s));
  if (starts_with(s, kLocalCommandStdout) || is_bash_output_text(s))
    return out.push_back(make_unit({Label::harness_command_stdout}, s));
  if (is_bash_input_text(s)) {
    // `!cmd` typed in bash mode: the human's command, run by the harness and never answered by the agent —
    // user.message like a slash command's arguments, rendered `! <cmd>`, and (like it) no turn opener.
    Unit u = make_unit({Label::user_message, Label::harness_command_invocation},
                       "! " + xml_tag(s, "bash-input").value_or(""));
    u.source_text = s;
    return out.push_back(std::move(u));
  }
  if (is_slash_wrapper_text(s)) {
    std::string name = xml_tag(s, "command-name").value_or("");
    std::string args = one_line(xml_tag(s, "command-args").value_or(""));
    if (args.empty()) return out.push_back(make_unit({Label::harness_command_invocation}, s));
    if (!starts_with(name, "/")) name = "/" + name;
    Unit u = make_unit({Label::user_message, Label::harness_command_invocation}, name + " " + args);
    u.source_text = s;
    return out.push_back(std::move(u));
  }
  if (contains(s, kWakeupSentinel) || starts_with(s, kWakeupLoopCheck) || contains(s, kWakeupTimer)) {
    return out.push_back(make_unit({Label::harness_schedule_wakeup}, s));
  }
  if (starts_with(trim_start(s), kContinuation)) {
    return out.push_back(make_unit({Label::harness_schedule_continuation}, s));
  }
  if (starts_with(s, kStopHookFeedback) || starts_with(s, kLocalCommandCaveat) || contains(s, kEditRetry)) {
    return out.push_back(make_unit({Label::harness_meta_hook}, s));
  }
  if (starts_with(s, kLoopTick) || contains(s, kAutonomousCheck)) {
    return out.push_back(make_unit({Label::harness_meta_loop}, s));
  }
  if (starts_with(s, kImageSource)) return;  // an isMeta image reference: no label, never user.message
  if (is_agents_stopped_notice(s)) {
    Unit u = make_unit({Label::harness_notification_subagent}, "[subagent stopped] " + one_line(s));
    u.source_text = s;
    return out.push_back(std::move(u));
  }
  if (!ctx.is_subagent && is_inline_sidechain(r)) {
    // Claude Code 1.x wrote a subagent's records inline in the session file: its prompt is the subagent's
    // inbox (the inline sidechain has no id of its own), never the human of this session.
    Unit u = make_unit({Label::agent_communication_inbox}, s);
    u.from = "parent";
    u.to = "sidechain";
    return out.push_back(std::move(u));
  }
  if (ctx.is_subagent && first_opener && !ctx.is_fork_clone) {
    // The delivered spawn prompt of a subagent transcript: parent ⇨ self (a /fork clone has no such seed).
    Unit u = make_unit({Label::agent_communication_inbox}, s);
    u.from = ctx.parent_id.empty() ? "parent" : ctx.parent_id;
    u.to = kSelf;
    return out.push_back(std::move(u));
  }
  if (!cc(r).is_meta)
    out.push_back(make_unit({Label::user_message}, s));  // a genuine user.message is never isMeta
}

void classify_sections(const std::vector<Section>& sections, ClassifyContext& ctx, std::vector<Unit>& out) {
  for (const auto& s : sections) {
    Unit u = make_unit({s.label}, s.text);
    u.source_text = s.source_text;
    if (s.kind == Section::Kind::notification) {
      u.tool_use_id = s.tool_use_id;
    } else if (s.kind == Section::Kind::notification_result) {
      std::string child = lookup(ctx.spawned_child, s.tool_use_id);
      u.from = child.empty() ? "?" : child;
      u.to = kSelf;
      u.tool_use_id = s.tool_use_id;
      if (!out.empty()) {  // the pulse of this section was emitted just before its report
        u.section_labels = out.back().labels;
        out.back().section_labels = u.labels;
      }
    } else {
      u.from = s.from;
      u.to = kSelf;
    }
    out.push_back(std::move(u));
  }
}

void classify_user(const Record& r, ClassifyContext& ctx, std::vector<Unit>& out) {
  bool opener = opens_turn(r);
  bool first_opener = opener && !ctx.opener_seen;
  if (opener) ctx.opener_seen = true;
  if (cc(r).is_compact_summary) {
    out.push_back(make_unit({Label::harness_compaction_summary}, user_text(r)));
    return;
  }
  if (is_tool_result_carrier(r)) {
    classify_tool_results(r, ctx, out);
    return;
  }
  std::string text = user_text(r);
  if (text.find('<') != std::string::npos) {
    auto sections = scan_sections(text);
    if (!sections.empty()) return classify_sections(sections, ctx, out);
  }
  if (trim(text).empty()) return;  // image-only or empty: nothing in the taxonomy
  classify_user_text(r, text, first_opener, ctx, out);
  if (!out.empty()) {
    int images = 0;
    for (const auto& b : r.message.blocks)
      images += b.kind == BlockKind::image ? 1 : 0;
    out.back().images = images;
  }
}

// queue-operation: the human's queued text (user.queued) — a harness rider (a queued notification or peer
// message) carries no label of its own (the rider is labelled where it is delivered). A content-less
// operation (a dequeue, a removal without text) is queue bookkeeping: harness.meta.system, so every record of
// a transcript has a label.
void classify_queue(const Record& r, std::vector<Unit>& out) {
  const std::string& text = r.content_text;
  if (trim(text).empty()) {
    Unit u = make_unit({Label::harness_meta_system}, "[queue-operation " + cc(r).operation + "]");
    u.queue_operation = cc(r).operation;
    return out.push_back(std::move(u));
  }
  if (starts_with(trim_start(text), kTaskNotificationOpen) || is_peer_message_text(text)) return;
  Unit u = make_unit({Label::user_queued}, text);
  u.queue_operation = cc(r).operation;
  u.queue_reason = cc(r).reason;
  u.marker = "[" + cc(r).operation + (cc(r).reason.empty() ? "" : " · " + cc(r).reason) + "]";
  out.push_back(std::move(u));
}

void classify_system(const Record& r, std::vector<Unit>& out) {
  if (r.subtype == "compact_boundary") {
    Unit u = make_unit({Label::harness_compaction_boundary}, compact_boundary_text(r));
    return out.push_back(std::move(u));
  }
  if (r.subtype == "turn_duration")
    return out.push_back(make_unit({Label::harness_meta_turn_duration}, turn_duration_text(r)));
  if (r.subtype == "away_summary") {
    std::string text = r.content_text.empty() ? cc(r).content_json : r.content_text;
    return out.push_back(make_unit({Label::harness_meta_away_summary}, text));
  }
  if (r.subtype == "stop_hook_summary")
    return out.push_back(make_unit({Label::harness_meta_stop_hooks}, stop_hooks_text(r)));
  if (!r.subtype.empty()) out.push_back(make_unit({Label::harness_meta_system}, system_text(r)));
}

void classify_attachment(const Record& r, std::vector<Unit>& out) {
  if (cc(r).attachment_json.empty()) return;
  nlohmann::json att = parse_stored_object(cc(r).attachment_json);
  const std::string type = json_string_at(att, "type");
  if (auto plumbing = plumbing_attachment_text(type, att))
    return out.push_back(make_unit({Label::harness_meta_attachment}, std::move(*plumbing)));
  if (type == "hook_additional_context") {
    auto content = att.find("content");
    std::string text;
    if (content != att.end() && content->is_string()) text = std::string(trim(content->get<std::string>()));
    if (content != att.end() && content->is_array()) {
      for (const auto& part : *content) {
        if (part.is_string()) text += (text.empty() ? "" : "\n") + part.get<std::string>();
      }
    }
    if (!text.empty()) return out.push_back(make_unit({Label::harness_meta_hook}, text));
  }
  out.push_back(make_unit({Label::harness_meta_attachment}, cc(r).attachment_json));
}

// A pending elicitation-sidecar marker stands in for the tool_use Claude Code has not written yet (the seed's
// §6.10).
void classify_elicitation_marker(const Record& r, ClassifyContext& ctx, std::vector<Unit>& out) {
  if (cc(r).csift_phase != "pending") return;
  for (size_t i = 0; i < r.message.blocks.size(); ++i) {
    if (r.message.blocks[i].kind == BlockKind::tool_use) {
      Unit u = tool_use_unit(r.message.blocks[i], static_cast<int>(i), ctx);
      u.labels = {Label::agent_tool_use};
      u.from.clear();
      u.to.clear();
      out.push_back(std::move(u));
    }
  }
  if (!out.empty()) return;
  std::string text = !r.content_text.empty() ? r.content_text : cc(r).content_json;
  Unit u = make_unit({Label::agent_tool_use}, text.empty() ? cc(r).csift_kind : text);
  u.is_tool_use = true;
  u.tool_name = cc(r).csift_kind;
  out.push_back(std::move(u));
}

}  // namespace

std::vector<Unit> classify_record(const Record& r, ClassifyContext& ctx) {
  std::vector<Unit> out;
  if (r.type == "fork-context-ref") {
    ctx.is_fork_clone = true;  // line 1 of a /fork clone: its first opener is the human, not a spawn seed
    return out;
  }
  if (cc(r).csift_marker == kElicitationMarker) {
    classify_elicitation_marker(r, ctx, out);
  } else if (r.type == "assistant") {
    classify_assistant(r, ctx, out);
  } else if (r.type == "user") {
    classify_user(r, ctx, out);
  } else if (r.type == "attachment") {
    classify_attachment(r, out);
  } else if (r.type == "queue-operation") {
    classify_queue(r, out);
  } else if (r.type == "system") {
    classify_system(r, out);
  } else if (r.type == "file-history-snapshot" || r.type == "file-history-delta") {
    out.push_back(make_unit({Label::harness_meta_snapshot}, snapshot_text(r)));
  } else if (is_bookkeeping_type(r.type)) {
    out.push_back(make_unit({Label::harness_meta_system}, bookkeeping_text(r)));
  }
  return out;
}

LabelSet record_type_labels(std::string_view type) {
  LabelSet s;
  // An assistant record's units are all the agent's; through its tool calls' names a result becomes a
  // user.answer (AskUserQuestion) or an inbox (a spawn), and its spawns name the children of later units.
  if (type == "assistant") {
    for (const Label l : all_labels())
      if (label_role(l) == Role::agent || l == Label::user_answer) s.add(l);
    return s;
  }
  // classify_record's dispatch: these types are labelled by what they hold (or, for a /fork clone's line 1,
  // change how later records are), a bookkeeping type is one harness.meta.system unit, any other none.
  for (const std::string_view t : {"user", "attachment", "queue-operation", "system", "file-history-snapshot",
                                   "file-history-delta", "fork-context-ref"})
    if (type == t) return LabelSet::all();
  if (is_bookkeeping_type(type)) s.add(Label::harness_meta_system);
  return s;
}

LabelSet plain_result_carrier_labels() {
  LabelSet s;  // classify_user: a compaction summary, else tool_result_unit's labels for each result
  for (const Label l : {Label::harness_compaction_summary, Label::agent_tool_result, Label::user_answer,
                        Label::user_rejection, Label::agent_communication_inbox})
    s.add(l);
  return s;
}

LabelSet record_labels(const std::vector<Unit>& units) {
  LabelSet s;
  for (const auto& u : units) {
    for (Label l : u.labels)
      s.add(l);
  }
  return s;
}

void relabel_as_draft(const Record& draft, std::vector<Unit>& units) {
  Unit u;
  if (!units.empty()) {
    u.text = units.front().text;
    u.images = units.front().images;
  } else {
    u.text = user_text(draft);
  }
  u.labels = {Label::user_unsent};
  units.assign(1, std::move(u));
}

ClassifyContext labels_context(const ClassifyContext& ctx) {
  ClassifyContext out;
  out.is_subagent = ctx.is_subagent;
  out.owner_id = ctx.owner_id;
  out.parent_id = ctx.parent_id;
  out.opener_seen = ctx.opener_seen;
  out.is_fork_clone = ctx.is_fork_clone;
  out.spawned_child = ctx.spawned_child;
  out.spawn_join = ctx.spawn_join;
  // classify.cpp reads these names of a result's tool: an AskUserQuestion answer, a Task/Agent return.
  for (const auto& [id, name] : ctx.tool_names)
    if (name == "AskUserQuestion" || name == "Task" || name == "Agent") out.tool_names.emplace(id, name);
  return out;
}

}  // namespace csift
