#include "tools/agents/harness_children.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "core/base/timefmt.h"
#include "core/harness/harness_entry.h"

namespace csift {

namespace {

std::string harness_child_shape(HarnessId h) {
  switch (h) {
    case HarnessId::codex:
      return "codex-thread";
    case HarnessId::copilot:
      return "copilot-subagent";
    case HarnessId::gemini_cli:
      return "gemini-subagent";
    default:
      return "opencode-child";
  }
}

bool harness_child_earlier(const std::string& a, const std::string& b) {
  const auto ta = parse_iso8601(a), tb = parse_iso8601(b);
  if (!ta || !tb) return ta.has_value() && !tb.has_value();
  return *ta < *tb;
}

AgentNode harness_child_node(const Transcript& session, const HarnessChildAgent& c, AgentLifecycle&& life) {
  AgentNode n;
  n.harness = std::make_shared<const HarnessChildAgent>(c);
  n.transcript = n.harness->transcript ? &*n.harness->transcript : nullptr;
  n.id = c.id;
  n.shape = harness_child_shape(session.harness);
  n.parent_agent_id = c.parent_agent_id;
  if (!c.spawn_tool.empty()) {
    SpawnCall s;
    s.tool_use_id = c.spawn_call_id;
    s.tool = c.spawn_tool;
    s.issuer_id = c.parent_agent_id;
    s.line = c.spawn_line;
    s.timestamp = c.trigger_timestamp;
    s.description = c.description;
    s.subagent_type = c.agent_type;
    s.name = c.name;
    n.spawn = std::move(s);
  }
  n.life = std::move(life);
  if (!n.transcript) {  // its events are inline in the session's log: the harness reader counted them
    n.life.first_timestamp = c.started_timestamp;
    n.life.last_timestamp = c.last_activity_timestamp;
    n.life.turns = static_cast<int>(c.turns);
  } else if (n.life.first_timestamp.empty()) {
    n.life.first_timestamp = c.started_timestamp;
  }
  // The harness's own record of the outcome wins when it is final; else the child's own records say.
  if (c.status == "completed" || c.status == "failed") {
    n.status = c.status;
  } else if (n.transcript && n.life.status != "unknown") {
    n.status = n.life.status;
  } else {
    n.status = c.status.empty() ? "unknown" : c.status;
  }
  if (n.status == "completed") {
    n.completed_timestamp = !c.completed_timestamp.empty() ? c.completed_timestamp : n.life.last_timestamp;
  }
  if (!c.returned_message.empty()) {
    n.returned_message = c.returned_message;
    n.returned_source = c.returned_source;
  } else if (!n.life.tail_text.empty()) {
    n.returned_message = n.life.tail_text;
    n.returned_source = "async-child-tail";
  }
  return n;
}

}  // namespace

bool reads_harness_children(const Transcript& t) {
  return t.harness != HarnessId::claude_code && harness_entry(t.harness).agents != nullptr;
}

HarnessSession read_harness_session(const Transcript& session, const CancelToken* cancel) {
  HarnessSession out;
  out.session = &session;
  out.agents = harness_entry(session.harness).agents(session, cancel);
  out.lifecycles.resize(out.agents.children.size());
  for (size_t i = 0; i < out.agents.children.size(); ++i) {
    if (cancel && cancel->is_cancelled()) break;
    const HarnessChildAgent& c = out.agents.children[i];
    if (c.transcript) out.lifecycles[i] = read_agent_lifecycle(*c.transcript, cancel);
  }
  return out;
}

SessionTree harness_session_tree(HarnessSession&& in, OrderAxis axis) {
  SessionTree tree;
  tree.session_id = in.session->id;
  tree.session = in.session;
  tree.skipped_lines = in.agents.skipped_lines;
  for (size_t i = 0; i < in.agents.children.size(); ++i) {
    tree.skipped_lines += in.lifecycles[i].skipped_lines;
    tree.nodes.push_back(harness_child_node(*in.session, in.agents.children[i], std::move(in.lifecycles[i])));
  }
  // Depth and pre-order as for Claude Code's tree: a child under the child that started it, siblings by
  // the chosen axis, a parent outside the tree (or a cycle) making a node a root.
  std::set<std::string> present;
  for (const AgentNode& n : tree.nodes)
    present.insert(n.id);
  std::map<std::string, std::vector<size_t>> kids;
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const AgentNode& n = tree.nodes[i];
    kids[present.count(n.parent_agent_id) && n.parent_agent_id != n.id ? n.parent_agent_id : ""].push_back(i);
  }
  for (auto& [parent, list] : kids) {
    std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
      return harness_child_earlier(tree.nodes[a].axis_timestamp(axis), tree.nodes[b].axis_timestamp(axis));
    });
  }
  std::vector<bool> done(tree.nodes.size(), false);
  std::function<void(size_t, int)> visit = [&](size_t i, int depth) {
    if (done[i]) return;
    done[i] = true;
    tree.nodes[i].depth = depth;
    tree.order.push_back({false, i, depth});
    for (size_t k : kids[tree.nodes[i].id])
      visit(k, depth + 1);
  };
  for (size_t k : kids[""])
    visit(k, 0);
  for (size_t i = 0; i < tree.nodes.size(); ++i)
    visit(i, 0);
  return tree;
}

}  // namespace csift
