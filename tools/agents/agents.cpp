#include "tools/agents/agents.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "tools/agents/agents_rows.h"
#include "tools/agents/harness_children.h"
#include "tools/common/scope_args.h"

namespace csift {
namespace {

OrderAxis axis_arg(const json& args) {
  const std::string v = args.value("order_by", std::string("trigger"));
  return v == "start" ? OrderAxis::start : v == "completion" ? OrderAxis::completion : OrderAxis::trigger;
}

struct Request {
  OrderAxis axis = OrderAxis::trigger;
  TimeWindow window;
  std::set<std::string> shapes;  // empty = all
  std::string agent;             // one node to grab ("" = all)
  AgentRowOptions rows;
};

Request parse_request(const json& args) {
  Request r;
  r.axis = axis_arg(args);
  r.window = parse_time_window(args);
  for (const std::string& s : string_array(args, "shape"))
    r.shapes.insert(s);
  r.agent = args.value("agent", std::string());
  if (r.agent.starts_with("@")) r.agent.erase(0, 1);
  if (r.agent.starts_with("agent-")) r.agent.erase(0, 6);
  r.rows.returned_message = args.value("returned_message", false) || !r.agent.empty();
  r.rows.with_files = args.value("with_files", false);
  return r;
}

// The scope's transcripts grouped under their top-level session; a session file outside the scope (an
// @<agent-id> target) is looked up so its spawn calls can still be read.
struct Groups {
  std::map<std::string, SessionInputs> by_session;
  std::deque<Transcript> located;  // stable addresses for looked-up session files
  // Sessions of other harnesses whose harness records sub-agents (read through HarnessEntry::agents).
  std::vector<const Transcript*> harness_sessions;
};

Groups group_scope(const Scope& scope) {
  Groups g;
  for (const Transcript& t : scope.transcripts) {
    if (reads_harness_children(t)) {
      g.harness_sessions.push_back(&t);
      continue;
    }
    const std::string owner = t.is_subagent ? t.session_id : t.id;
    SessionInputs& in = g.by_session[owner];
    in.session_id = owner;
    if (t.is_subagent) {
      in.agents.push_back(&t);
    } else {
      in.session = &t;
    }
  }
  for (auto& [id, in] : g.by_session) {
    if (in.session || in.agents.empty() || id.empty()) continue;
    if (auto found = transcript_for_file(in.agents.front()->project_dir + "/" + id + ".jsonl")) {
      g.located.push_back(std::move(*found));
      in.session = &g.located.back();
    }
  }
  return g;
}

void read_all(Groups& g, bool with_files, std::map<const Transcript*, TranscriptMutations>& files,
              ToolContext& ctx) {
  std::vector<SessionInputs*> sessions;
  std::vector<std::pair<SessionInputs*, size_t>> agents;
  for (auto& [id, in] : g.by_session) {
    sessions.push_back(&in);
    in.lifecycles.resize(in.agents.size());
    for (size_t i = 0; i < in.agents.size(); ++i)
      agents.emplace_back(&in, i);
  }
  std::vector<TranscriptMutations> changed(with_files ? agents.size() : 0);
  tbb::parallel_for(size_t{0}, sessions.size() + agents.size(), [&](size_t k) {
    if (ctx.cancelled()) return;
    if (k < sessions.size()) {
      if (sessions[k]->session) sessions[k]->spawns = session_spawns(*sessions[k]->session, ctx.cancel);
      return;
    }
    auto [in, i] = agents[k - sessions.size()];
    in->lifecycles[i] = read_agent_lifecycle(*in->agents[i], ctx.cancel);
    if (with_files) changed[k - sessions.size()] = scan_file_mutations(*in->agents[i], ctx.cancel);
  });
  if (ctx.cancelled()) failure_error("agents was cancelled");
  for (size_t k = 0; k < changed.size(); ++k)
    files[agents[k].first->agents[agents[k].second]] = std::move(changed[k]);
}

bool admits(const Request& r, const AgentNode& n) {
  if (!r.agent.empty() && n.id != r.agent) return false;
  if (!r.shapes.empty() && !r.shapes.count(n.shape)) return false;
  if (r.window.bounded()) {
    const auto t = parse_iso8601(n.axis_timestamp(r.axis));
    if (!t || !r.window.contains(*t)) return false;
  }
  return true;
}

struct Totals {
  size_t sessions = 0, runs = 0, agents = 0, orphans = 0, teammates = 0;
  uint64_t spawns_without_transcript = 0, skipped = 0;
};

void emit_session(const SessionTree& tree, const Request& req,
                  const std::map<const Transcript*, TranscriptMutations>& files, Envelope& env,
                  Totals& totals) {
  std::vector<json> rows;
  std::set<std::string> runs_with_agents;
  for (const TreeItem& item : tree.order) {
    if (item.is_run) continue;
    const AgentNode& n = tree.nodes[item.index];
    if (admits(req, n) && !n.run_id.empty()) runs_with_agents.insert(n.run_id);
  }
  size_t runs = 0, agents = 0;
  for (const TreeItem& item : tree.order) {
    if (item.is_run) {
      const RunNode& r = tree.runs[item.index];
      if (!req.agent.empty() || (!req.shapes.empty() && !req.shapes.count("workflow"))) continue;
      if (req.window.bounded() && !runs_with_agents.count(r.run.run_id)) continue;
      rows.push_back(run_row(tree, r));
      ++runs;
      continue;
    }
    const AgentNode& n = tree.nodes[item.index];
    if (!admits(req, n)) continue;
    const auto f = n.transcript ? files.find(n.transcript) : files.end();
    rows.push_back(agent_row(tree, n, req.rows, f == files.end() ? nullptr : &f->second));
    ++agents;
    if (!n.orphan_reason.empty()) ++totals.orphans;
    if (n.shape == "teammate") ++totals.teammates;
  }
  const bool filtered = !req.agent.empty() || req.window.bounded() || !req.shapes.empty();
  if (runs + agents == 0 && (filtered || tree.spawns_without_transcript == 0)) return;
  env.rows.push_back(session_row(tree, runs, agents));
  for (json& row : rows)
    env.rows.push_back(std::move(row));
  ++totals.sessions;
  totals.runs += runs;
  totals.agents += agents;
  totals.spawns_without_transcript += tree.spawns_without_transcript;
  totals.skipped += tree.skipped_lines;
}

// The sessions of other harnesses, each with the children its harness records; a session that is itself a
// child of another session in scope (a Codex sub-agent's rollout) appears under that parent only.
void emit_harness_sessions(std::vector<const Transcript*> sessions, const Request& req, Envelope& env,
                           Totals& totals, std::vector<std::string>& notes, ToolContext& ctx) {
  std::sort(sessions.begin(), sessions.end(),
            [](const Transcript* a, const Transcript* b) { return a->id < b->id; });
  std::vector<HarnessSession> read(sessions.size());
  HarnessAgentsCall call;  // a store index built once for all of them (Codex's rollouts by thread id)
  tbb::parallel_for(size_t{0}, sessions.size(), [&](size_t k) {
    if (!ctx.cancelled()) read[k] = read_harness_session(*sessions[k], ctx.cancel, call);
  });
  if (ctx.cancelled()) failure_error("agents was cancelled");
  std::set<std::string> in_scope;
  for (const Transcript* t : sessions)
    in_scope.insert(t->id);
  const std::map<const Transcript*, TranscriptMutations> no_files;
  for (HarnessSession& h : read) {
    if (!h.agents.parent_ref.empty() && in_scope.count(h.agents.parent_ref)) continue;
    for (const std::string& note : h.agents.notes)
      if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    const SessionTree tree = harness_session_tree(std::move(h), req.axis);
    emit_session(tree, req, no_files, env, totals);
  }
}

}  // namespace

Envelope run_agents(const json& args, ToolContext& ctx) {
  const Request req = parse_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  Groups groups = group_scope(scope);
  std::map<const Transcript*, TranscriptMutations> files;
  read_all(groups, req.rows.with_files, files, ctx);

  Envelope env = Envelope::make("agents");
  env.header = span_header("agents", scope);
  echo_time_window(req.window, env.header);
  env.header["order_by"] = args.value("order_by", std::string("trigger"));
  Totals totals;
  for (auto& [id, in] : groups.by_session) {
    const SessionTree tree = build_session_tree(std::move(in), req.axis);
    emit_session(tree, req, files, env, totals);
  }
  std::vector<std::string> harness_notes;
  emit_harness_sessions(groups.harness_sessions, req, env, totals, harness_notes, ctx);
  if (!req.agent.empty() && totals.agents == 0) {
    not_found_error(
        "no subagent " + req.agent + " in the scope (" + std::to_string(scope.subagent_sessions) +
        " subagent transcripts); give its id as agents print it (bare hex, or a<Name>-<hex> for a "
        "teammate) and a target that holds it");
  }
  json& s = env.summary;
  s["sessions"] = totals.sessions;
  s["runs"] = totals.runs;
  s["agents"] = totals.agents;
  s["orphans"] = totals.orphans;
  s["teammates"] = totals.teammates;
  s["spawns_without_transcript"] = totals.spawns_without_transcript;
  s["skipped_lines"] = totals.skipped;
  env.notes = scope.notes;
  for (const std::string& note : harness_notes)
    if (std::find(env.notes.begin(), env.notes.end(), note) == env.notes.end()) env.notes.push_back(note);
  return env;
}

}  // namespace csift
