// SPEC.md §4 record predicates: which user records are the human, and which open a turn.
//
// Turn opening is a separate axis from the label. A turn opens on a genuine human message, an answered
// AskUserQuestion, a rejection carrying a typed instruction, an inbound peer message, or a
// <task-notification> pulse. The last two are not the human (is_genuine_user is false for them: they classify
// agent.communication.* / harness.notification.*), but each is a delivered message the agent answers, so
// they keep opening turns exactly as the reference tool did — turn numbering stays stable across tools.
#include <simdjson.h>

#include <nlohmann/json.hpp>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"

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
  const std::string& raw = cc(r).tool_use_result_json;
  if (raw.empty() || raw.front() != '{') return false;
  // Skips parsing the (often huge) result of every other carrier, which was most of classification's time.
  // One SIMD pass: three glibc memmem passes over every carrier's result were a quarter of a cold common-word
  // search on the real-shaped store (opens_turn asks this of each carrier several times per classification).
  const std::optional<bool> screened = cc(r).tool_use_result_may_answer;
  if (!(screened ? *screened : may_hold_structured_answer(raw))) return false;
  // simdjson On-Demand reads the two keys and skips every other value (nlohmann built the whole DOM).
  thread_local simdjson::ondemand::parser parser;
  const simdjson::padded_string padded(raw);
  try {
    simdjson::ondemand::document doc = parser.iterate(padded);
    for (auto field : doc.get_object()) {
      const std::string_view key = field.unescaped_key().value();
      simdjson::ondemand::value v = field.value().value();
      if (key == "answers" && v.type().value() == simdjson::ondemand::json_type::object) {
        simdjson::ondemand::object answers = v.get_object().value();
        if (answers.count_fields().value() > 0) return true;
      } else if (key == "response" && v.type().value() == simdjson::ondemand::json_type::string) {
        if (!trim(std::string(v.get_string().value())).empty()) return true;
      }
    }
  } catch (const simdjson::simdjson_error&) {
    return false;  // not an object we can read: no structured answer
  }
  return false;
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
  return is_user_record(r) && !cc(r).is_meta && !is_tool_result_carrier(r) &&
         is_slash_wrapper_text(user_text(r));
}

bool is_peer_message_record(const Record& r) {
  return is_user_record(r) && !is_tool_result_carrier(r) && is_peer_message_text(user_text(r));
}

bool is_task_notification_record(const Record& r) {
  return is_user_record(r) && !cc(r).is_meta && !cc(r).is_compact_summary && !is_tool_result_carrier(r) &&
         has_boundary_section(user_text(r), kTaskNotificationOpen);
}

bool is_genuine_user(const Record& r) {
  if (!is_user_record(r) || r.message.role != "user") return false;
  if (cc(r).is_compact_summary || cc(r).is_meta) return false;
  if (!r.message.content_is_string) {
    if (!has_block(r, BlockKind::text) || has_block(r, BlockKind::tool_result)) return false;
  }
  std::string text = user_text(r);
  return !is_synthetic_user_text(text) && !is_peer_message_text(text) &&
         !has_boundary_section(text, kTaskNotificationOpen);
}

// An answered AskUserQuestion (SPEC.md §4): a non-errored tool_result carrier with structured answers, or
// (older records without toolUseResult) the synthesized answer phrasing. A cancelled/rejected AUQ is errored
// and never answers.
bool is_auq_answer(const Record& r) {
  if (!is_user_record(r)) return false;
  bool has_result = false, marker = false;
  for (const auto& b : r.message.blocks) {
    if (b.kind != BlockKind::tool_result) continue;
    if (b.is_error) return false;
    has_result = true;
    marker = marker || is_auq_marker_text(b.content_text);
  }
  return has_result && (marker || has_structured_answer(r));
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

// Only 1.x wrote subagents inline: from 2.0 each agent has its own file, so a flagged record in a 2.x session
// file is not another lane's (a hand-made or converted transcript may flag every record).
bool is_inline_sidechain(const Record& r) {
  return cc(r).is_sidechain && (starts_with(r.version, "1.") || starts_with(r.version, "0."));
}

// Every opener is a message in the user's role: the byte probe may_open_turn rules a line out by that role
// alone, so a `user` record whose message names no role (a hand-made line; found by tests/fuzz, claude_code)
// opens no turn, in a dense read as in a sparse one.
bool opens_turn(const Record& r) {
  if (r.message.role != "user") return false;
  return is_genuine_user(r) || is_auq_answer(r) || is_rejection_with_message(r) ||
         is_peer_message_record(r) || is_task_notification_record(r);
}

}  // namespace csift
