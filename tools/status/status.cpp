#include "tools/status/status.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/store/call_landing.h"
#include "core/store/caller_session.h"
#include "core/store/retention.h"
#include "core/store/targets.h"
#include "tools/common/retention_notes.h"
#include "tools/common/scope_args.h"

namespace csift {
namespace {

std::optional<std::string> claude_home_arg(const json& args) {
  if (!args.contains("claude_home") || !args["claude_home"].is_string()) return std::nullopt;
  return args["claude_home"].get<std::string>();
}

// Whether the call running now is one of `session`'s, by the tool_use the client named. A stdio server whose
// registry row names another session knows at once that it is not (nothing to wait for); otherwise the call
// is looked for, the target's files first, waiting (bounded) for its record to land, so that what status
// reads afterwards is the tail as of this very call, the previous call's result included.
OwnCall locate_own_call(const Transcript& session, const std::string& claude_home, const Environment& env) {
  OwnCall own;
  own.tool_use_id = env.caller_tool_use_id;
  if (own.tool_use_id.empty()) return own;
  const CallerSession named = resolve_caller_session(env, claude_home);
  if (named.source.rfind("registry:", 0) == 0 && named.id != session.id) {
    own.evidence = "this call (tool_use " + own.tool_use_id + ") comes from session " + named.id + " (" +
                   named.source + "), not from this one: no own call to wait for";
    return own;
  }
  std::vector<std::string> preferred{session.id};
  if (!named.id.empty() && named.id != session.id) preferred.push_back(named.id);
  const CallLanding landing =
      find_tool_use_landing(projects_root(claude_home), own.tool_use_id, preferred, env.cwd);
  own.evidence = landing_evidence(landing, "this call's tool_use " + own.tool_use_id);
  if (landing.hits.empty()) return own;
  const Transcript& hit = landing.hits.front();
  own.in_session = hit.parent_session_id() == session.id;
  own.lane = hit.is_subagent ? hit.id : "main";
  if (!own.in_session) own.evidence += ": another session's call, not this one's";
  return own;
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
  out.options.own_call = locate_own_call(out.session, out.claude_home, ctx.env);
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
  const CleanupPeriod period = claude_cleanup_period(target.claude_home);
  const std::optional<int64_t> left = expires_in_days(target.session, period, now_ms());
  if (left) row["expires_in_days"] = *left;
  env.summary["verdict"] = s.verdict;
  env.summary["skipped_lines"] = s.skipped_lines;
  env.summary["with_elicitation_sidecar"] = !s.pending.empty();
  if (left) env.summary["expiring"] = expiring_summary(1, period);
  if (!period.note.empty()) env.notes.push_back(period.note);
  return env;
}

}  // namespace csift
