#include "tools/status/status.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/targets.h"
#include "tools/common/scope_args.h"

namespace csift {
namespace {

std::optional<std::string> claude_home_arg(const json& args) {
  if (!args.contains("claude_home") || !args["claude_home"].is_string()) return std::nullopt;
  return args["claude_home"].get<std::string>();
}

}  // namespace

LiveTarget parse_live_target(const json& args, const ToolContext& ctx, std::string_view tool) {
  const std::vector<std::string> targets = string_array(args, "targets");
  if (targets.size() != 1) {
    usage_error(std::string(tool) +
                " reads exactly ONE top-level session per call (@<uuid>, @<uuid-prefix>, @main "
                "or its *.jsonl path); got " +
                std::to_string(targets.size()) + " targets");
  }
  TargetResolver resolver(ctx.env, claude_home_arg(args));
  LiveTarget out;
  out.session = resolver.resolve_one(targets.front());
  if (out.session.is_subagent) {
    usage_error(std::string(tool) +
                " reads a TOP-LEVEL session (its registry row, its sidecar and its lanes); " +
                targets.front() + " is a subagent of session " + out.session.session_id + ": pass @" +
                out.session.session_id);
  }
  out.claude_home = resolver.claude_home();
  out.options.subagents = !args.value("no_subagents", false);
  if (args.contains("background_since") && args["background_since"].is_string()) {
    out.options.lens.since_text = args["background_since"].get<std::string>();
    out.options.lens.since = parse_when(out.options.lens.since_text, now_ms(), arg_ref("background_since"));
  }
  out.options.lens.ignore_patterns = string_array(args, "ignore_background");
  return out;
}

void put_session_trio(json& j, const Transcript& session) {
  j["session_id"] = session.id;
  j["is_subagent"] = false;
  j["parent_session_id"] = session.id;
}

Envelope run_status(const json& args, ToolContext& ctx) {
  const LiveTarget target = parse_live_target(args, ctx, "status");
  const StatusJoin s = compute_status(target.session, target.claude_home, target.options, ctx.cancel);
  Envelope env = Envelope::make("status");
  put_session_trio(env.header, target.session);
  env.header["path"] = target.session.path;
  json& row = env.add_row("verdict");
  put_session_trio(row, target.session);
  const json fields = status_row(s, now_ms());
  for (auto it = fields.begin(); it != fields.end(); ++it)
    row[it.key()] = it.value();
  env.summary["verdict"] = s.verdict;
  env.summary["skipped_lines"] = s.skipped_lines;
  env.summary["with_elicitation_sidecar"] = !s.pending.empty();
  return env;
}

}  // namespace csift
