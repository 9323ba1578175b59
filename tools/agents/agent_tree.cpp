#include "tools/agents/agent_tree.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "core/base/timefmt.h"
#include "core/store/agent_topology.h"

namespace csift {

std::string AgentNode::axis_timestamp(OrderAxis axis) const {
  switch (axis) {
    case OrderAxis::start:
      return life.first_timestamp;
    case OrderAxis::completion:
      return completed_timestamp;
    default:
      return spawn && !spawn->timestamp.empty() ? spawn->timestamp : life.first_timestamp;
  }
}

std::string RunNode::axis_timestamp(OrderAxis axis) const {
  if (axis == OrderAxis::trigger && spawn && !spawn->timestamp.empty()) return spawn->timestamp;
  return started_timestamp;
}

namespace {

// Earlier instants first; a missing one sorts last; ties keep the given order.
bool earlier(const std::string& a, const std::string& b) {
  const auto ta = parse_iso8601(a), tb = parse_iso8601(b);
  if (!ta || !tb) return ta.has_value() && !tb.has_value();
  return *ta < *tb;
}

class TreeBuilder {
 public:
  TreeBuilder(SessionInputs in, OrderAxis axis) : in_(std::move(in)), axis_(axis) {}

  SessionTree build() {
    tree_.session_id = in_.session_id;
    tree_.session = in_.session;
    tree_.inline_sidechain_records = in_.spawns.inline_sidechain_records;
    tree_.skipped_lines = in_.spawns.skipped_lines;
    index_spawns();
    read_runs();
    for (size_t i = 0; i < in_.agents.size(); ++i)
      tree_.nodes.push_back(place_agent(*in_.agents[i], std::move(in_.lifecycles[i])));
    join_runs();
    add_unclaimed_spawns();
    for (AgentNode& n : tree_.nodes)
      resolve_outcome(n);
    assign_depths();
    arrange_tree(tree_, axis_);
    return std::move(tree_);
  }

 private:
  SessionInputs in_;
  OrderAxis axis_;
  SessionTree tree_;
  std::unordered_map<std::string, std::vector<SpawnCall>>
      spawns_;  // tool_use id -> its calls (clones repeat)
  std::vector<const SpawnCall*> all_spawns_;
  std::set<std::string> claimed_;

  void index_spawns() {
    for (SpawnCall& c : in_.spawns.calls)
      spawns_[c.tool_use_id].push_back(c);
    for (size_t i = 0; i < in_.agents.size(); ++i) {
      tree_.skipped_lines += in_.lifecycles[i].skipped_lines;
      for (SpawnCall& c : in_.lifecycles[i].spawns)
        spawns_[c.tool_use_id].push_back(c);
    }
    for (const auto& [id, calls] : spawns_)
      all_spawns_.push_back(&calls.front());
    std::sort(all_spawns_.begin(), all_spawns_.end(), [](const SpawnCall* a, const SpawnCall* b) {
      return std::make_pair(a->issuer_id, a->line) < std::make_pair(b->issuer_id, b->line);
    });
  }

  // The copy of a spawn call to trust: the session's, else the first not held by `self` (a /fork clone
  // carries its parent's calls).
  const SpawnCall* spawn_by_id(const std::string& id, const std::string& self) const {
    const auto it = spawns_.find(id);
    if (it == spawns_.end()) return nullptr;
    for (const SpawnCall& c : it->second)
      if (c.issuer_id.empty()) return &c;
    for (const SpawnCall& c : it->second)
      if (c.issuer_id != self) return &c;
    return nullptr;
  }

