// Section parsing for user records that carry harness-delivered XML: batched <task-notification> pulses and
// inbound peer messages (<teammate-message>, <agent-message>). A tag counts only at a SECTION BOUNDARY —
// the text start, right after a relay preamble, or right after a previous section's close tag — so a human
// who merely quotes a tag mid-prose stays the human (spec FINDING-1).
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/base/envelope.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/json/stored_json.h"

namespace csift::detail {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool is_section_boundary(std::string_view prefix) {
  std::string_view t = trim(prefix);
  if (t.empty()) return true;
  auto ends = [&](std::string_view suffix) {
    return t.size() >= suffix.size() && t.substr(t.size() - suffix.size()) == suffix;
  };
  for (auto p : kPeerPreambles) {
    if (ends(p)) return true;
  }
  if (ends(kTaskNotificationClose) || ends(kTeammateClose) || ends(kAgentMessageClose)) return true;
  // A notification's own "Read the output file …" line still belongs to it: what follows is the next
  // section of a batched delivery.
  const size_t line = t.rfind('\n');
  const std::string_view last = line == std::string_view::npos ? t : t.substr(line + 1);
  return line != std::string_view::npos && starts_with(last, kReadOutputTrailer) &&
         last.find('<') == std::string_view::npos &&
         trim(t.substr(0, line)).ends_with(kTaskNotificationClose);
}

bool has_boundary_section(std::string_view text, std::string_view open) {
  for (size_t at = text.find(open); at != std::string_view::npos; at = text.find(open, at + open.size())) {
    if (is_section_boundary(text.substr(0, at))) return true;
  }
  return false;
}

bool is_peer_message_text(std::string_view text) {
  return has_boundary_section(text, kTeammateOpen) || has_boundary_section(text, kAgentMessageOpen);
}

// `N background agent(s) were stopped by the user: …` / `Background agent "…" was stopped by the user.`
bool is_agents_stopped_notice(std::string_view text) {
  std::string_view s = trim_start(text);
  if (starts_with(s, "Background agent \"") && contains(s, " was stopped by the user")) return true;
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])))
    ++digits;
  if (digits == 0) return false;
  std::string_view rest = s.substr(digits);
  return starts_with(rest, " background agent was stopped by the user") ||
         starts_with(rest, " background agents were stopped by the user");
}

bool is_slash_wrapper_text(std::string_view text) {
  return starts_with(text, kCommandName) || starts_with(text, kCommandMessage);
}

bool is_interrupt_text(std::string_view text) {
  return text == kInterruptUser || text == kInterruptTool;
}

bool is_bash_input_text(std::string_view text) {
  return starts_with(trim_start(text), kBashInput);
}

bool is_bash_output_text(std::string_view text) {
  const std::string_view s = trim_start(text);
  return starts_with(s, kBashStdout) || starts_with(s, kBashStderr);
}

bool is_synthetic_user_text(std::string_view text) {
  return is_interrupt_text(text) || starts_with(text, kLocalCommandStdout) || is_slash_wrapper_text(text) ||
         is_agents_stopped_notice(text) || is_bash_input_text(text) || is_bash_output_text(text);
}

std::optional<std::string> xml_tag(std::string_view s, std::string_view tag) {
  std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t start = s.find(open);
  if (start == std::string_view::npos) return std::nullopt;
  start += open.size();
  size_t end = s.find(close, start);
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view inner = trim(s.substr(start, end - start));
  if (inner.empty()) return std::nullopt;
  return std::string(inner);
}

std::optional<std::string> xml_attr(std::string_view s, std::string_view attr) {
  std::string needle = std::string(attr) + "=\"";
  size_t start = s.find(needle);
  if (start == std::string_view::npos) return std::nullopt;
  start += needle.size();
  size_t end = s.find('"', start);
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view v = trim(s.substr(start, end - start));
  if (v.empty()) return std::nullopt;
  return std::string(v);
}

namespace {

// The <task-id> values of one section: real ids in order, and the kind an orphan-reconciliation sentinel
// names (sentinels name no task, so they never enter the id list).
void section_task_ids(std::string_view section, std::vector<std::string>& ids, std::string& orphan_kind) {
  constexpr std::string_view open = "<task-id>", close = "</task-id>";
  for (size_t at = section.find(open); at != std::string_view::npos; at = section.find(open, at)) {
    size_t start = at + open.size(), end = section.find(close, start);
    if (end == std::string_view::npos) break;
    std::string_view id = trim(section.substr(start, end - start));
    at = end + close.size();
    if (id.empty()) continue;
    if (starts_with(id, "__orphan_summary__:")) {
      if (orphan_kind.empty()) orphan_kind = std::string(id.substr(19));
    } else if (!starts_with(id, "__orphan_summary")) {
      ids.emplace_back(id);
    }
  }
}

// Body of a peer section with its wrapper tags stripped.
std::string peer_body(std::string_view section) {
  size_t gt = section.find('>');
  std::string_view body = gt == std::string_view::npos ? section : section.substr(gt + 1);
  for (auto close : {kTeammateClose, kAgentMessageClose}) {
    if (body.size() >= close.size() && body.substr(body.size() - close.size()) == close) {
      body.remove_suffix(close.size());
    }
  }
  return std::string(trim(body));
}

// A teammate body that is a `{"type":"<sig>"}` JSON payload is a control signal (idle_notification, …).
bool is_signal_body(const std::string& body) {
  return !stored_string_field(body, "type").empty();
}

struct Span {
  size_t begin, end;
};

// Calls emit(offset, section) for each boundary-anchored <open …>…</close> section.
template <typename Emit>
void scan_tagged(std::string_view text, std::string_view open, std::string_view close, Emit emit) {
  size_t at = 0;
  while ((at = text.find(open, at)) != std::string_view::npos) {
    if (!is_section_boundary(text.substr(0, at))) {
      at += open.size();
      continue;
    }
    size_t c = text.find(close, at);
    size_t end = c == std::string_view::npos ? text.size() : c + close.size();
    emit(at, text.substr(at, end - at));
    at = end;
  }
}

}  // namespace

