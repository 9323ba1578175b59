// The wait condition grammar (the seed's §6.14), closed, OR semantics, first hit wins:
//   stop | hitl | auq | notification[:RE] | tool:NAME[:RE] | write:PATH_RE[:LINE_RE] | verdict:V
// Event conditions fire on records appended after the watch began; state conditions (stop, hitl,
// verdict:V) on the status verdict of each check.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record/record.h"
#include "core/regex/regex.h"

namespace csift {

enum class ConditionKind { stop, hitl, auq, notification, tool, write, verdict };

struct WaitCondition {
  ConditionKind kind;
  std::string text;                                // as given
  std::string name;                                // tool:NAME, verdict:V
  std::shared_ptr<const CompiledPattern> re;       // notification RE, tool RE, write PATH_RE
  std::shared_ptr<const CompiledPattern> line_re;  // write LINE_RE
};

// Throws ToolError(usage) naming the grammar for an unknown head or a malformed condition.
WaitCondition parse_wait_condition(const std::string& text);
bool is_state_condition(const WaitCondition& c);

// A record appended to a watched file; `lane` is main, an agent id, or sidecar. Returns what matched, in
// words, or nullopt.
std::optional<std::string> event_fires(const WaitCondition& c, const Record& r, const std::string& lane);
// A state condition against the verdict of a check.
bool state_fires(const WaitCondition& c, const std::string& verdict);

}  // namespace csift
