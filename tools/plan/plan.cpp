#include "tools/plan/plan.h"

#include <tbb/parallel_for.h>

#include <filesystem>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/mutations/bash_mutations.h"
#include "tools/common/record_render.h"
#include "tools/common/scope_args.h"
#include "tools/plan/plan_binding.h"

namespace csift {
namespace {

json plan_row(const Transcript& t, const PlanBinding& b) {
  json row = TranscriptIdentity::of(t).row("plan");
  row["plan_file"] = b.plan_file;
  std::error_code ec;
  row["plan_exists"] = std::filesystem::is_regular_file(b.plan_file, ec);
  row["line"] = b.line;
  row["binding_source"] = b.source;
  row["slug"] = string_or_null(b.slug);
  row["minted_at_compaction"] = b.minted_at_compaction;
  row["recover"] = follow_up_call("recover", json{{"targets", json::array({"@" + t.id})}, {"file", "@plan"}});
  return row;
}

}  // namespace

Envelope run_plan(const json& args, ToolContext& ctx) {
  const std::string reverse = args.value("reverse", std::string());
  const bool has_targets = args.contains("targets") && args["targets"].is_array() && !args["targets"].empty();
  if (!reverse.empty() && has_targets)
    usage_error(arg_ref("reverse") + " searches every project for the sessions bound to a plan; leave " +
                arg_ref("targets") + " out");
  const Scope scope = resolve_span_scope(args, ctx);
  std::vector<std::optional<PlanBinding>> found(scope.transcripts.size());
  tbb::parallel_for(size_t{0}, scope.transcripts.size(), [&](size_t i) {
    if (ctx.cancelled()) return;
    found[i] = plan_binding_of(scope.transcripts[i], scope.claude_home, ctx.cancel);
  });
  if (ctx.cancelled()) failure_error("plan was cancelled");
  Envelope env = Envelope::make("plan");
  env.header = span_header("plan", scope);
  const std::string wanted = reverse.empty() ? "" : absolute_target_path(reverse);
  env.header["reverse"] = string_or_null(wanted);
  size_t unbound = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    if (!found[i]) {
      ++unbound;
      continue;
    }
    if (!wanted.empty() && path_key(normalize_path(found[i]->plan_file)) != path_key(wanted)) continue;
    env.rows.push_back(plan_row(scope.transcripts[i], *found[i]));
  }
  env.summary["transcripts_scanned"] = scope.transcripts.size();
  env.summary["bound"] = env.rows.size();
  env.summary["unbound_transcripts"] = unbound;
  if (env.rows.empty())
    env.notes.push_back(
        wanted.empty() ? "no plan is bound to the sessions in scope (no plan_mode attachment, no valid slug)"
                       : "no session in scope is bound to " + wanted);
  for (const std::string& n : scope.notes)
    env.notes.push_back(n);
  return env;
}

std::string render_plan_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args;
  std::string out;
  for (const json& row : env.rows) {
    out += row.value("plan_file", "") + (row.value("plan_exists", false) ? "" : " [missing]") + "\n";
    out += "  " + std::string(row.value("is_subagent", false) ? "agent " : "session ") +
           row.value("session_id", "") +
           (row.value("is_subagent", false) ? " (parent " + row.value("parent_session_id", "") + ")" : "") +
           " L" + std::to_string(row.value("line", uint64_t{0})) + " via " + row.value("binding_source", "") +
           (row["slug"].is_string() ? " slug " + row["slug"].get<std::string>() : "") +
           (row.value("minted_at_compaction", false) ? " (minted at a compaction)" : "") + "\n";
    out += "  content: " + follow_up_text(row["recover"], ctx) + "\n";
  }
  return out;
}

}  // namespace csift