Label notification_label(std::string_view summary) {
  std::string_view s = trim_start(summary);
  if (starts_with_ignoring_case(s, "background command"))
    return Label::harness_notification_background_command;
  if (starts_with_ignoring_case(s, "dynamic workflow") || starts_with_ignoring_case(s, "workflow")) {
    return Label::harness_notification_workflow;
  }
  if (starts_with_ignoring_case(s, "monitor") || starts_with_ignoring_case(s, "scheduled") ||
      starts_with_ignoring_case(s, "cron")) {
    return Label::harness_notification_monitor;
  }
  if (starts_with_ignoring_case(s, "agent")) return Label::harness_notification_subagent;
  return Label::harness_notification_task;
}

namespace {
std::string_view kind_slug(Label l) {
  switch (l) {
    case Label::harness_notification_background_command:
      return "background-command";
    case Label::harness_notification_workflow:
      return "workflow";
    case Label::harness_notification_monitor:
      return "monitor";
    case Label::harness_notification_subagent:
      return "agent";
    default:
      return "task";
  }
}
}  // namespace

std::string automation_label(std::string_view section) {
  std::vector<std::string> ids;
  std::string orphan_kind;
  section_task_ids(section, ids, orphan_kind);
  auto summary = xml_tag(section, "summary");
  auto status = xml_tag(section, "status");
  auto event = xml_tag(section, "event");
  std::string id_list;
  for (const auto& id : ids)
    id_list += (id_list.empty() ? "" : ", ") + id;
  if (id_list.empty()) id_list = "?";
  // Monitor pulses carry their outcome in <event> and often no <status>: render it instead of a guess.
  std::string state = status ? *status : event ? one_line(*event) : "completed";
  std::string head = "[" + std::string(kind_slug(notification_label(summary.value_or("")))) + " " + id_list +
                     " " + state + "]";
  if (!orphan_kind.empty()) head += " (orphan reconciliation: " + orphan_kind + ")";
  if (summary) head += " " + one_line(*summary);
  return head;
}

std::vector<Section> scan_sections(std::string_view text) {
  std::vector<std::pair<size_t, Section>> found;
  std::vector<Span> notification_spans;
  scan_tagged(text, kTaskNotificationOpen, kTaskNotificationClose, [&](size_t at, std::string_view section) {
    Label label = notification_label(xml_tag(section, "summary").value_or(""));
    std::string tool_use_id = xml_tag(section, "tool-use-id").value_or("");
    found.push_back({at, Section{Section::Kind::notification, label, automation_label(section),
                                 std::string(section), "", tool_use_id}});
    if (contains(section, "<result>")) {
      // A background agent's report rides the pulse (G1): also an inbox message, child ⇨ self.
      std::string report = one_line(xml_tag(section, "result").value_or(""));
      if (report.empty()) report = automation_label(section);
      found.push_back({at, Section{Section::Kind::notification_result, Label::agent_communication_inbox,
                                   report, std::string(section), "?", tool_use_id}});
    }
    notification_spans.push_back({at, at + section.size()});
  });
  auto masked = [&](size_t at) {
    return std::any_of(notification_spans.begin(), notification_spans.end(),
                       [&](const Span& s) { return at >= s.begin && at < s.end; });
  };
  auto add_peer = [&](size_t at, std::string_view section, std::string_view attr, bool teammate) {
    if (masked(at)) return;
    std::string body = peer_body(section);
    bool signal = teammate && is_signal_body(body);
    found.push_back(
        {at, Section{signal ? Section::Kind::peer_signal : Section::Kind::peer_inbox,
                     signal ? Label::agent_communication_signal : Label::agent_communication_inbox, body,
                     std::string(section), xml_attr(section, attr).value_or("?"), ""}});
  };
  scan_tagged(text, kTeammateOpen, kTeammateClose,
              [&](size_t at, std::string_view s) { add_peer(at, s, "teammate_id", true); });
  scan_tagged(text, kAgentMessageOpen, kAgentMessageClose,
              [&](size_t at, std::string_view s) { add_peer(at, s, "from", false); });
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Section> out;
  out.reserve(found.size());
  for (auto& f : found)
    out.push_back(std::move(f.second));
  return out;
}

}  // namespace csift::detail
