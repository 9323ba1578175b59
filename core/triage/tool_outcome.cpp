// Each harness's reader already classifies what its log records (core/harness/*): the JSON-lines readers
// leave the recorded status word and exit code on the result block, OpenCode keeps its outcome per call, and
// Claude Code records only is_error, so its fixed texts decide denial and interrupt.
#include "core/triage/tool_outcome.h"

#include "core/base/text.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/fixed_texts.h"
#include "core/harness/opencode/opencode_fields.h"

namespace csift {

namespace {

// The status and exit code a JSON-lines reader recorded on the result.
void outcome_from_recorded(const Block& result, CallOutcome& out) {
  out.exit_code = result.result_exit_code;
  out.status = result.result_status;
  if (out.status == CallStatus::ok && out.exit_code && *out.exit_code != 0) out.status = CallStatus::error;
}

void outcome_from_claude_code(const Record& rec, const Block& result, CallOutcome& out) {
  const std::string& text = result.content_text;
  if (tool_result_interrupted(rec)) {
    out.status = CallStatus::interrupted;
    return;
  }
  if (!result.is_error) return;
  if (text.find(claude_code_text::kRejectionMarker) != std::string::npos ||
      text.find(claude_code_text::kDenied) != std::string::npos)
    out.status = CallStatus::denied;
  else if (text.find(claude_code_text::kInterruptPrefix) != std::string::npos)
    out.status = CallStatus::interrupted;
  else
    out.status = CallStatus::error;
}

void outcome_from_opencode(const Record& rec, const Block& result, CallOutcome& out) {
  const OpenCodeToolOutcome* o = opencode_tool_outcome(rec, result.tool_use_id);
  if (!o) {
    if (result.is_error) out.status = CallStatus::error;
    return;
  }
  out.exit_code = o->exit_code;
  if (o->status) out.status = *o->status;
}

}  // namespace

std::optional<int64_t> leading_exit_code(std::string_view text) {
  text = trim_start(text);
  constexpr std::string_view prefix = "Exit code ";
  if (!text.starts_with(prefix)) return std::nullopt;
  size_t i = prefix.size();
  const bool negative = i < text.size() && text[i] == '-';
  if (negative) ++i;
  const size_t digits = i;
  int64_t value = 0;
  while (i < text.size() && is_ascii_digit(text[i]) && i - digits < 12)
    value = value * 10 + (text[i++] - '0');
  if (i == digits || (i < text.size() && !is_ascii_space(text[i]))) return std::nullopt;
  return negative ? -value : value;
}

bool is_interrupt_entry(HarnessId harness, const Record& r) {
  if (is_opencode(harness)) {
    const OpenCodeFields* f = opencode_fields(r);
    return f && r.type == "assistant" && f->ended == "interrupted";
  }
  if (r.type != "user") return false;
  if (r.message.content_is_string)
    return trim_start(r.message.content_string).starts_with(claude_code_text::kInterruptPrefix);
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text && trim_start(b.text).starts_with(claude_code_text::kInterruptPrefix))
      return true;
  return false;
}

CallOutcome call_outcome(HarnessId harness, const Record& result_record, const Block& result) {
  CallOutcome out;
  if (harness == HarnessId::claude_code || harness == HarnessId::cursor)
    outcome_from_claude_code(result_record, result, out);
  else if (is_opencode(harness))
    outcome_from_opencode(result_record, result, out);
  else if (result.has_result_status())
    outcome_from_recorded(result, out);
  else if (result.is_error)
    out.status = CallStatus::error;
  if (out.status != CallStatus::ok && !out.exit_code) out.exit_code = leading_exit_code(result.content_text);
  if (out.status == CallStatus::ok && result.is_error) out.status = CallStatus::error;
  switch (out.status) {
    case CallStatus::error:
      out.error_class = out.exit_code && *out.exit_code != 0 ? "exit" : "tool_error";
      break;
    case CallStatus::denied:
      out.error_class = "denied";
      break;
    case CallStatus::interrupted:
      out.error_class = "interrupted";
      break;
    default:
      break;
  }
  return out;
}

}  // namespace csift
