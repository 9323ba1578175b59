#include "tools/show/show_request.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/text.h"
#include "tools/common/scope_args.h"

namespace csift {
namespace {

// Array values may also arrive comma-joined in one element (`--line 5,7..9`, or an MCP caller's "5,7").
std::vector<std::string> split_values(const json& args, const char* key) {
  std::vector<std::string> out;
  if (!args.contains(key)) return out;
  const json& v = args[key];
  const auto add_joined = [&](const std::string& joined) {
    for (std::string& part : split_commas(joined))
      out.push_back(std::move(part));
  };
  if (v.is_string()) add_joined(v.get<std::string>());
  if (v.is_array()) {
    for (const auto& e : v) {
      if (e.is_string()) add_joined(e.get<std::string>());
      if (e.is_number_integer()) out.push_back(std::to_string(e.get<int64_t>()));
    }
  }
  return out;
}

std::string single_target(const json& args) {
  const std::vector<std::string> targets = string_array(args, "targets");
  if (targets.empty()) {
    usage_error("show needs a TARGET: @<uuid>, @<uuid-prefix>, @<agent-id> or a *.jsonl path");
  }
  if (targets.size() > 1) {
    std::string listed;
    for (const auto& t : targets)
      listed += (listed.empty() ? "" : " ") + t;
    usage_error("show reads exactly ONE transcript per call (addresses are per file); got " +
                std::to_string(targets.size()) + " targets: " + listed + " — run one show per target");
  }
  return targets.front();
}

void reject_span_flags(const json& args) {
  if (!args.contains("no_subagents")) return;
  usage_error("show fetches from exactly ONE transcript and never spans subagents, so " +
              arg_ref("no_subagents") +
              " does not apply (either value); target a subagent by its own @<agent-id>");
}

ShowAddressMode single_mode(bool line, bool uuid, bool turn) {
  const int given = int(line) + int(uuid) + int(turn);
  if (given > 1) {
    usage_error(arg_ref("line") + ", " + arg_ref("uuid") + " and " + arg_ref("turn") +
                " are mutually exclusive: pick exactly ONE addressing mode per call");
  }
  return line ? ShowAddressMode::line : uuid ? ShowAddressMode::uuid : ShowAddressMode::turn;
}

}  // namespace

ShowRequest parse_show_request(const json& args) {
  ShowRequest req;
  req.target = single_target(args);
  reject_span_flags(args);
  const auto line_values = split_values(args, "line");
  req.uuids = split_values(args, "uuid");
  const bool has_turn = args.contains("turn") && args["turn"].is_string();
  req.mode = single_mode(!line_values.empty(), !req.uuids.empty(), has_turn);
  req.addressed = !line_values.empty() || !req.uuids.empty() || has_turn;
  for (const auto& v : line_values)
    req.lines.push_back(parse_range(v, arg_ref("line"), true));
  if (has_turn) req.turns = parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
  req.raw = args.value("raw", false);
  req.json_format = args.value("format", "text") == "json";
  if (req.raw && req.json_format) {
    usage_error(arg_ref("raw") + " emits the verbatim jsonl line bytes and excludes " + arg_ref("format") +
                " json (the raw lines already are JSON); drop one of them");
  }
  const int64_t max_count = args.value("max_count", int64_t(kDefaultShowCap));
  if (max_count < 0) usage_error(arg_ref("max_count") + " must be >= 0 (0 = uncapped)");
  req.max_count = static_cast<size_t>(max_count);
  if (args.contains("claude_home") && args["claude_home"].is_string()) {
    req.claude_home = args["claude_home"].get<std::string>();
  }
  return req;
}

void require_address(const ShowRequest& req, const std::string& path) {
  if (req.addressed) return;
  usage_error("show needs exactly one address into " + path + ": " + arg_ref("line") +
              " N|A..B (jsonl line), " + arg_ref("uuid") + " U (record uuid) or " + arg_ref("turn") +
              " N|A..B|-k (turn index); show never dumps a whole transcript (" + arg_ref("line") +
              " .. addresses all of it explicitly)");
}

json address_args(const ShowRequest& req) {
  json lines = json::array();
  switch (req.mode) {
    case ShowAddressMode::line:
      for (const auto& r : req.lines)
        lines.push_back(r.text);
      return json{{"line", lines}};
    case ShowAddressMode::uuid:
      return json{{"uuid", req.uuids}};
    default:
      return json{{"turn", req.turns.text}};
  }
}

std::string address_text(const ShowRequest& req) {
  std::string out;
  switch (req.mode) {
    case ShowAddressMode::line:
      for (const auto& r : req.lines)
        out += (out.empty() ? arg_ref("line") + " " : ",") + r.text;
      return out;
    case ShowAddressMode::uuid:
      for (const auto& u : req.uuids)
        out += (out.empty() ? arg_ref("uuid") + " " : ",") + u;
      return out;
    default:
      return arg_ref("turn") + " " + req.turns.text;
  }
}

}  // namespace csift
