// Copilot CLI's sub-agents, from the session's events.jsonl (session-events.schema.json of @github/copilot
// 1.0.62; the same events in the 1.0.102 bundle). The `task` tool starts one (arguments {description,
// prompt, agent_type, name, model, mode}); `subagent.started` {toolCallId, agentName, agentDisplayName,
// agentDescription, model}, `subagent.completed` {toolCallId, model, totalToolCalls, totalTokens (input +
// output), durationMs} and `subagent.failed` {…, error} bracket it; every event it emits carries the
// top-level `agentId` (its spawning call's toolCallId; releases before the field put
// `data.parentToolCallId` in the event instead). The task call's own `tool.execution_complete` is what it
// returned. A background agent (mode "background") answers "Agent started in background with agent_id: X"
// and is reported later by a `system.notification` of kind agent_completed and read back with `read_agent`.
#include "core/harness/copilot/copilot_agents.h"

#include <map>

#include "core/harness/copilot/copilot_harness.h"
#include "core/harness/harness_agents_walk.h"

namespace csift {

using hjson = nlohmann::json;

namespace {

constexpr std::string_view kCopilotBackgroundLaunch = "Agent started in background with agent_id: ";

// The sub-agent an event belongs to ("" = the main agent).
std::string copilot_event_owner(const hjson& entry, const hjson& data) {
  std::string owner = json_string_at(entry, "agentId");
  if (owner.empty()) owner = json_string_at(data, "parentToolCallId");
  return owner;
}

// j[key], read in place: a null when absent.
const hjson& copilot_member(const hjson& j, const char* key) {
  static const hjson kNone;
  if (!j.is_object()) return kNone;
  const auto it = j.find(key);
  return it == j.end() ? kNone : *it;
}

// A call's arguments: an object, or a JSON text of one (parsed only then; else an empty object).
hjson copilot_agent_arguments(const hjson& raw) {
  const hjson args = raw.is_string() ? hjson::parse(raw.get<std::string>(), nullptr, false) : raw;
  return args.is_object() ? args : hjson::object();
}

// The text of a tool.execution_complete: its result's content, else its error's message.
std::string copilot_result_text(const hjson& data) {
  const hjson& result = copilot_member(data, "result");
  std::string text = json_string_at(result, "content");
  if (text.empty()) text = json_string_at(result, "detailedContent");
  if (text.empty() && result.is_string()) text = result.get<std::string>();
  if (text.empty()) {
    const hjson& error = copilot_member(data, "error");
    text = error.is_string() ? error.get<std::string>() : json_string_at(error, "message");
  }
  return text;
}

struct CopilotChild {
  HarnessChildAgent agent;
  bool started = false, ended = false, has_result = false;
  std::string background_id;
};

}  // namespace

HarnessAgents copilot_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall&) {
  HarnessAgents out;
  std::vector<CopilotChild> children;
  std::map<std::string, size_t> by_id;            // toolCallId (and a background agent_id) -> child
  std::map<std::string, std::string> read_agent;  // read_agent call id -> the agent_id it reads
  const auto child = [&](const std::string& id) -> CopilotChild& {
    const auto it = by_id.find(id);
    if (it != by_id.end()) return children[it->second];
    by_id[id] = children.size();
    children.emplace_back();
    children.back().agent.id = id;
    children.back().agent.ref = session.id;
    return children.back();
  };
  const auto spawn = [&](const std::string& id, const std::string& owner, const hjson& args, uint64_t n,
                         const std::string& ts) {
    CopilotChild& c = child(id);
    if (!c.agent.spawn_tool.empty()) return;
    c.agent.spawn_tool = "task";
    c.agent.spawn_call_id = id;
    c.agent.spawn_line = n;
    c.agent.trigger_timestamp = ts;
    c.agent.parent_agent_id = owner;
    c.agent.description = json_string_at(args, "description");
    c.agent.prompt = json_string_at(args, "prompt");
    c.agent.agent_type = json_string_at(args, "agent_type");
    if (c.agent.name.empty()) c.agent.name = json_string_at(args, "name");
    if (c.agent.model.empty()) c.agent.model = json_string_at(args, "model");
  };
  const bool ok = walk_log_lines(session, cancel, out.skipped_lines, [&](const hjson& e, uint64_t n) {
    const std::string type = json_string_at(e, "type");
    const hjson& data = json_object_at(e, "data");
    const std::string ts = json_string_at(e, "timestamp");
    const std::string owner = copilot_event_owner(e, data);
    if (type == "tool.execution_start") {
      const std::string name = json_string_at(data, "toolName");
      const std::string id = json_string_at(data, "toolCallId");
      if (name == "task") spawn(id, owner, copilot_agent_arguments(copilot_member(data, "arguments")), n, ts);
      if (name == "read_agent")
        read_agent[id] =
            json_string_at(copilot_agent_arguments(copilot_member(data, "arguments")), "agent_id");
    } else if (type == "assistant.message") {
      const hjson& requests = copilot_member(data, "toolRequests");
      if (requests.is_array())
        for (const hjson& req : requests)
          if (json_string_at(req, "name") == "task")
            spawn(json_string_at(req, "toolCallId"), owner,
                  copilot_agent_arguments(copilot_member(req, "arguments")), n, ts);
    } else if (type == "tool.execution_complete") {
      const std::string id = json_string_at(data, "toolCallId");
      const auto spawned = by_id.find(id);
      if (spawned != by_id.end() && !children[spawned->second].has_result &&
          children[spawned->second].agent.spawn_call_id == id) {
        CopilotChild& c = children[spawned->second];
        c.has_result = true;
        const std::string text = copilot_result_text(data);
        if (data.value("success", true) == false) {
          c.agent.status = "failed";
          c.agent.failure = text.empty() ? "the task call failed" : text;
          c.ended = true;
        } else if (text.starts_with(kCopilotBackgroundLaunch)) {
          std::string bg = text.substr(kCopilotBackgroundLaunch.size());
          bg = bg.substr(0, bg.find_first_of(". \n"));
          c.background_id = bg;
          if (!bg.empty()) by_id.emplace(bg, spawned->second);
        } else {
          c.agent.returned_message = text;
          c.agent.returned_source = "task-tool-result";
          if (c.agent.status.empty()) c.agent.status = "completed";
          c.ended = true;
        }
      }
      const auto reads = read_agent.find(id);
      if (reads != read_agent.end() && by_id.count(reads->second) && data.value("success", true) != false) {
        CopilotChild& c = children[by_id[reads->second]];
        if (c.agent.returned_source != "task-tool-result") {
          c.agent.returned_message = copilot_result_text(data);
          c.agent.returned_source = "read-agent-result";
        }
      }
    } else if (type == "subagent.started" || type == "subagent.completed" || type == "subagent.failed") {
      CopilotChild& c = child(json_string_at(data, "toolCallId"));
      if (c.agent.name.empty()) c.agent.name = json_string_at(data, "agentDisplayName");
      if (c.agent.name.empty()) c.agent.name = json_string_at(data, "agentName");
      if (c.agent.agent_type.empty()) c.agent.agent_type = json_string_at(data, "agentName");
      if (c.agent.description.empty()) c.agent.description = json_string_at(data, "agentDescription");
      if (const std::string m = json_string_at(data, "model"); !m.empty()) c.agent.model = m;
      if (type == "subagent.started") {
        c.started = true;
        if (c.agent.started_timestamp.empty()) c.agent.started_timestamp = ts;
      } else {
        c.ended = true;
        c.agent.completed_timestamp = ts;
        c.agent.status = type == "subagent.completed" ? "completed" : "failed";
        if (type == "subagent.failed") c.agent.failure = json_string_at(data, "error");
        c.agent.recorded_total_tokens = json_count_at(data, "totalTokens");
        c.agent.recorded_tool_calls = json_count_at(data, "totalToolCalls");
        c.agent.recorded_duration_ms = json_count_at(data, "durationMs");
      }
      c.agent.last_activity_timestamp = ts;
    } else if (type == "system.notification") {
      const hjson& kind = json_object_at(data, "kind");
      const std::string id = json_string_at(kind, "agentId");
      if (json_string_at(kind, "type") == "agent_completed" && by_id.count(id)) {
        CopilotChild& c = children[by_id[id]];
        const std::string status = json_string_at(kind, "status");
        c.agent.status = status == "failed" ? "failed" : "completed";
        c.agent.completed_timestamp = ts;
        c.ended = true;
        if (c.agent.prompt.empty()) c.agent.prompt = json_string_at(kind, "prompt");
      }
    }
    if (!owner.empty() && type != "subagent.started" && type != "subagent.completed" &&
        type != "subagent.failed") {
      CopilotChild& c = child(by_id.count(owner) ? children[by_id[owner]].agent.id : owner);
      if (c.agent.started_timestamp.empty()) c.agent.started_timestamp = ts;
      c.agent.last_activity_timestamp = ts;
      if (type == "tool.execution_start") ++c.agent.tool_calls;
      if (type == "assistant.message") {
        ++c.agent.turns;
        if (const std::string text = json_string_at(data, "content"); !text.empty())
          c.agent.inline_tail = text;
      }
    }
    return true;
  });
  if (!ok) out.error = "cannot open " + session.path;
  for (CopilotChild& c : children) {
    if (c.agent.status.empty() && (c.started || !c.agent.started_timestamp.empty()))
      c.agent.status = "running";
    if (c.agent.returned_message.empty() && !c.agent.inline_tail.empty()) {
      c.agent.returned_message = c.agent.inline_tail;
      c.agent.returned_source = "inline-tail";
    }
    c.agent.not_recorded =
        "its events sit inline in the session's events.jsonl (agentId " + c.agent.id +
        "); Copilot CLI records no per-model token usage for it, only subagent.completed's totalTokens";
    if (c.agent.spawn_tool.empty()) c.agent.not_recorded += "; the log holds no task call with its id";
    out.children.push_back(std::move(c.agent));
  }
  return out;
}

}  // namespace csift
