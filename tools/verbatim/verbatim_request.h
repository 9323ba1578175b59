// The arguments of one `verbatim` call (SPEC.md §9.8), validated: a target is required (the budget applies
// per session), the budget and its round-trip floor, the agent-message mode with its thresholds (a profile
// sets them), the compaction cap, the windows, and the hook-injection chunking (slice / slices / window).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "tools/common/scope_args.h"

namespace csift {

enum class AgentMsgs { longest, eot_only, rich, all };
const char* agent_msgs_name(AgentMsgs m);

// How much of a run of agent messages is "rich" enough to keep (SPEC.md §9.8).
struct RichnessThresholds {
  size_t run_threshold = 6;      // rich mode filters only runs longer than this
  size_t rich_min_chars = 280;   // a message this long is kept whatever it says
  size_t declaration_max = 200;  // only a signal-less intent opener shorter than this may be collapsed
};

struct VerbatimRequest {
  int64_t budget = 40000;
  double round_trip_fraction = 0.5;
  AgentMsgs agent_msgs = AgentMsgs::longest;
  std::string profile;  // "", "heavy", "light"
  RichnessThresholds thresholds;
  int64_t max_compactions = 0;  // 0 = unlimited
  std::optional<RangeSpec> turns;
  TimeWindow window;
  std::optional<int64_t> slice;   // 1-based chunk to print (text only)
  std::optional<int64_t> slices;  // fixed chunk count (the hook fleet)
  int64_t window_chars = 10000;
  std::string out;
  bool json_format = false;
};

// Throws ToolError(usage) naming the rule a call breaks.
VerbatimRequest parse_verbatim_request(const json& args);

}  // namespace csift
