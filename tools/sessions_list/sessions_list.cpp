#include "tools/sessions_list/sessions_list.h"

#include <map>

#include "core/base/arg_ref.h"
#include "core/base/timefmt.h"
#include "core/cache/result_memo_report.h"
#include "tools/triage/triage_run.h"

namespace csift {
namespace {

// The session's last activity for `since`: its last entry's time, else (nothing read) the log's mtime.
EpochMs sessions_list_last_activity(const TriageSession& s) {
  if (!s.end.empty())
    if (auto t = parse_iso8601(s.end)) return *t;
  return s.transcript.mtime_ns / 1000000;
}

json sessions_list_row(const TriageRun& run, const TriageSession& s) {
  json row = {{"kind", "session"},
              {"ref", s.ref},
              {"harness", std::string(harness_name(s.transcript.harness))},
              {"state", s.state.state},
              {"reason", string_or_null(triage_scrub(run, s.state.reason))},
              {"path", triage_scrub(run, s.transcript.path)}};
  if (s.read) {
    row["project"] = string_or_null(triage_scrub(run, s.project));
    row["cwds"] = triage_scrub_list(run, s.cwds);
    row["start"] = string_or_null(s.start);
    row["end"] = string_or_null(s.end);
    row["counts"] = {{"entries", s.entries}, {"unparsed", s.unparsed}};
  } else {
    row["project"] = nullptr;
    row["cwds"] = nullptr;
    row["start"] = nullptr;
    row["end"] = nullptr;
    row["counts"] = nullptr;
  }
  row["size"] = s.read ? s.current.size : s.transcript.size;
  if (s.state.state == "changed") row["from_offset"] = s.state.from_offset;
  return row;
}

}  // namespace

Envelope run_sessions_list(const json& args, ToolContext& ctx) {
  TriageRun run = open_triage_run(args, ctx);
  const auto harnesses = triage_harnesses(args);
  std::optional<EpochMs> since;
  if (args.contains("since"))
    since = parse_when(args["since"].get<std::string>(), now_ms(), arg_ref("since"));
  const bool unprocessed = args.value("unprocessed", false);
  // A log is parsed only when the row needs what it records. Its store's mtime (OpenCode: the session row's
  // time_updated) bounds its last entry's time, so one last modified before `since` is left out unread; with
  // `unprocessed` alone, so is one its watermark already finds processed (a read could only refuse it).
  InventoryOptions options = triage_inventory_options(run);
  options.read = [&](const TriageSession& s) {
    if (since && s.transcript.mtime_ns / 1000000 < *since) return LogRead::never;
    if (!since && unprocessed && !s.state.unprocessed()) return LogRead::never;
    return LogRead::now;
  };
  const TriageInventory inv = take_inventory(run.env, run.policy, *run.db, harnesses, options);

  Envelope env = Envelope::make("sessions_list");
  env.header["state_db"] = triage_scrub(run, run.db->path());
  env.header["policy_file"] = string_or_null(triage_scrub(run, run.policy.file));
  json stores = json::array();
  for (const TriageStore& st : inv.stores) {
    stores.push_back(triage_store_json(run, st));
    for (const StoreProblem& p : st.problems)
      env.notes.push_back(st.harness + " store: " + triage_scrub(run, p.path) + ": " +
                          triage_scrub(run, p.reason));
    if (st.state == "absent" && !harnesses.empty())
      env.notes.push_back(
          st.harness + " store is absent" +
          (st.location.empty() ? std::string() : " (" + triage_scrub(run, st.location) + ")"));
  }
  env.header["stores"] = stores;
  std::map<std::string, size_t> per_state;
  size_t outside_since = 0, not_unprocessed = 0;
  for (const TriageSession& s : inv.sessions) {
    if (since && sessions_list_last_activity(s) < *since) {
      ++outside_since;
      continue;
    }
    if (unprocessed && !s.state.unprocessed()) {
      ++not_unprocessed;
      continue;
    }
    ++per_state[s.state.state];
    env.rows.push_back(sessions_list_row(run, s));
  }
  env.summary["sessions"] = env.rows.size();
  env.summary["states"] = per_state;
  env.summary["outside_since"] = outside_since;
  env.summary["not_unprocessed"] = not_unprocessed;
  report_disk_cache(env, *run.disk);
  return env;
}

std::string render_sessions_list_text(const Envelope& env, const json& args, const ToolContext& ctx) {
  (void)args;
  (void)ctx;
  std::string out;
  for (const json& row : env.rows) {
    std::string state = row["state"].get<std::string>();
    if (row["reason"].is_string() && state == "changed")
      state += " (" + row["reason"].get<std::string>() + ")";
    out += state + "  " + row["ref"].get<std::string>();
    if (row["project"].is_string()) out += "  " + row["project"].get<std::string>();
    if (row["end"].is_string()) out += "  last " + row["end"].get<std::string>();
    if (state == "disabled" || state == "denied" || state == "unreadable" || state == "unsupported-format" ||
        state == "unknown-project")
      out += "  — " + row["reason"].get<std::string>();
    out += "\n";
  }
  out += std::to_string(env.summary.value("sessions", 0)) + " session(s)";
  if (env.summary.contains("states")) {
    std::string parts;
    for (const auto& [k, v] : env.summary["states"].items())
      parts += (parts.empty() ? "" : ", ") + std::to_string(v.get<size_t>()) + " " + k;
    if (!parts.empty()) out += ": " + parts;
  }
  out += "\n";
  return out;
}

}  // namespace csift
