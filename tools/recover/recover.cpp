#include "tools/recover/recover.h"

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/mutations/bash_mutations.h"
#include "tools/common/record_render.h"
#include "tools/common/scope_args.h"
#include "tools/plan/plan_binding.h"
#include "tools/recover/recover_output.h"
#include "tools/recover/recover_rows.h"
#include "tools/recover/recover_scan.h"

namespace csift {
namespace {

// `@plan`: the plan the scope's sessions are bound to — the top-level session's own first; refused when
// none is bound or the scope spans sessions bound to different plans.
std::string resolve_plan_sigil(const Scope& scope, const ToolContext& ctx) {
  std::vector<std::pair<std::string, std::string>> top, sub;  // (plan, transcript id), distinct plans
  auto add = [](std::vector<std::pair<std::string, std::string>>& to, const std::string& plan,
                const std::string& id) {
    for (const auto& p : to)
      if (p.first == plan) return;
    to.push_back({plan, id});
  };
  for (const Transcript& t : scope.transcripts) {
    const auto b = plan_binding_of(t, scope.claude_home, ctx.cancel);
    if (b) add(t.is_subagent ? sub : top, normalize_path(b->plan_file), t.id);
  }
  const auto& bound = top.empty() ? sub : top;
  if (bound.empty()) {
    not_found_error(
        "no plan is bound to the sessions in scope (no plan_mode attachment and no record with a "
        "valid slug); " +
        call_ref("plan", json::object()) + " shows what each session is bound to");
  }
  if (bound.size() > 1) {
    usage_error("the scope spans sessions bound to different plans (" + bound[0].first + " of " +
                bound[0].second + ", " + bound[1].first + " of " + bound[1].second +
                "); target one session as @<uuid>");
  }
  return bound.front().first;
}

json build_header(const RecoverRequest& req, const Scope& scope, const std::vector<std::string>& files) {
  json h = span_header("recover", scope);
  h["mode"] = recover_mode_name(req.mode);
  h["file"] = req.batch() ? json(nullptr) : json(files.front());
  h["file_requested"] = string_or_null(req.file);
  h["files_from"] = string_or_null(req.files_from);
  h["at"] = req.cutoff.text.empty() ? json(nullptr) : json(req.cutoff.text);
  h["turn"] = req.turn ? json(req.turn->text) : json(nullptr);
  h["file_lines"] = req.file_lines ? json(req.file_lines->text) : json(nullptr);
  echo_time_window(req.window, h);
  h["out"] = string_or_null(req.out);
  h["out_dir"] = string_or_null(req.out_dir);
  return h;
}

void window_note(const FileRecovery& fr, Envelope& env) {
  if (fr.events_outside == 0) return;
  env.notes.push_back(std::to_string(fr.events_outside) + " event(s) of " + fr.path + " fall outside " +
                      arg_ref("turn") + " / " + arg_ref("since") + " / " + arg_ref("until") +
                      (fr.path.empty() ? "" : " or the cutoff") + " and were not replayed");
}

// An edit applied by its own old/new strings whose structuredPatch gave other lines: the answer says so.
void patch_disagreement_note(const FileRecovery& fr, Envelope& env) {
  const auto& d = fr.replay.patch_disagreements;
  if (d.empty()) return;
  const PatchDisagreement& first = d.front();
  env.notes.push_back(std::to_string(d.size()) + " edit(s) of " + fr.path +
                      " applied by their own old_string/new_string, which their structuredPatch contradicts "
                      "(first: " +
                      first.event->tool + " at line " + std::to_string(first.event->line) + " of " +
                      first.transcript->id + ": " + first.detail + ")");
}

void accounting_note(const FileRecovery& fr, Envelope& env) {
  const ReplayResult& r = fr.replay;
  if (r.boundaries.empty() && fr.opaque.empty()) {
    env.notes.push_back(
        "complete from the tool stream; no Bash command named the file and no opaque mutating "
        "command ran in the window");
    return;
  }
  env.notes.push_back(
      "complete from the tool stream, NOT verified against disk: " + std::to_string(r.boundaries.size()) +
      " boundary(ies), " + std::to_string(fr.opaque.size()) + " opaque mutating command(s) in the window (" +
      arg_ref("coverage") + " lists them)");
}

void restore_row(const FileRecovery& fr, const RecoverRequest& req, const Scope& scope, Envelope& env) {
  json row = coverage_fields("restore", fr, req);
  const auto bytes = restorable_bytes(fr.replay.buffer, req);
  if (!bytes) {
    const std::string reason = refusal_reason(fr);
    row["complete"] = false;
    row["reason"] = reason;
    env.rows.push_back(row);
    env.is_error = true;
    env.summary["error"] = {{"kind", reason == "no-history" ? "not_found" : "failure"},
                            {"message", refusal_message(fr, reason)}};
    return;
  }
  row["complete"] = true;
  row["bytes"] = bytes->size();
  if (!req.out.empty()) {
    const WriteOutcome w = write_recovered(req.out, *bytes, req.force, scope);
    if (!w.written) usage_error(w.message);
    row["path"] = w.path;
    row["wrote"] = bytes->size();
  } else {
    row["content"] = *bytes;
    env.header["raw_stdout"] = true;
  }
  env.rows.push_back(row);
  accounting_note(fr, env);
}

void snapshot_row(const FileRecovery& fr, const RecoverRequest& req, const Scope& scope, Envelope& env) {
  json row = coverage_fields("snapshot", fr, req);
  row["at"] = req.mode == RecoverMode::salvage || req.cutoff.text.empty() ? "@latest" : req.cutoff.text;
  if (!req.out.empty()) {
    const std::string text = numbered_snapshot(fr.replay.buffer, req);
    const WriteOutcome w = write_recovered(req.out, text, req.force, scope);
    if (!w.written) usage_error(w.message);
    row["path"] = w.path;
    row["wrote"] = text.size();
  } else {
    row["text"] = numbered_snapshot(fr.replay.buffer, req);
  }
  if (fr.replay.buffer.lines.empty())
    env.notes.push_back("nothing of " + fr.path + " is known at " + row["at"].get<std::string>());
  env.rows.push_back(row);
}

void patch_rows(const FileRecovery& fr, const RecoverRequest& req, const Scope& scope, Envelope& env) {
  json cov = coverage_fields("coverage", fr, req);
  env.rows.push_back(cov);
  size_t bi = 0, ci = 0;
  const auto& bounds = fr.replay.boundaries;
  const auto& changes = fr.replay.changes;
  std::string document;
  while (bi < bounds.size() || ci < changes.size()) {
    // an originalFile disagreement is found before its own edit applies: it comes first at the same step
    const bool take_boundary =
        ci >= changes.size() || (bi < bounds.size() && bounds[bi].order <= changes[ci].order);
    if (take_boundary && bi < bounds.size()) {
      json b = boundary_json(bounds[bi++]);
      b["kind"] = "boundary";
      env.rows.push_back(b);
      continue;
    }
    const ReplayChange& c = changes[ci++];
    json row = TranscriptIdentity::of(*c.transcript).row("change");
    row["segment"] = c.segment;
    row["line"] = c.event->line;
    row["turn_index"] = c.event->turn < 0 ? json(nullptr) : json(c.event->turn);
    row["timestamp"] = string_or_null(c.event->timestamp);
    row["tool"] = c.event->tool;
    row["diff"] = c.diff;
    document += "--- " + fr.path + "\n+++ " + fr.path + "\n" + c.diff;
    env.rows.push_back(row);
  }
  if (!req.out.empty()) {
    const WriteOutcome w = write_recovered(req.out, document, req.force, scope);
    if (!w.written) usage_error(w.message);
    env.summary["wrote"] = w.path;
  }
}

std::vector<std::string> target_files(const RecoverRequest& req, const Scope& scope, const ToolContext& ctx) {
  if (req.batch()) return read_manifest(req.files_from);
  if (req.file == "@plan") return {resolve_plan_sigil(scope, ctx)};
  return {absolute_target_path(req.file)};
}

}  // namespace

Envelope run_recover(const json& args, ToolContext& ctx) {
  const RecoverRequest req = parse_recover_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  const std::vector<std::string> files = target_files(req, scope, ctx);
  if (files.empty()) usage_error(arg_ref("files_from") + " " + req.files_from + " lists no file");
  const ScopeContent content = scan_scope_content(scope, files, ctx);
  Envelope env = Envelope::make("recover");
  env.header = build_header(req, scope, files);
  for (const std::string& e : content.read_errors)
    env.notes.push_back("could not read " + e);
  json& sum = env.summary;
  sum["mode"] = recover_mode_name(req.mode);
  sum["transcripts_scanned"] = scope.transcripts.size();
  sum["transcripts_parsed"] = content.parsed;
  sum["transcripts_screened_out"] = content.screened_out;
  sum["skipped_lines"] = content.skipped_lines;
  if (req.batch()) {
    recover_batch(files, req, scope, content, env);
    return env;
  }
  const FileRecovery fr = recover_file(0, files.front(), scope, content, req);
  window_note(fr, env);
  patch_disagreement_note(fr, env);
  switch (req.mode) {
    case RecoverMode::restore:
      restore_row(fr, req, scope, env);
      break;
    case RecoverMode::salvage:
    case RecoverMode::at:
      snapshot_row(fr, req, scope, env);
      break;
    case RecoverMode::patches:
      patch_rows(fr, req, scope, env);
      break;
    case RecoverMode::coverage: {
      json row = coverage_fields("coverage", fr, req);
      env.rows.push_back(row);
      break;
    }
  }
  for (const std::string& n : scope.notes)
    env.notes.push_back(n);
  return env;
}

}  // namespace csift