  const SpawnCall* find_spawn(const Transcript& t) const {
    if (!t.spawn_tool_use_id().empty()) {
      if (const SpawnCall* c = spawn_by_id(t.spawn_tool_use_id(), t.id)) return c;
    }
    const bool teammate = t.shape == TranscriptShape::teammate || t.task_kind() == "in_process_teammate";
    for (const SpawnCall* c : all_spawns_) {
      if (claimed_.count(c->tool_use_id) || c->issuer_id == t.id || c->tool == "Workflow") continue;
      if (teammate && !t.agent_name().empty() && c->name == t.agent_name())
        return spawn_by_id(c->tool_use_id, t.id);
      if (!c->result_agent_id.empty() && c->result_agent_id == t.id) return spawn_by_id(c->tool_use_id, t.id);
    }
    return nullptr;
  }

  AgentNode place_agent(const Transcript& t, AgentLifecycle&& life) {
    AgentNode n;
    n.transcript = &t;
    n.id = t.id;
    n.shape = shape_name(t.shape);
    n.life = std::move(life);
    n.run_id = t.workflow_id;
    if (const SpawnCall* c = find_spawn(t)) {
      n.spawn = *c;
      claimed_.insert(c->tool_use_id);
    }
    if (!t.parent_agent_id().empty() && t.parent_agent_id() != t.id) {
      n.parent_agent_id = t.parent_agent_id();
    } else if (n.spawn && !n.spawn->issuer_id.empty() && n.spawn->issuer_id != t.id) {
      n.parent_agent_id = n.spawn->issuer_id;
    }
    if (!n.spawn && n.parent_agent_id.empty() && n.run_id.empty())
      n.orphan_reason = orphan_reason(t, in_.session);
    return n;
  }

  static std::string orphan_reason(const Transcript& t, const Transcript* session) {
    if (!session) {
      return "the session's own transcript is absent, so the call that spawned it cannot be read (none of "
             "the "
             "agents beside it holds one)";
    }
    if (!t.spawn_tool_use_id().empty()) {
      return "its spawning call " + t.spawn_tool_use_id() +
             " (meta toolUseId) is in neither the session nor any of its agents";
    }
    return "no spawning call names it: no toolUseId in its meta, no Agent call by its name, no spawn result "
           "naming its id (the harness starts some agents itself, e.g. compaction or warmup)";
  }

  void read_runs() {
    Transcript where;
    if (in_.session) {
      where = *in_.session;
    } else if (!in_.agents.empty()) {
      where.project_dir = in_.agents.front()->project_dir;
      where.id = in_.session_id;
    }
    if (where.project_dir.empty()) return;
    for (auto& [id, run] : read_workflow_runs(where))
      tree_.runs.push_back({std::move(run), std::nullopt, ""});
  }

  RunNode& run_for(const std::string& id) {
    for (RunNode& r : tree_.runs)
      if (r.run.run_id == id) return r;
    RunNode r;
    r.run.run_id = id;
    tree_.runs.push_back(std::move(r));
    return tree_.runs.back();
  }

  // A run's Workflow call: its result names the run id, else its input names the manifest's workflow.
  void join_runs() {
    for (const AgentNode& n : tree_.nodes) {
      if (n.run_id.empty()) continue;
      RunNode& r = run_for(n.run_id);
      if (r.started_timestamp.empty() || earlier(n.life.first_timestamp, r.started_timestamp))
        r.started_timestamp = n.life.first_timestamp;
    }
    for (RunNode& r : tree_.runs) {
      const std::string name = r.run.manifest.value("workflowName", std::string());
      for (int pass = 0; pass < 2 && !r.spawn; ++pass) {
        for (const SpawnCall* c : all_spawns_) {
          if (c->tool != "Workflow" || claimed_.count(c->tool_use_id)) continue;
          const bool hit = pass == 0 ? c->result_text.find(r.run.run_id) != std::string::npos
                                     : !name.empty() && c->workflow_name == name;
          if (!hit) continue;
          r.spawn = *c;
          claimed_.insert(c->tool_use_id);
          break;
        }
      }
    }
  }

