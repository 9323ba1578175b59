// Copilot CLI events onto the shared record model. A prompt is a `user.message` from the user (a message
// from another source, such as an autopilot continuation, is not one); `assistant.message` carries the
// agent's text, reasoning, tool requests and its output token count. A call is named by whichever of its
// events comes first: a tool request, `tool.execution_start` or `tool.user_requested` (the same `toolCallId`
// in a later one is the same call). Its result is the first of: `tool.execution_complete` (`rejected` /
// `denied` error codes deny it, `cancelled` interrupts it; a non-zero exit code fails it, from
// shellExecution, a terminal content block, or the closing exit-code line of a shell result),
// `permission.completed` with a `denied-` kind (denied) or `cancelled` (interrupted), joined to the call by
// its `toolCallId` or the `permission.requested` of its `requestId`; `abort` interrupts every call still
// without a result. Events of sub-agents (an `agentId` on the event or in its data, or the older
// `parentToolCallId` in its data) are records of that agent (`agent_id`) without a message: never a prompt, a
// call or a result of the session. Shapes: the session-events schema and the bundled code of @github/copilot
// 0.0.376 and 1.0.52 (npm).
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/copilot/copilot_edits.h"
#include "core/harness/copilot/copilot_harness.h"
#include "core/harness/copilot/copilot_shell_trailer.h"
#include "core/harness/harness_listing.h"
#include "core/harness/jsonl_entry_reader.h"

