// §4.1 record predicates: which user records are the human, and which open a turn.
//
// Turn opening is a separate axis from the label. A turn opens on a genuine human message, an answered
// AskUserQuestion, a rejection carrying a typed instruction, an inbound peer message, or a
// <task-notification> pulse. The last two are not the human (is_genuine_user is false for them: they classify
// agent.communication.* / harness.notification.*), but each is a delivered message the agent answers, so
// they keep opening turns exactly as the reference tool did — turn numbering stays stable across tools.
#include <nlohmann/json.hpp>

#include "core/classify.h"
#include "core/classify_detail.h"

namespace csift {

using namespace detail;

namespace {

bool is_user_record(const Record& r) {
  return r.type == "user";
}

bool has_block(const Record& r, BlockKind kind) {
  for (const auto& b : r.message.blocks) {
    if (b.kind == kind) return true;
  }
  return false;
}

bool is_auq_marker_text(std::string_view text) {
  std::string_view head = trim_start(text);
  for (auto m : kAuqAnswerMarkers) {
    if (starts_with(head, m)) return true;
  }
  return false;
}

// toolUseResult.answers is a non-empty object, or toolUseResult.response is a non-blank string.
bool has_structured_answer(const Record& r) {
  if (r.tool_use_result_json.empty() || r.tool_use_result_json.front() != '{') return false;
  auto j = nlohmann::json::parse(r.tool_use_result_json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  auto answers = j.find("answers");
  if (answers != j.end() && answers->is_object() && !answers->empty()) return true;
  auto response = j.find("response");
  return response != j.end() && response->is_string() && !trim(response->get<std::string>()).empty();
}

}  // namespace

std::string user_text(const Record& r) {
  if (r.message.content_is_string) return r.message.content_string;
  std::string out;
  bool first = true;
  for (const auto& b : r.message.blocks) {
    if (b.kind != BlockKind::text) continue;
    if (!first) out += '\n';
    out += b.text;
    first = false;
  }
  return out;
}

bool is_tool_result_carrier(const Record& r) {
  return is_user_record(r) && has_block(r, BlockKind::tool_result);
}

bool is_interrupt_marker(const Record& r) {
  return is_user_record(r) && !is_tool_result_carrier(r) && is_interrupt_text(user_text(r));
}

bool is_slash_command_wrapper(const Record& r) {
  return is_user_record(r) && !r.is_meta && !is_tool_result_carrier(r) && is_slash_wrapper_text(user_text(r));
}

bool is_peer_message_record(const Record& r) {
  return is_user_record(r) && !is_tool_result_carrier(r) && is_peer_message_text(user_text(r));
}

bool is_task_notification_record(const Record& r) {
  return is_user_record(r) && !r.is_meta && !r.is_compact_summary && !is_tool_result_carrier(r) &&
         has_boundary_section(user_text(r), kTaskNotificationOpen);
}

bool is_genuine_user(const Record& r) {
  if (!is_user_record(r) || r.message.role != "user") return false;
  if (r.is_compact_summary || r.is_meta) return false;
  if (!r.message.content_is_string) {
    if (!has_block(r, BlockKind::text) || has_block(r, BlockKind::tool_result)) return false;
  }
  std::string text = user_text(r);
  return !is_synthetic_user_text(text) && !is_peer_message_text(text) &&
         !has_boundary_section(text, kTaskNotificationOpen);
}

// §4.4: a non-errored tool_result carrier with structured answers, or (older records without
// toolUseResult) the synthesized answer phrasing. A cancelled/rejected AUQ is errored and never answers.
bool is_auq_answer(const Record& r) {
  if (!is_user_record(r)) return false;
  bool has_result = false, marker = false;
  for (const auto& b : r.message.blocks) {
    if (b.kind != BlockKind::tool_result) continue;
    if (b.is_error) return false;
    has_result = true;
    marker = marker || is_auq_marker_text(b.content_text);
  }
  return has_result && (has_structured_answer(r) || marker);
}

namespace {

// The typed instruction of a rejection carrier block, or nullopt (no rejection / no typed message).
std::optional<std::string> rejection_message(const Block& b) {
  if (b.kind != BlockKind::tool_result) return std::nullopt;
  std::string_view text = b.content_text;
  bool rejection =
      starts_with(trim_start(text), kRejectionMarker) || (b.is_error && contains(text, kRejectionMarker));
  if (!rejection) return std::nullopt;
  size_t at = text.find(kRejectionUserSaid);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view tail = trim(text.substr(at + kRejectionUserSaid.size()));
  if (tail.empty()) return std::nullopt;
  return std::string(tail);
}

}  // namespace

std::optional<std::string> rejection_typed_message(const Block& b) {
  return rejection_message(b);
}

bool is_rejection_with_message(const Record& r) {
  if (!is_user_record(r)) return false;
  for (const auto& b : r.message.blocks) {
    if (rejection_message(b)) return true;
  }
  return false;
}

bool opens_turn(const Record& r) {
  return is_genuine_user(r) || is_auq_answer(r) || is_rejection_with_message(r) ||
         is_peer_message_record(r) || is_task_notification_record(r);
}

}  // namespace csift
