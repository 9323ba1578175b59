#include "tools/agents/harness_children.h"

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

HarnessSession read_harness_session(const Transcript& session, const CancelToken* cancel,
                                    HarnessAgentsCall& call) {
  HarnessSession out;
  out.session = &session;
  out.agents = harness_entry(session.harness).agents(session, cancel, call);
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
  // Laid out as Claude Code's tree is; a node's depth is the one its place in that order gives.
  arrange_tree(tree, axis);
  for (const TreeItem& item : tree.order)
    tree.nodes[item.index].depth = item.depth;
  return tree;
}

}  // namespace csift
