#include "tools/sessions_status/sessions_status.h"

#include <map>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/timefmt.h"
#include "core/cache/result_memo_report.h"
#include "core/store/retention.h"
#include "tools/common/retention_notes.h"
#include "tools/triage/triage_run.h"

namespace csift {
namespace {

json sessions_status_selection(const std::optional<SavedSelection>& s) {
  if (!s) return nullptr;
  return {{"harness", s->harness},
          {"since", string_or_null(s->since)},
          {"limit", s->limit},
          {"saved_at", s->saved_at}};
}

void sessions_status_save(const json& args, TriageRun& run) {
  SavedSelection sel;
  for (const HarnessEntry* h : triage_harnesses(args))
    sel.harness.emplace_back(h->name);
  if (args.contains("since")) {
    sel.since = args["since"].get<std::string>();
    parse_when(sel.since, now_ms(), arg_ref("since"));  // refused now rather than at the next run
  }
  sel.limit = args.value("limit", uint64_t{0});
  sel.saved_at = run.now;
  run.db->save_selection(sel);
}

}  // namespace

Envelope run_sessions_status(const json& args, ToolContext& ctx) {
  const bool set_selection = args.value("set_selection", false);
  if (!set_selection) {
    for (const char* only : {"harness", "since", "limit"})
      if (args.contains(only))
        usage_error(arg_ref(only) + " is part of the selection: give it with " + arg_ref("set_selection") +
                    " to save it");
  }
  TriageRun run = open_triage_run(args, ctx);
  if (set_selection) sessions_status_save(args, run);
  const TriageInventory inv = take_inventory(run.env, run.policy, *run.db, {}, triage_inventory_options(run));
  Envelope env = Envelope::make("sessions_status");
  env.header["state_db"] = triage_scrub(run, run.db->path());
  env.header["policy_file"] = string_or_null(triage_scrub(run, run.policy.file));
  std::map<std::string, std::map<std::string, size_t>> per_harness;
  // Claude Code's is the one cleanup csift reads (SPEC.md §2 "Retention"); a session already gone is absent.
  const CleanupPeriod period = claude_cleanup_period(resolve_claude_home(std::nullopt, run.env));
  const EpochMs now = now_ms();
  size_t expiring = 0;
  for (const TriageSession& s : inv.sessions) {
    ++per_harness[std::string(harness_name(s.transcript.harness))][s.state.state];
    if (s.state.state != "absent" && expires_in_days(s.transcript, period, now)) ++expiring;
  }
  const std::string claude(harness_name(HarnessId::claude_code));
  for (const TriageStore& st : inv.stores) {
    json& row = env.add_row("store");
    const json store = triage_store_json(run, st);
    for (const auto& [k, v] : store.items())
      row[k] = v;
    row["states"] = per_harness[st.harness];
    row["cleanup_period_days"] = st.harness == claude ? cleanup_days_json(period) : json();
    if (st.harness == claude && expiring > 0) row["expiring"] = expiring;
  }
  env.summary["selection"] = sessions_status_selection(run.db->selection());
  env.summary["selection_saved"] = set_selection;
  env.summary["sessions"] = inv.sessions.size();
  if (expiring > 0) env.summary["expiring"] = expiring_summary(expiring, period);
  if (!period.note.empty()) env.notes.push_back(period.note);
  report_disk_cache(env, *run.disk);
  return env;
}

std::string render_sessions_status_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args;
  (void)ctx;
  std::string out;
  for (const json& row : env.rows) {
    out += row["harness"].get<std::string>() + ": " + row["state"].get<std::string>();
    if (row["location"].is_string()) out += " at " + row["location"].get<std::string>();
    std::string parts;
    for (const auto& [k, v] : row["states"].items())
      parts += (parts.empty() ? "" : ", ") + std::to_string(v.get<size_t>()) + " " + k;
    if (!parts.empty()) out += " — " + parts;
    if (!row["problems"].empty()) out += " (" + std::to_string(row["problems"].size()) + " problem(s))";
    out += row["cleanup_period_days"].is_number()
               ? " · cleanup after " + row["cleanup_period_days"].dump() + " days"
               : std::string(" · no cleanup");
    out += "\n";
  }
  const json& sel = env.summary["selection"];
  if (sel.is_null()) {
    out += "selection: none saved\n";
  } else {
    std::string harness;
    for (const json& h : sel["harness"])
      harness += (harness.empty() ? "" : ",") + h.get<std::string>();
    out += "selection" + std::string(env.summary.value("selection_saved", false) ? " (saved now)" : "") +
           ": harness " + (harness.empty() ? "all" : harness) + ", since " +
           (sel["since"].is_string() ? sel["since"].get<std::string>() : "any time") + ", limit " +
           std::to_string(sel["limit"].get<uint64_t>()) + "\n";
  }
  return out + expiring_line(env.summary);
}

}  // namespace csift
