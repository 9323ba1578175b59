#include "tools/agents/agents_rows.h"

#include <map>

#include "core/base/timefmt.h"
#include "tools/list/list_row.h"

namespace csift {
namespace {

json files_changed(const TranscriptMutations& m) {
  std::map<std::string, std::map<std::string, uint64_t>> ops;
  std::map<std::string, bool> heuristic_only;
  for (const FileMutation& f : m.mutations) {
    ++ops[f.path][f.op];
    auto [it, fresh] = heuristic_only.emplace(f.path, f.heuristic);
    if (!fresh) it->second = it->second && f.heuristic;
  }
  json out = json::array();
  for (const auto& [path, by_op] : ops) {
    json ops_json = json::object();
    for (const auto& [op, n] : by_op)
      ops_json[op] = n;
    out.push_back({{"path", path}, {"ops", ops_json}, {"heuristic", heuristic_only[path]}});
  }
  return out;
}

// What another harness's log records of a child beyond the fields every row has: the ref whose records
// hold it, its prompt (an excerpt), model, why it failed, the figures the harness keeps itself, and what
// it does not keep.
void harness_fields(const HarnessChildAgent& h, bool is_inline, json& row) {
  row["ref"] = string_or_null(h.ref);
  row["prompt"] = string_or_null(excerpt(h.prompt, 2000));
  row["model"] = string_or_null(h.model);
  row["failure"] = string_or_null(h.failure);
  json recorded = json::object();
  if (h.recorded_total_tokens) recorded["total_tokens"] = *h.recorded_total_tokens;
  if (h.recorded_tool_calls) recorded["tool_calls"] = *h.recorded_tool_calls;
  if (h.recorded_duration_ms) recorded["duration_ms"] = *h.recorded_duration_ms;
  if (is_inline) recorded["inline_tool_calls"] = h.tool_calls;
  row["recorded"] = std::move(recorded);
  row["not_recorded"] = string_or_null(h.not_recorded);
}

json duration_ms(const std::string& from, const std::string& to) {
  const auto a = parse_iso8601(from), b = parse_iso8601(to);
  return a && b ? json(*b - *a) : json(nullptr);
}

}  // namespace

json session_row(const SessionTree& tree, size_t runs, size_t agents) {
  json row = json::object({{"kind", "session"}});
  row["session_id"] = tree.session_id;
  row["session_present"] = tree.session != nullptr;
  row["runs"] = runs;
  row["agents"] = agents;
  row["spawns_without_transcript"] = tree.spawns_without_transcript;
  row["inline_sidechain_records"] = tree.inline_sidechain_records;
  row["skipped_lines"] = tree.skipped_lines;
  return row;
}

json run_row(const SessionTree& tree, const RunNode& r) {
  json row = json::object({{"kind", "run"}});
  const json& m = r.run.manifest;
  auto field = [&](const char* key) { return m.contains(key) ? m[key] : json(nullptr); };
  row["session_id"] = tree.session_id;
  row["run_id"] = r.run.run_id;
  row["manifest_present"] = r.run.has_manifest;
  row["task_id"] = field("taskId");
  row["workflow_name"] = field("workflowName");
  row["status"] = field("status");
  row["agent_count"] = field("agentCount");
  row["duration_ms"] = field("durationMs");
  row["total_tokens"] = field("totalTokens");
  row["total_tool_calls"] = field("totalToolCalls");
  row["default_model"] = field("defaultModel");
  row["spawn_tool_use_id"] = r.spawn ? json(r.spawn->tool_use_id) : json(nullptr);
  put_instant(row, "trigger", r.spawn ? r.spawn->timestamp : "");
  put_instant(row, "started", r.started_timestamp);
  return row;
}

json agent_row(const SessionTree& tree, const AgentNode& n, const AgentRowOptions& opts,
               const TranscriptMutations* files) {
  json row = json::object({{"kind", "agent"}});
  const Transcript* t = n.transcript;
  const SpawnCall* s = n.spawn ? &*n.spawn : nullptr;
  row["agent_id"] = n.id;
  row["shape"] = n.shape;
  row["parent_session_id"] = tree.session_id;
  row["parent_agent_id"] = string_or_null(n.parent_agent_id);
  row["run_id"] = string_or_null(n.run_id);
  row["depth"] = n.depth;
  row["path"] = t ? json(t->path) : json(nullptr);
  row["spawn_tool"] = s ? json(s->tool) : json(nullptr);
  row["spawn_tool_use_id"] = s ? json(s->tool_use_id) : json(nullptr);
  row["spawn_line"] = s ? json(s->line) : json(nullptr);
  row["spawned_by"] =
      s ? string_or_null(s->issuer_id.empty() ? tree.session_id : s->issuer_id) : json(nullptr);
  row["agent_type"] = string_or_null(t && !t->agent_type().empty() && n.shape != "teammate" ? t->agent_type()
                                     : s                                                    ? s->subagent_type
                                         : (t ? t->agent_type() : ""));
  row["description"] = string_or_null(t && !t->description().empty() ? t->description()
                                      : s                            ? s->description
                                                                     : "");
  // Another harness's child is named by its spawn (a Codex thread's nickname); a Claude Code agent by its
  // meta.
  row["name"] = string_or_null(t && !t->agent_name().empty() ? t->agent_name()
                               : n.harness                   ? n.harness->name
                                                             : (t ? t->agent_name() : ""));
  row["team_name"] = string_or_null(t && !t->team_name().empty() ? t->team_name() : s ? s->team_name : "");
  row["orphan"] = !n.orphan_reason.empty();
  row["orphan_reason"] = string_or_null(n.orphan_reason);
  put_instant(row, "trigger", n.axis_timestamp(OrderAxis::trigger));
  put_instant(row, "started", n.life.first_timestamp);
  put_instant(row, "completed", n.completed_timestamp);
  put_instant(row, "last_activity", n.life.last_timestamp);
  row["duration_ms"] = n.completed_timestamp.empty()
                           ? json(nullptr)
                           : duration_ms(n.axis_timestamp(OrderAxis::trigger), n.completed_timestamp);
  row["status"] = n.status;
  row["pending_tool_use_id"] = string_or_null(n.life.pending_tool_use_id);
  row["pending_tool_name"] = string_or_null(n.life.pending_tool_name);
  put_instant(row, "pending_since", n.life.pending_since);
  row["turns"] = n.life.turns;
  row["tokens"] = tokens_json(n.life.tokens);
  row["tool_calls"] = json::object();
  for (const auto& [name, count] : n.life.tool_calls)
    row["tool_calls"][name] = count;
  row["skipped_lines"] = n.life.skipped_lines;
  row["returned_message_source"] = string_or_null(n.returned_source);
  if (opts.returned_message) row["returned_message"] = string_or_null(n.returned_message);
  if (n.shape == "teammate") {
    row["control_hint"] =
        "steer or stop a teammate with SendMessage to its name (a shutdown_request message); "
        "TaskStop does not reach teammates";
  }
  if (opts.with_files) row["files_changed"] = files ? files_changed(*files) : json::array();
  if (n.harness) harness_fields(*n.harness, n.transcript == nullptr, row);
  return row;
}

}  // namespace csift
