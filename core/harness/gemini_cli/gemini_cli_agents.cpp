// Gemini CLI's sub-agents (google-gemini/gemini-cli 5411f11: chatRecordingService.ts, local-executor.ts,
// local-invocation.ts, geminiChat.ts recordCompletedToolCalls). A local agent's log is
// `chats/<main session id>/<agent id>.jsonl`, its metadata line `{"sessionId": <agent id>, "kind":
// "subagent", …}`; nested agents sit in the same folder (the main session id is kept). The call that ran it
// is a `toolCalls[]` entry of a `gemini` message of its parent (named for the agent, e.g.
// codebase_investigator) whose `agentId` names the child (since 7d1de3b, 2026-04-10; older logs do not link
// the two) and whose `resultDisplay` {isSubagentProgress, agentName, state, result, terminateReason} holds
// what it returned; `status` is the call's (success, error, cancelled).
#include "core/harness/gemini_cli/gemini_cli_agents.h"

#include <filesystem>
#include <map>
#include <set>

#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/harness_agents_walk.h"
#include "core/harness/harness_listing.h"

namespace csift {

using hjson = nlohmann::json;

namespace {

struct GeminiAgentCall {
  std::string call_id, name, issuer, agent_id, status, state, result, timestamp;
  hjson args = hjson::object();
  uint64_t line = 0;
};

// The text a call returned: its progress display's result, else its function response's output.
std::string gemini_agent_result(const hjson& call) {
  const hjson display = call.value("resultDisplay", hjson());
  std::string text = json_string_at(display, "result");
  if (!text.empty()) return text;
  if (display.is_string()) return display.get<std::string>();
  for (const hjson& part : call.value("result", hjson::array())) {
    const hjson response = part.value("functionResponse", hjson::object()).value("response", hjson::object());
    text += json_string_at(response, "output");
    if (text.empty()) text += json_string_at(response, "error");
  }
  return text;
}

// Every tool call of a log that ran a sub-agent (one recording its agentId or a sub-agent progress), the
// newest record of each call id winning (a message may be written again under its id).
void gemini_agent_calls(const Transcript& log, const std::string& issuer, const CancelToken* cancel,
                        uint64_t& skipped, std::vector<GeminiAgentCall>& out) {
  std::map<std::string, size_t> at;
  walk_log_lines(log, cancel, skipped, [&](const hjson& e, uint64_t n) {
    const hjson calls = e.value("toolCalls", hjson());
    if (!calls.is_array()) return true;
    for (const hjson& call : calls) {
      const hjson display = call.value("resultDisplay", hjson());
      const bool subagent = !json_string_at(call, "agentId").empty() ||
                            (display.is_object() && display.value("isSubagentProgress", false) == true);
      if (!subagent) continue;
      GeminiAgentCall c;
      c.call_id = json_string_at(call, "id");
      c.name = json_string_at(call, "name");
      c.issuer = issuer;
      c.agent_id = json_string_at(call, "agentId");
      c.status = json_string_at(call, "status");
      c.state = json_string_at(display, "state");
      c.result = gemini_agent_result(call);
      c.timestamp = json_string_at(call, "timestamp");
      if (c.timestamp.empty()) c.timestamp = json_string_at(e, "timestamp");
      if (call.contains("args") && call["args"].is_object()) c.args = call["args"];
      c.line = n;
      const auto have = at.find(c.call_id);
      if (have != at.end() && !c.call_id.empty()) {
        out[have->second] = std::move(c);
      } else {
        at[c.call_id] = out.size();
        out.push_back(std::move(c));
      }
    }
    return true;
  });
}

// The session's own id (its ref without `gemini-cli:`): its sub-agents' folder is chats/<this id>/.
std::string gemini_own_id(const Transcript& session) {
  const std::string prefix = std::string(kGeminiCliHarness) + ":";
  return session.id.starts_with(prefix) ? session.id.substr(prefix.size()) : session.id;
}

// The sub-agent logs beside a session, by agent id (the metadata line's sessionId, else the file's stem).
std::map<std::string, Transcript> gemini_subagent_logs(const Transcript& session, const CancelToken* cancel) {
  const std::filesystem::path dir =
      std::filesystem::path(session.path).parent_path() / gemini_own_id(session);
  std::map<std::string, Transcript> logs;
  std::vector<StoreProblem> problems;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return logs;
  for (const DirEntry& e : list_store_dir(dir.string(), problems)) {
    if (!e.is_regular || !e.name.ends_with(".jsonl")) continue;
    const std::string stem = e.name.substr(0, e.name.size() - 6);
    Transcript t = harness_transcript(kGeminiCliHarness, e.path, stem, dir.string());
    std::string id = stem;
    uint64_t ignored = 0;
    walk_log_lines(t, cancel, ignored, [&](const hjson& first, uint64_t) {
      if (const std::string sid = json_string_at(first, "sessionId"); !sid.empty()) id = sid;
      return false;
    });
    t.id = harness_ref(kGeminiCliHarness, id);
    t.session_id = t.id;
    logs.emplace(id, std::move(t));
  }
  return logs;
}

}  // namespace

std::vector<Transcript> gemini_cli_child_logs(const std::vector<Transcript>& listed,
                                              const CancelToken* cancel) {
  std::vector<Transcript> out;
  for (const Transcript& session : listed) {
    if (cancel && cancel->is_cancelled()) break;
    for (auto& [id, t] : gemini_subagent_logs(session, cancel))
      out.push_back(std::move(t));
  }
  return out;
}

HarnessAgents gemini_cli_agents(const Transcript& session, const CancelToken* cancel, HarnessAgentsCall&) {
  HarnessAgents out;
  const std::string prefix = std::string(kGeminiCliHarness) + ":";
  const std::string own_id = gemini_own_id(session);
  const std::map<std::string, Transcript> logs = gemini_subagent_logs(session, cancel);

  std::vector<GeminiAgentCall> calls;
  gemini_agent_calls(session, "", cancel, out.skipped_lines, calls);
  for (const auto& [id, t] : logs)
    gemini_agent_calls(t, id, cancel, out.skipped_lines, calls);

  std::set<std::string> placed;
  for (const GeminiAgentCall& call : calls) {
    HarnessChildAgent c = spawned_child(call.agent_id, call.name, call.call_id, call.line, call.timestamp);
    c.parent_agent_id = call.issuer;
    c.agent_type = call.name;
    c.prompt = call.args.dump(-1, ' ', false, hjson::error_handler_t::replace);
    if (call.status == "success" && (call.state.empty() || call.state == "completed")) {
      c.status = "completed";
      c.returned_message = call.result;
      c.returned_source = "tool-call-result";
    } else if (call.status == "error" || call.state == "error") {
      c.status = "failed";
      c.failure = call.result.empty() ? "the call failed" : call.result;
    } else if (call.status == "cancelled" || call.state == "cancelled") {
      c.status = "failed";
      c.failure = "cancelled";
    }
    const auto log = logs.find(call.agent_id);
    if (log != logs.end()) {
      placed.insert(call.agent_id);
      c.transcript = log->second;
      c.ref = log->second.id;
      c.not_recorded =
          "its log is a sub-agent file under chats/<session id>/, which session listings leave out";
    } else {
      c.ref = call.issuer.empty() ? session.id : prefix + call.issuer;
      c.not_recorded =
          call.agent_id.empty()
              ? "this Gemini CLI release records no agent id on the call, so its log is not joined"
              : "its log " + call.agent_id + ".jsonl is not under chats/" + own_id + "/";
    }
    out.children.push_back(std::move(c));
  }
  std::vector<std::string> log_ids;
  for (const auto& [id, t] : logs)
    log_ids.push_back(id);
  add_unplaced_children(
      log_ids, placed,
      [&](HarnessChildAgent& c, const std::string& id) {
        c.transcript = logs.at(id);
        c.ref = c.transcript->id;
      },
      "no call in the session records this agent's id (Gemini CLI logs before 2026-04 do not link them)",
      out);
  return out;
}

}  // namespace csift
