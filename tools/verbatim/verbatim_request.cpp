#include "tools/verbatim/verbatim_request.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"

namespace csift {
namespace {

AgentMsgs agent_msgs_of(const std::string& s) {
  if (s == "eot-only") return AgentMsgs::eot_only;
  if (s == "rich") return AgentMsgs::rich;
  if (s == "all") return AgentMsgs::all;
  return AgentMsgs::longest;
}

// heavy: lower thresholds, more of each run kept; light: higher thresholds, leaner runs.
RichnessThresholds profile_thresholds(const std::string& profile) {
  if (profile == "heavy") return RichnessThresholds{3, 140, 120};
  if (profile == "light") return RichnessThresholds{10, 500, 300};
  return RichnessThresholds{};
}

std::optional<int64_t> optional_int(const json& args, const char* name) {
  if (!args.contains(name) || !args[name].is_number_integer()) return std::nullopt;
  return args[name].get<int64_t>();
}

}  // namespace

const char* agent_msgs_name(AgentMsgs m) {
  switch (m) {
    case AgentMsgs::eot_only:
      return "eot-only";
    case AgentMsgs::rich:
      return "rich";
    case AgentMsgs::all:
      return "all";
    default:
      return "longest";
  }
}

VerbatimRequest parse_verbatim_request(const json& args) {
  VerbatimRequest req;
  if (string_array(args, "targets").empty() && !args.contains("sessions_from")) {
    usage_error(
        "verbatim needs a target: its budget applies per session, so every project would be too much. Name "
        "one: @<uuid>, @<uuid-prefix>, @<agent-id>, @main, a project path (. = here), a *.jsonl path, or " +
        arg_ref("sessions_from"));
  }
  req.budget = args.value("budget", int64_t{40000});
  req.round_trip_fraction = args.value("round_trip_fraction", 0.5);
  req.agent_msgs = agent_msgs_of(args.value("agent_msgs", std::string("longest")));
  req.profile = args.value("profile", std::string());
  req.thresholds = profile_thresholds(req.profile);
  req.max_compactions = args.value("max_compactions", int64_t{0});
  if (args.contains("turn") && args["turn"].is_string() && !args["turn"].get<std::string>().empty()) {
    req.turns = parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
  }
  req.window = parse_time_window(args);
  req.slice = optional_int(args, "slice");
  req.slices = optional_int(args, "slices");
  req.window_chars = args.value("window", int64_t{10000});
  req.out = args.value("out", std::string());
  req.json_format = args.value("format", std::string("text")) == "json";
  if (req.slice && !req.out.empty()) {
    usage_error(arg_ref("slice") + " prints one chunk and " + arg_ref("out") +
                " writes the whole document: choose one");
  }
  if (req.slice && req.json_format) {
    usage_error(arg_ref("slice") + " prints text for a hook to inject; it does not combine with format json");
  }
  return req;
}

}  // namespace csift