  // Spawn calls no transcript answers to: a CC 1.x session wrote those agents inline (a node each);
  // otherwise the transcript is missing, which is counted.
  void add_unclaimed_spawns() {
    for (const SpawnCall* c : all_spawns_) {
      if (claimed_.count(c->tool_use_id) || c->tool == "Workflow") continue;
      if (c->issuer_id.empty() && tree_.inline_sidechain_records > 0) {
        AgentNode n;
        n.id = c->tool_use_id;
        n.shape = "inline-sidechain";
        n.spawn = *c;
        tree_.nodes.push_back(std::move(n));
      } else {
        ++tree_.spawns_without_transcript;
      }
    }
  }

  void resolve_outcome(AgentNode& n) {
    const JournalEntry* journal = nullptr;
    if (!n.run_id.empty()) {
      const RunNode& r = run_for(n.run_id);
      const auto it = r.run.journal.find(n.id);
      if (it != r.run.journal.end()) journal = &it->second;
    }
    if (!n.transcript) {  // inline: the session's own result is all there is
      n.status = n.spawn->has_result ? "completed" : "running";
    } else {
      n.status = journal && journal->has_result ? "completed" : n.life.status;
      if (n.status == "completed") n.completed_timestamp = n.life.last_timestamp;
    }
    if (journal && journal->has_result) {
      n.returned_message = journal->result;
      n.returned_source = "workflow-journal";
    } else if (n.spawn && n.spawn->has_result && !n.spawn->async_launch() &&
               n.spawn->result_status != "teammate_spawned") {
      n.returned_message = n.spawn->result_text;
      n.returned_source = "sync-tool-result";
    } else if (!n.life.tail_text.empty()) {
      n.returned_message = n.life.tail_text;
      n.returned_source = "async-child-tail";
    }
  }

  void assign_depths() {
    AgentTopology topo;
    std::set<std::string> present;
    for (const AgentNode& n : tree_.nodes)
      present.insert(n.id);
    for (const AgentNode& n : tree_.nodes)
      topo.parent[n.id] = present.count(n.parent_agent_id) ? n.parent_agent_id : "";
    for (AgentNode& n : tree_.nodes)
      n.depth = static_cast<int>(topo.ancestry(n.id).size()) - 1;
  }
};

}  // namespace

SessionTree build_session_tree(SessionInputs in, OrderAxis axis) {
  return TreeBuilder(std::move(in), axis).build();
}

void arrange_tree(SessionTree& tree, OrderAxis axis) {
  std::map<std::string, std::vector<size_t>> children;  // parent agent id ("" = a root) -> nodes
  std::set<std::string> present;
  for (const AgentNode& n : tree.nodes)
    present.insert(n.id);
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const AgentNode& n = tree.nodes[i];
    children[present.count(n.parent_agent_id) && n.parent_agent_id != n.id ? n.parent_agent_id : ""]
        .push_back(i);
  }
  for (auto& [parent, kids] : children) {
    std::stable_sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
      return earlier(tree.nodes[a].axis_timestamp(axis), tree.nodes[b].axis_timestamp(axis));
    });
  }
  std::vector<bool> emitted(tree.nodes.size(), false);
  std::function<void(size_t, int)> visit = [&](size_t i, int depth) {
    if (emitted[i]) return;
    emitted[i] = true;
    tree.order.push_back({false, i, depth});
    for (size_t k : children[tree.nodes[i].id])
      visit(k, depth + 1);
  };
  std::vector<size_t> runs(tree.runs.size());
  for (size_t r = 0; r < runs.size(); ++r)
    runs[r] = r;
  std::stable_sort(runs.begin(), runs.end(), [&](size_t a, size_t b) {
    return earlier(tree.runs[a].axis_timestamp(axis), tree.runs[b].axis_timestamp(axis));
  });
  for (size_t r : runs) {
    tree.order.push_back({true, r, 0});
    for (size_t k : children[""])
      if (tree.nodes[k].run_id == tree.runs[r].run.run_id) visit(k, 1);
  }
  for (size_t k : children[""])
    visit(k, 0);
  for (size_t i = 0; i < tree.nodes.size(); ++i)  // a forged parent cycle: never dropped
    visit(i, 0);
}

}  // namespace csift