namespace csift {

namespace {

using nlohmann::json;

std::string copilot_dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<int64_t> closing_exit_code(const std::string& text) {
  static constexpr std::string_view kTail = "completed with exit code ";
  const size_t at = text.rfind(kTail);
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stoll(text.substr(at + kTail.size()));
  } catch (...) {
    return std::nullopt;
  }
}

// The agent whose event this is when it is a sub-agent's: the event's `agentId` (1.0.x), one in its data, or
// the `parentToolCallId` the spawning call's id marks a sub-agent's events with (0.0.x; still written, as
// deprecated, beside `agentId`). "" for the session's own agent; `*sub` says whether it is a sub-agent's.
std::string copilot_sub_agent(const json& entry, const json& data, bool& sub) {
  sub = true;
  for (const json* holder : {&entry, &data}) {
    if (!holder->is_object() || !holder->contains("agentId")) continue;
    if (holder == &entry && (*holder)["agentId"].is_null()) continue;
    return entry_string(*holder, "agentId");
  }
  if (const std::string parent = entry_string(data, "parentToolCallId"); !parent.empty()) return parent;
  sub = false;
  return "";
}

// A tool call's arguments as the log holds them: a string as it is, anything else as its JSON. A holder that
// is not an object (a tool request written as a string) has none.
std::string copilot_arguments(const json& holder) {
  const json args = holder.is_object() ? holder.value("arguments", json::object()) : json::object();
  return args.is_string() ? args.get<std::string>() : copilot_dump(args);
}

// Whether j's member `key` is the boolean true (json::value(key, false) throws on a member of another type).
bool copilot_true(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

class CopilotMapper final : public EntryMapper {
 public:
  explicit CopilotMapper(std::string cwd) : cwd_(std::move(cwd)) {}

  std::string map(const json& entry, Record& r) override {
    const std::string type = entry_string(entry, "type");
    // An event's data that is not an object (a string, a number) reads as empty: json::value() on it throws
    // (the fuzz find).
    const auto d = entry.find("data");
    const json data = d != entry.end() && d->is_object() ? *d : json::object();
    r.type = type;
    r.uuid = entry_string(entry, "id");
    r.parent_uuid = entry_string(entry, "parentId");
    r.timestamp = entry_string(entry, "timestamp");
    if (type == "session.start" || type == "session.resume") start(data);
    if (type == "session.context_changed" && !entry_string(data, "cwd").empty())
      cwd_ = entry_string(data, "cwd");
    if (type == "session.model_change" && !entry_string(data, "newModel").empty())
      model_ = entry_string(data, "newModel");
    r.session_id = session_id_;
    r.cwd = cwd_;
    r.version = version_;
    r.git_branch = branch_;
    bool sub = false;
    r.agent_id = copilot_sub_agent(entry, data, sub);
    if (sub) return type;  // a sub-agent's event: its agent's, not the session's
    if (type == "user.message") user(data, r);
    if (type == "assistant.message") agent(data, r);
    if (type == "assistant.reasoning") reasoning(data, r);
    if (type == "tool.execution_start" || type == "tool.user_requested") started(data, r);
    if (type == "tool.execution_complete") complete(data, r);
    if (type == "permission.requested") permission_requested(data);
    if (type == "permission.completed") permission_completed(data, r);
    if (type == "abort") aborted(r);
    return type.empty() ? "(untyped)" : type;
  }

 private:
  void start(const json& data) {
    if (const std::string id = entry_string(data, "sessionId"); !id.empty()) session_id_ = id;
    if (const std::string v = entry_string(data, "copilotVersion"); !v.empty()) version_ = v;
    if (const std::string m = entry_string(data, "selectedModel"); !m.empty()) model_ = m;
    const json context = data.value("context", json::object());
    if (const std::string cwd = entry_string(context, "cwd"); cwd.starts_with("/")) cwd_ = cwd;
    if (const std::string b = entry_string(context, "branch"); !b.empty()) branch_ = b;
  }

  void user(const json& data, Record& r) {
    const std::string source = entry_string(data, "source");
    if (!source.empty() && source != "user") return;
    make_message(r, "user");
    r.message.content_is_string = true;
    r.message.content_string = entry_string(data, "content");
  }

  // A call named: pending until a result answers it.
  void named(const std::string& id) {
    if (!id.empty() && !answered_.count(id)) pending_.insert(id);
  }

  void agent(const json& data, Record& r) {
    make_message(r, "assistant");
    r.message.id = entry_string(data, "messageId");
    r.message.model = entry_string(data, "model").empty() ? model_ : entry_string(data, "model");
    if (const std::string thought = entry_string(data, "reasoningText"); !thought.empty())
      r.message.blocks.push_back(thinking_block(thought));
    if (const std::string text = entry_string(data, "content"); !text.empty())
      r.message.blocks.push_back(text_block(text));
    for (const json& req : data.value("toolRequests", json::array())) {
      const std::string id = entry_string(req, "toolCallId");
      if (!id.empty() && started_first_.count(id)) continue;  // its start came first and named it
      r.message.blocks.push_back(tool_use_block(id, entry_string(req, "name"), copilot_arguments(req)));
      tool_names_[id] = entry_string(req, "name");
      requested_.insert(id);
      named(id);
    }
    const json out = data.value("outputTokens", json());
    if (out.is_number_integer()) {
      r.message.usage.present = true;
      r.message.usage.output_tokens = out.get<int64_t>();
    }
  }

  void reasoning(const json& data, Record& r) {
    const std::string text = entry_string(data, "content");
    if (text.empty()) return;
    make_message(r, "assistant");
    r.message.blocks.push_back(thinking_block(text));
  }

  // tool.execution_start, or tool.user_requested (a shell command the user ran): the call itself when no tool
  // request named it first.
  void started(const json& data, Record& r) {
    const std::string id = entry_string(data, "toolCallId");
    tool_names_[id] = entry_string(data, "toolName");
    if (data.contains("shellToolInfo")) shell_calls_.insert(id);
    if (id.empty() || requested_.count(id) || !started_first_.insert(id).second) return;
    make_message(r, "assistant");
    r.message.blocks.push_back(tool_use_block(id, entry_string(data, "toolName"), copilot_arguments(data)));
    named(id);
  }

  // The exit code a completion records: shellExecution's, else a terminal content block's.
  static std::optional<int64_t> recorded_exit_code(const json& data, const json& result) {
    std::optional<int64_t> exit_code;
    for (const json* holder : {&data, &result}) {
      const json shell = holder->is_object() ? holder->value("shellExecution", json()) : json();
      if (shell.is_object() && shell.value("exitCode", json()).is_number_integer())
        exit_code = shell["exitCode"].get<int64_t>();
    }
    if (exit_code || !result.is_object()) return exit_code;
    for (const json& part : result.value("contents", json::array()))
      if (part.is_object() && entry_string(part, "type") == "terminal" &&
          part.value("exitCode", json()).is_number_integer())
        exit_code = part["exitCode"].get<int64_t>();
    return exit_code;
  }

  void complete(const json& data, Record& r) {
    const std::string id = entry_string(data, "toolCallId");
    if (!answered_.insert(id).second) return;  // only the first completion is the result
    pending_.erase(id);
    const json result = data.value("result", json());
    const json error = data.value("error", json());
    std::string text;
    if (result.is_object() && result.contains("content"))
      text = result["content"].is_string() ? result["content"].get<std::string>()
                                           : copilot_dump(result["content"]);
    else if (error.is_object())
      text = entry_string(error, "message");
    const std::string code = error.is_object() ? entry_string(error, "code") : "";
    std::optional<int64_t> exit_code = recorded_exit_code(data, result);
    if (!exit_code)
      if (const auto trailer = copilot_shell_trailer(text)) exit_code = trailer->exit_code;
    const std::string tool = tool_names_[id];
    if (!exit_code &&
        (tool == "bash" || tool == "powershell" || data.contains("shellExecution") || shell_calls_.count(id)))
      exit_code = closing_exit_code(text);
    CallStatus status = CallStatus::ok;
    if (code == "rejected" || code == "denied")
      status = CallStatus::denied;
    else if (code == "cancelled" || code == "interrupted")
      status = CallStatus::interrupted;
    else if (!copilot_true(data, "success") || (exit_code && *exit_code != 0))
      status = CallStatus::error;
    make_message(r, "user");
    r.message.blocks.push_back(
        tool_result_block(id, std::move(text), status != CallStatus::ok, status, exit_code));
  }

  void permission_requested(const json& data) {
    const json request = data.value("permissionRequest", json::object());
    if (const std::string id = entry_string(request, "toolCallId"); !id.empty())
      permission_calls_[entry_string(data, "requestId")] = id;
  }

  // A refusal (a `denied-` kind) or a cancelled prompt answers a call still without a result; an approval,
  // or a decision after the result, changes nothing.
  void permission_completed(const json& data, Record& r) {
    std::string id = entry_string(data, "toolCallId");
    if (id.empty()) {
      const auto it = permission_calls_.find(entry_string(data, "requestId"));
      if (it != permission_calls_.end()) id = it->second;
    }
    const json result = data.value("result", json::object());
    const std::string kind = entry_string(result, "kind");
    const bool denied = kind.starts_with("denied");
    if (id.empty() || !pending_.count(id) || (!denied && kind != "cancelled")) return;
    std::string text = kind;
    for (const char* why : {"feedback", "message", "reason"})
      if (const std::string w = entry_string(result, why); !w.empty()) text += ": " + w;
    pending_.erase(id);
    answered_.insert(id);
    make_message(r, "user");
    r.message.blocks.push_back(tool_result_block(
        id, std::move(text), true, denied ? CallStatus::denied : CallStatus::interrupted, std::nullopt));
  }

  void aborted(Record& r) {
    interrupt_pending_calls(r, pending_, answered_, "aborted before the call returned");
  }

  std::string cwd_, session_id_, version_, branch_, model_;
  std::unordered_map<std::string, std::string> tool_names_;
  std::unordered_map<std::string, std::string> permission_calls_;  // permission requestId -> toolCallId
  std::set<std::string> pending_, answered_, shell_calls_;
  std::set<std::string> requested_, started_first_;  // calls named by a tool request / by their start
};

class CopilotReader final : public JsonlEntryReader {
 public:
  std::string_view harness() const override { return kCopilotHarness; }

 protected:
  std::unique_ptr<EntryMapper> mapper(const Transcript* t) const override {
    return std::make_unique<CopilotMapper>(t ? copilot_workspace_cwd(t->path) : "");
  }
};

std::optional<StoreRoot> locate_copilot_store(const Environment& env) {
  return store_root_from(env, "COPILOT_HOME", "", ".copilot");
}

}  // namespace

const TranscriptReader& copilot_reader() {
  static const CopilotReader reader;
  return reader;
}

HarnessEntry copilot_harness() {
  return HarnessEntry{kCopilotHarness,
                      {"copilot-cli"},
                      &copilot_reader(),
                      &locate_copilot_store,
                      &list_copilot_store,
                      "copilot sessions record output tokens only (input and cache figures are absent, not "
                      "zero); sub-agent events are not read",
                      &copilot_session_meta,
                      &copilot_tool_edits()};
}

}  // namespace csift
