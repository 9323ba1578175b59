#include "tools/wait/wait_conditions.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/fixed_texts.h"
#include "core/json/stored_json.h"
#include "tools/status/status_join.h"

namespace csift {
namespace {

constexpr const char* kGrammar =
    "stop | hitl | auq | notification[:REGEX] | tool:NAME[:REGEX] | write:PATH_REGEX[:LINE_REGEX] | "
    "verdict:V";

std::shared_ptr<const CompiledPattern> compile(const std::string& pattern) {
  return pattern.empty() ? nullptr : CompiledPattern::compile(pattern, RegexOptions{});
}

bool matches(const std::shared_ptr<const CompiledPattern>& re, std::string_view text) {
  if (!re) return true;
  Matcher m(re);
  return m.is_match(text) == MatchStatus::match;
}

bool is_write_tool(const std::string& name) {
  return name == "Write" || name == "Edit" || name == "MultiEdit" || name == "NotebookEdit";
}

std::string carrier_text(const Record& r) {
  std::string text = r.message.content_is_string ? r.message.content_string : "";
  for (const auto& b : r.message.blocks) {
    if (b.kind == BlockKind::text) text += "\n" + b.text;
  }
  return text + "\n" + r.content_text + "\n" + cc(r).attachment_json;
}

std::optional<std::string> write_fires(const WaitCondition& c, const Block& b) {
  const nlohmann::json input = parse_stored_object(b.input_json);
  std::string path;
  for (const char* key : {"file_path", "notebook_path", "path"}) {
    if (input.is_object() && input.contains(key) && input[key].is_string())
      path = input[key].get<std::string>();
    if (!path.empty()) break;
  }
  if (path.empty() || !matches(c.re, path)) return std::nullopt;
  if (c.line_re && !matches(c.line_re, b.input_json)) return std::nullopt;
  return b.name + " of " + path;
}

}  // namespace

WaitCondition parse_wait_condition(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  WaitCondition c{ConditionKind::stop, text, "", nullptr, nullptr};
  auto no_argument = [&](ConditionKind k) {
    if (colon != std::string::npos)
      usage_error(arg_ref("until") + " '" + text + "': " + head + " takes no argument");
    c.kind = k;
  };
  if (head == "stop") {
    no_argument(ConditionKind::stop);
  } else if (head == "hitl") {
    no_argument(ConditionKind::hitl);
  } else if (head == "auq") {
    no_argument(ConditionKind::auq);
  } else if (head == "notification") {
    c.kind = ConditionKind::notification;
    c.re = compile(rest);
  } else if (head == "tool" || head == "write") {
    if (rest.empty())
      usage_error(arg_ref("until") + " '" + text + "': " + head + " needs an argument (" + kGrammar + ")");
    const size_t second = rest.find(':');
    const std::string first = rest.substr(0, second);
    const std::string tail = second == std::string::npos ? "" : rest.substr(second + 1);
    if (head == "tool") {
      c.kind = ConditionKind::tool;
      c.name = first;
      c.re = compile(tail);
    } else {
      c.kind = ConditionKind::write;
      c.re = compile(first);
      c.line_re = compile(tail);
    }
  } else if (head == "verdict") {
    c.kind = ConditionKind::verdict;
    c.name = rest;
    if (!is_verdict(rest)) {
      usage_error(arg_ref("until") + " '" + text +
                  "': the verdicts are running, waiting-children, waiting-hitl, "
                  "idle-background-open, idle-eot, stale-dead, unknown");
    }
  } else {
    usage_error(arg_ref("until") + " '" + text + "' is not a condition; the conditions are " + kGrammar);
  }
  return c;
}

bool is_state_condition(const WaitCondition& c) {
  return c.kind == ConditionKind::stop || c.kind == ConditionKind::hitl || c.kind == ConditionKind::verdict;
}

std::optional<std::string> event_fires(const WaitCondition& c, const Record& r, const std::string& lane) {
  const bool sidecar_pending = lane == "sidecar" && cc(r).csift_phase == "pending";
  switch (c.kind) {
    case ConditionKind::hitl:
      if (sidecar_pending) return "a pending " + cc(r).csift_kind + " in the elicitation sidecar";
      break;
    case ConditionKind::auq:
      if (sidecar_pending && cc(r).csift_kind == "AskUserQuestion")
        return std::string("a pending AskUserQuestion in the elicitation sidecar");
      break;
    case ConditionKind::notification:
      if (lane == "main") {
        const std::string text = carrier_text(r);
        if (text.find(claude_code_text::kTaskNotificationOpen) != std::string::npos && matches(c.re, text))
          return "a task notification on the main lane";
      }
      return std::nullopt;
    default:
      break;
  }
  if (lane == "sidecar") return std::nullopt;
  for (const auto& b : r.message.blocks) {
    if (b.kind != BlockKind::tool_use) continue;
    const bool ask = b.name == "AskUserQuestion" || b.name == "ExitPlanMode";
    if (c.kind == ConditionKind::auq && b.name == "AskUserQuestion")
      return "an AskUserQuestion call on " + lane;
    if (c.kind == ConditionKind::hitl && ask && lane == "main")
      return "a " + b.name + " call on the main lane";
    if (c.kind == ConditionKind::tool && b.name == c.name && matches(c.re, b.input_json))
      return "a " + b.name + " call on " + lane;
    if (c.kind == ConditionKind::write && is_write_tool(b.name)) {
      if (auto what = write_fires(c, b)) return *what + " on " + lane;
    }
  }
  return std::nullopt;
}

bool state_fires(const WaitCondition& c, const std::string& verdict) {
  switch (c.kind) {
    case ConditionKind::stop:
      return verdict == "idle-eot" || verdict == "stale-dead";
    case ConditionKind::hitl:
      return verdict == "waiting-hitl";
    case ConditionKind::verdict:
      return verdict == c.name;
    default:
      return false;
  }
}

}  // namespace csift
