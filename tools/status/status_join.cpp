#include "tools/status/status_join.h"

#include <algorithm>

#include "core/store/elicitation_sidecar.h"
#include "core/store/store.h"
#include "tools/agents/workflow_runs.h"

namespace csift {
namespace {

bool is_ask(const std::string& tool) {
  return tool == "AskUserQuestion" || tool == "ExitPlanMode";
}

bool is_spawn(const std::string& tool) {
  return tool == "Task" || tool == "Agent";
}

json age_of(std::optional<EpochMs> at, EpochMs now) {
  return at ? json((now - *at) / 1000) : json(nullptr);
}

std::string secs(std::optional<EpochMs> at, EpochMs now) {
  return at ? std::to_string(std::max<int64_t>(0, (now - *at) / 1000)) + "s" : "an unknown time";
}

void add_evidence(StatusJoin& s, std::string surface, std::string value, json age) {
  s.evidence.push_back(
      json{{"surface", std::move(surface)}, {"value", std::move(value)}, {"age_secs", std::move(age)}});
}

// The row whose owner is the session's process now: a live one first, else one whose liveness could not be
// probed; nullptr when there is none.
const RegistryRow* current_row(const RegistryRowsForSession& reg) {
  for (const auto& r : reg.rows) {
    if (r.owner == OwnerState::alive) return &r;
  }
  for (const auto& r : reg.rows) {
    if (r.owner == OwnerState::foreign_domain || r.owner == OwnerState::unprobed) return &r;
  }
  return nullptr;
}

std::optional<EpochMs> row_instant(const RegistryRow& r) {
  if (r.status_updated_at.empty()) return std::nullopt;
  if (r.status_updated_at.find_first_not_of("0123456789") == std::string::npos)
    return std::stoll(r.status_updated_at);
  return parse_iso8601(r.status_updated_at);
}

void registry_evidence(StatusJoin& s, EpochMs now) {
  if (!s.registry.registry_dir_present) {
    s.notes.push_back(
        "no session registry directory (<claude-home>/sessions): owner liveness was not joined; the "
        "verdict rests on the transcript alone");
    add_evidence(s, "registry", "no registry directory", nullptr);
    return;
  }
  if (s.registry.rows.empty()) {
    s.notes.push_back(
        "no registry row names this session (a finished session, a `claude -p` run that wrote none, or "
        "one on another machine): liveness was judged from the transcript alone");
    add_evidence(s, "registry", "no row for this session", nullptr);
  }
  for (const auto& r : s.registry.rows) {
    add_evidence(s, "registry",
                 r.row_path + ": status " + (r.status.empty() ? "null" : r.status) +
                     (r.waiting_for.empty() ? "" : " (waiting for " + r.waiting_for + ")") + "; owner pid " +
                     std::to_string(r.pid) + " " + owner_state_name(r.owner) + " — " + r.owner_check,
                 age_of(row_instant(r), now));
    if (r.owner == OwnerState::alive && !r.start_guarded)
      s.notes.push_back("pid-reuse guard skipped for " + r.row_path + ": " + r.owner_check +
                        "; the owner was probed by pid alone");
    if (r.owner == OwnerState::foreign_domain)
      s.notes.push_back(r.row_path + " names pid domain '" + r.pid_domain + "': its owner was not probed");
    if (r.owner == OwnerState::unprobed) s.notes.push_back(r.owner_check);
  }
  if (s.registry.unreadable_rows)
    s.notes.push_back(std::to_string(s.registry.unreadable_rows) +
                      " registry row(s) could not be parsed (skipped)");
}

std::string describe_tail(const LaneTail& t, EpochMs now, const OwnCall& own) {
  if (!t.error.empty()) return "unreadable (" + t.error + ")";
  if (!t.open_calls.empty()) {
    const OpenCall& c = t.open_calls.back();
    if (own.in_session && c.id == own.tool_use_id)
      return "in this very call (" + c.name + ", the caller's own, running now) for " + secs(c.at, now);
    return "in a " + c.name + " call for " + secs(c.at, now);
  }
  const bool stale = !t.last_turn_record_at || now - *t.last_turn_record_at >= kGeneratingWindowMs;
  if (stale && t.last_turn_record != LastTurnRecord::assistant_end_turn &&
      t.last_turn_record != LastTurnRecord::none)
    return "stale: mid-turn with no end of turn, last conversational record " +
           secs(t.last_turn_record_at, now) + " ago";
  switch (t.last_turn_record) {
    case LastTurnRecord::none:
      return "no conversational record in the tail window";
    case LastTurnRecord::assistant_end_turn:
      return "idle (end of turn " + secs(t.last_turn_record_at, now) + " ago)";
    case LastTurnRecord::human_prompt:
      return "generating (a human prompt landed " + secs(t.last_turn_record_at, now) + " ago)";
    case LastTurnRecord::tool_result:
      return "generating (a tool result landed " + secs(t.last_turn_record_at, now) + " ago)";
    case LastTurnRecord::notification:
      return "generating (a task notification landed " + secs(t.last_turn_record_at, now) + " ago)";
    case LastTurnRecord::assistant_other:
      return "generating (assistant message, stop_reason " +
             (t.last_stop_reason.empty() ? std::string("null") : t.last_stop_reason) + ", " +
             secs(t.last_turn_record_at, now) + " ago)";
  }
  return "unknown";
}

void read_pending(StatusJoin& s, const Transcript& session) {
  const SidecarMerge merge = read_unresolved_pending(session, s.main_tail.window_records);
  s.skipped_lines += merge.skipped_lines;
  for (const auto& p : merge.pending) {
    s.pending.push_back(json{{"source", "elicitation-sidecar"},
                             {"kind", p.kind},
                             {"key", p.key},
                             {"timestamp_utc", string_or_null(p.record.timestamp)}});
  }
  for (const auto& c : s.main_tail.open_calls) {
    if (is_ask(c.name))
      s.pending.push_back(
          json{{"source", "transcript"}, {"kind", c.name}, {"key", c.id}, {"timestamp_utc", nullptr}});
  }
  s.pending_hitl = s.pending.size();
  add_evidence(
      s, "sidecar",
      std::to_string(merge.pending.size()) + " unresolved pending elicitation(s)" +
          (merge.skipped_lines ? " (" + std::to_string(merge.skipped_lines) + " sidecar line(s) skipped)"
                               : ""),
      nullptr);
}

// The workflow journals: an agent with a `started` event and no `result` is in flight (the seed's rule), and
// keeps the session waiting on its children like a live lane does.
void read_workflows(StatusJoin& s, const Transcript& session) {
  for (const auto& [id, run] : read_workflow_runs(session)) {
    json in_flight = json::array();
    size_t started = 0, returned = 0;
    for (const auto& [agent, entry] : run.journal) {
      started += entry.started;
      returned += entry.has_result;
      if (entry.started && !entry.has_result) in_flight.push_back(agent);
    }
    s.workflow_in_flight += in_flight.size();
    const std::string name =
        run.manifest.is_object() && run.manifest.contains("name") && run.manifest["name"].is_string()
            ? run.manifest["name"].get<std::string>()
            : "";
    add_evidence(s, "workflow",
                 id + (name.empty() ? "" : " (" + name + ")") + ": " + std::to_string(started) +
                     " agent(s) started, " + std::to_string(returned) + " returned, " +
                     std::to_string(in_flight.size()) + " in flight" +
                     (run.has_manifest ? "" : "; no run manifest"),
                 nullptr);
    if (run.journal_skipped_lines)
      s.notes.push_back(id + ": " + std::to_string(run.journal_skipped_lines) +
                        " journal line(s) could not be parsed (skipped)");
    s.skipped_lines += run.journal_skipped_lines;
    s.workflows.push_back(json{{"run_id", id},
                               {"workflow", string_or_null(name)},
                               {"started", started},
                               {"returned", returned},
                               {"in_flight", std::move(in_flight)}});
  }
}

void read_tasks(StatusJoin& s, const std::string& claude_home, const Transcript& session) {
  s.tasks = read_harness_tasks(claude_home, session.id);
  if (!s.tasks.dir_found) {
    add_evidence(s, "tasks", "no harness task list (<claude-home>/tasks/<uuid> or tasks/session-<first8>)",
                 nullptr);
    return;
  }
  add_evidence(s, "tasks",
               std::to_string(s.tasks.open.size()) + " open task(s), " + std::to_string(s.tasks.completed) +
                   " completed",
               nullptr);
  if (s.tasks.unreadable)
    s.notes.push_back(std::to_string(s.tasks.unreadable) + " task file(s) could not be parsed (skipped)");
}

std::string decide(StatusJoin& s, EpochMs now) {
  const LaneTail& t = s.main_tail;
  const RegistryRow* row = current_row(s.registry);
  const bool all_rows_dead = !s.registry.rows.empty() && !row;
  if (all_rows_dead) return "stale-dead";
  const std::string row_status = row ? row->status : "";
  if (s.pending_hitl > 0 || row_status == "waiting") return "waiting-hitl";
  std::vector<const OpenCall*> work_calls, spawn_calls;
  for (const auto& c : t.open_calls) {
    if (is_ask(c.name)) continue;
    (is_spawn(c.name) ? spawn_calls : work_calls).push_back(&c);
  }
  const bool live_children = !s.children.live.empty() || s.workflow_in_flight > 0;
  const bool young = t.last_turn_record_at && now - *t.last_turn_record_at < kGeneratingWindowMs;
  const bool mid_turn =
      t.last_turn_record != LastTurnRecord::assistant_end_turn && t.last_turn_record != LastTurnRecord::none;
  if (!work_calls.empty()) return "running";
  if (!spawn_calls.empty() && !live_children) return "running";  // a spawn whose lane has not appeared yet
  if (spawn_calls.empty() && mid_turn && (young || row_status == "busy")) return "running";
  if (row_status == "busy" && !live_children) return "running";
  if (live_children) return "waiting-children";
  const bool eot = t.last_turn_record == LastTurnRecord::assistant_end_turn || row_status == "idle" ||
                   row_status == "shell";
  if (eot && s.background.open_counted > 0) return "idle-background-open";
  if (eot) return "idle-eot";
  return "unknown";
}

}  // namespace

bool is_verdict(std::string_view v) {
  return std::any_of(std::begin(kVerdicts), std::end(kVerdicts), [&](const char* k) { return v == k; });
}

StatusJoin compute_status(const Transcript& resolved, const std::string& claude_home,
                          const StatusOptions& opts, const CancelToken* cancel) {
  // The directory facts discovery noted (Transcript::session_dir) are a snapshot, and `wait` asks again and
  // again of the session it resolved once: a lane or sidecar born since must be looked for, not trusted away.
  Transcript session = resolved;
  session.session_dir = {};
  StatusJoin s;
  const EpochMs now = now_ms();
  s.main_tail = read_lane_tail(session);
  s.skipped_lines += s.main_tail.skipped_lines;
  s.registry = registry_rows_for_session(claude_home, session.id);
  const std::vector<Transcript> lanes = opts.subagents ? list_subagents(session) : std::vector<Transcript>{};
  s.background = scan_background(session, lanes, opts.lens, cancel);
  s.skipped_lines += s.background.skipped_lines;
  if (opts.subagents) {
    s.children = read_child_lanes(session, s.background.notified_ids, now);
    s.skipped_lines += s.children.skipped_lines;
  }
  registry_evidence(s, now);
  if (!opts.own_call.tool_use_id.empty()) {
    add_evidence(s, "caller", opts.own_call.evidence, nullptr);
    if (opts.own_call.in_session)
      s.notes.push_back(
          "the call running now (tool_use " + opts.own_call.tool_use_id + ", in lane " + opts.own_call.lane +
          ") is this session's own: it is waiting on this answer, so it cannot be idle or stop until the "
          "call returns");
  }
  s.tail_state = describe_tail(s.main_tail, now, opts.own_call);
  add_evidence(s, "tail", s.tail_state, age_of(s.main_tail.last_record_at, now));
  read_pending(s, session);
  add_evidence(s, "children",
               opts.subagents ? std::to_string(s.children.live.size()) + " live lane(s), " +
                                    std::to_string(s.children.settled) + " settled"
                              : "not read (no_subagents)",
               nullptr);
  add_evidence(s, "background",
               std::to_string(s.background.open) + " open task(s), " +
                   std::to_string(s.background.open_counted) + " counted by the lens (main lane and " +
                   std::to_string(s.background.lanes_scanned) + " subagent lane(s) scanned)",
               nullptr);
  read_workflows(s, session);
  read_tasks(s, claude_home, session);
  s.verdict = decide(s, now);
  if (s.main_tail.window_from > 0)
    s.notes.push_back("the main tail was read from its last " + std::to_string(kLaneTailWindow / 1024) +
                      " KiB (complete lines only); calls opened before that window are not seen");
  if (s.main_tail.torn_tail)
    s.notes.push_back("the main transcript ends in a line still being written: held back");
  if (s.verdict == "idle-eot" || s.verdict == "idle-background-open" || s.verdict == "unknown") {
    const RegistryRow* row = current_row(s.registry);
    s.notes.push_back(
        std::string("a pending PERMISSION prompt leaves no transcript trace and would look idle; only "
                    "a current registry row shows it (status waiting): ") +
        (row ? "this session's row says status " + (row->status.empty() ? std::string("null") : row->status)
             : std::string("this session has no live registry row")));
  }
  if (s.background.agents_stopped_notice)
    s.notes.push_back(
        "an agents-stopped notice landed; it names no id, so which agents it stopped is unknown");
  s.notes.push_back(
      "not read by this build: the TodoWrite list (<claude-home>/todos/<session>-agent-<id>.json); the "
      "task list reported is the Task* tools' one");
  if (!opts.subagents)
    s.notes.push_back("no_subagents: background launches were taken from the main lane only");
  return s;
}

json last_messages_json(const LaneTail& tail) {
  auto message = [](const TailMessage& m) {
    if (!m.found) return json(nullptr);
    return json{{"excerpt", excerpt(one_line(m.text), 400)}, {"timestamp_utc", string_or_null(m.timestamp)}};
  };
  return json{{"human", message(tail.last_human)},
              {"agent", message(tail.last_agent)},
              {"caution", "an excerpt is a partial view of the final state, never a review of the work"}};
}

json status_row(const StatusJoin& s, EpochMs now) {
  json children = json::array();
  for (const auto& lane : s.children.live)
    children.push_back(child_lane_json(lane, now));
  return json{{"verdict", s.verdict},
              {"tail_state", s.tail_state},
              {"evidence", s.evidence},
              {"children", std::move(children)},
              {"settled_children", s.children.settled},
              {"pending", s.pending},
              {"background", background_json(s.background)},
              {"last", last_messages_json(s.main_tail)},
              {"workflows", s.workflows},
              {"tasks", s.tasks.dir_found ? s.tasks.open : json(nullptr)},
              {"tasks_completed", s.tasks.completed},
              {"notes", s.notes}};
}

}  // namespace csift
