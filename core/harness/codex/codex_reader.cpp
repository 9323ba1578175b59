// Codex rollout entries onto the shared record model. A prompt is an event_msg user_message (a response_item
// user message also carries injected context, so it is not one); agent text, reasoning summaries and tool
// calls are response_items; a call's output becomes a tool result whose status is read from the header Codex
// writes before `Output:`, never from the command's own output; token_count events carry the usage of each
// model call. A `bash -lc <script>` argv is shown as its script.
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/base/text.h"
#include "core/harness/claude_code/classify_detail.h"
#include "core/harness/codex/codex_edits.h"
#include "core/harness/codex/codex_harness.h"
#include "core/harness/harness_listing.h"
#include "core/harness/jsonl_entry_reader.h"
#include "core/scan/zstd_lines.h"

namespace csift {

namespace {

using nlohmann::json;

struct CodexResultStatus {
  bool error = false;
  CallStatus status = CallStatus::ok;
  std::optional<int64_t> exit_code;
};

std::optional<int64_t> codex_number_after(std::string_view line, std::string_view prefix) {
  if (!line.starts_with(prefix)) return std::nullopt;
  std::string_view rest = line.substr(prefix.size());
  if (rest.empty()) return std::nullopt;
  try {
    return std::stoll(std::string(rest));
  } catch (...) {
    return std::nullopt;
  }
}

// The header of a legacy result is every line before the first line that is exactly `Output:`.
CodexResultStatus codex_output_status(std::string_view text) {
  static constexpr std::string_view kDenials[] = {"exec command rejected by user", "patch rejected by user",
                                                  "rejected by configuration",
                                                  "automatic approval review denied the action"};
  CodexResultStatus s;
  const size_t output_at = text.starts_with("Output:\n") ? 0 : text.find("\nOutput:\n");
  const bool has_output = output_at != std::string_view::npos;
  const std::string_view header = has_output ? text.substr(0, output_at) : text;
  for (std::string_view d : kDenials) {
    if (has_output ? header.find(d) != std::string_view::npos : text.starts_with(d)) {
      s.error = true;
      s.status = CallStatus::denied;
      return s;
    }
  }
  size_t at = 0;
  while (at <= header.size()) {
    const size_t nl = header.find('\n', at);
    const std::string_view line =
        header.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    if (line.starts_with("aborted by user")) {
      s.error = true;
      s.status = CallStatus::interrupted;
      return s;
    }
    if (auto n = codex_number_after(line, "Process exited with code ")) s.exit_code = n;
    if (auto n = codex_number_after(line, "Exit code: ")) s.exit_code = n;
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  if (s.exit_code && *s.exit_code != 0) {
    s.error = true;
    s.status = CallStatus::error;
  }
  return s;
}

std::string codex_joined_texts(const json& parts, const char* key = "text") {
  std::string out;
  if (!parts.is_array()) return out;
  for (const json& p : parts) {
    const std::string t = entry_string(p, key);
    if (t.empty()) continue;
    if (!out.empty()) out += "\n";
    out += t;
  }
  return out;
}

// Whether j's boolean member `key` is `value` (a member of another type, or none, is neither).
bool codex_flag(const json& j, const char* key, bool value) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  return j.is_object() && it != j.end() && it->is_boolean() && it->get<bool>() == value;
}

std::string codex_dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A function call's arguments (a JSON text) with a shell argv replaced by its script.
std::string codex_call_input(const json& payload) {
  const auto args = payload.find("arguments");
  if (args == payload.end()) return "{}";
  json input = args->is_string() ? json::parse(args->get<std::string>(), nullptr, false) : *args;
  if (input.is_discarded()) return codex_dump(json{{"arguments", args->get<std::string>()}});
  if (input.is_object()) {
    for (const char* key : {"command", "cmd"}) {
      auto c = input.find(key);
      if (c == input.end()) continue;
      if (auto script = shell_script_of(*c)) *c = *script;
    }
  }
  return codex_dump(input);
}

class CodexMapper final : public EntryMapper {
 public:
  std::string map(const json& entry, Record& r) override {
    const std::string type = entry_string(entry, "type");
    const auto p = entry.find("payload");
    const json payload = p != entry.end() && p->is_object() ? *p : json::object();
    const std::string kind = payload.contains("type") ? type + "." + entry_string(payload, "type") : type;
    r.type = kind;
    r.timestamp = entry_string(entry, "timestamp");
    if (type == "session_meta") meta(payload);
    if (type == "turn_context") {
      if (const std::string cwd = entry_string(payload, "cwd"); !cwd.empty()) cwd_ = cwd;
      if (const std::string model = entry_string(payload, "model"); !model.empty()) model_ = model;
    }
    r.session_id = session_id_;
    r.cwd = cwd_;
    r.version = version_;
    r.git_branch = branch_;
    if (type == "response_item") response_item(payload, r);
    if (type == "event_msg") event(payload, r);
    return kind;
  }

 private:
  void meta(const json& payload) {
    session_id_ = entry_string(payload, "id");
    if (const std::string cwd = entry_string(payload, "cwd"); !cwd.empty()) cwd_ = cwd;
    version_ = entry_string(payload, "cli_version");
    if (auto g = payload.find("git"); g != payload.end()) branch_ = entry_string(*g, "branch");
  }

  void as_message(Record& r, const char* role) {
    make_message(r, role);
    if (r.type == "assistant") r.message.model = model_;
  }

  void response_item(const json& payload, Record& r) {
    const std::string t = entry_string(payload, "type");
    if (t == "message" && entry_string(payload, "role") == "assistant") {
      std::string text = codex_joined_texts(payload.value("content", json::array()));
      if (item_texts_.erase(text)) return;  // an AgentMessage item already said it
      response_texts_.insert(text);
      as_message(r, "assistant");
      r.message.blocks.push_back(text_block(std::move(text)));
    } else if (t == "reasoning") {
      std::string text = codex_joined_texts(payload.value("summary", json::array()));
      if (text.empty()) text = codex_joined_texts(payload.value("content", json::array()));
      if (text.empty()) return;  // encrypted reasoning only: nothing readable
      as_message(r, "assistant");
      r.message.blocks.push_back(thinking_block(std::move(text)));
    } else if (t == "function_call" || t == "custom_tool_call" || t == "local_shell_call") {
      as_message(r, "assistant");
      const std::string id = entry_string(payload, "call_id");
      std::string input;
      if (t == "function_call") {
        input = codex_call_input(payload);
      } else if (t == "custom_tool_call") {
        input = codex_dump(json{{"input", entry_string(payload, "input")}});
      } else {
        const json action = payload.value("action", json::object());
        const json argv = action.value("command", json());
        input = codex_dump(json{{"command", shell_script_of(argv).value_or(codex_dump(argv))}});
      }
      const std::string name = t == "local_shell_call" ? "local_shell" : entry_string(payload, "name");
      if (!id.empty() && !introduced_.insert(id).second) {
        r.type = "response_item." + t;  // an item event already introduced this call: counted once
        r.message = Message{};
        return;
      }
      r.message.blocks.push_back(tool_use_block(id, name, std::move(input)));
      if (!id.empty() && !answered_.count(id)) pending_.insert(id);
    } else if (t == "function_call_output" || t == "custom_tool_call_output") {
      call_output(payload, r);
    }
  }

  void call_output(const json& payload, Record& r) {
    const std::string id = entry_string(payload, "call_id");
    if (!pending_.erase(id) && answered_.count(id)) return;  // the first output of a call is its result
    answered_.insert(id);
    const auto out = payload.find("output");
    std::string text;
    CodexResultStatus s;
    if (out != payload.end() && out->is_string()) {
      text = out->get<std::string>();
      const json legacy = text.starts_with("{") ? json::parse(text, nullptr, false) : json();
      if (legacy.is_object() && legacy.contains("output") && legacy.contains("metadata") &&
          legacy["metadata"].is_object()) {
        // The oldest form: its metadata's exit code alone decides.
        text = entry_string(legacy, "output");
        const json code = legacy["metadata"].value("exit_code", json());
        if (code.is_number_integer()) s.exit_code = code.get<int64_t>();
        s.error = s.exit_code && *s.exit_code != 0;
        if (s.error) s.status = CallStatus::error;
      } else {
        s = codex_output_status(text);
      }
    } else if (out != payload.end() && out->is_array()) {
      text = codex_joined_texts(*out);
    } else if (out != payload.end() && out->is_object()) {
      text = out->contains("content") && (*out)["content"].is_string() ? entry_string(*out, "content")
                                                                       : codex_dump(*out);
      if (out->value("success", true) == false) s = {true, CallStatus::error, std::nullopt};
    }
    if (s.status == CallStatus::ok) ok_answered_.insert(id);
    as_message(r, "user");
    r.message.blocks.push_back(tool_result_block(id, std::move(text), s.error, s.status, s.exit_code));
  }

  void event(const json& payload, Record& r) {
    const std::string t = entry_string(payload, "type");
    if (t == "user_message") {
      std::string text = entry_string(payload, "message");
      if (item_prompt_ && *item_prompt_ == text) {  // the legacy twin of a UserMessage item just read
        item_prompt_.reset();
        return;
      }
      event_prompt_ = text;
      as_message(r, "user");
      r.message.content_is_string = true;
      r.message.content_string = std::move(text);
    } else if (t == "item_completed" || t == "item_started") {
      const auto item = payload.find("item");
      if (item != payload.end() && item->is_object()) turn_item(*item, t == "item_completed", r);
    } else if (t == "exec_command_end") {
      exec_end(payload, r);
    } else if (t == "patch_apply_end") {
      patch_end(payload, r);
    } else if (t == "mcp_tool_call_end") {
      mcp_end(payload, r);
    } else if (t == "token_count") {
      usage(payload, r);
    } else if (t == "turn_aborted" && entry_string(payload, "reason") == "interrupted") {
      interrupted(r);
    }
  }

  // A call's completion, recorded by an event or a completed item: the call's result when it is the first
  // record of one (a later function_call_output then adds nothing); a call no record introduced yet is
  // introduced here too, its tool_use before its result. `name` and `input` describe the call for that case.
  void completion(Record& r, const std::string& id, const std::string& name, const std::string& input,
                  std::string text, CodexResultStatus s) {
    if (id.empty()) return;
    if (answered_.count(id)) {
      // A later record that fails a call its first result left ok refines it: its result, on this line.
      if (s.status == CallStatus::ok || !ok_answered_.erase(id)) return;
      as_message(r, "user");
      r.message.blocks.push_back(tool_result_block(id, std::move(text), s.error, s.status, s.exit_code));
      return;
    }
    if (s.status == CallStatus::ok) ok_answered_.insert(id);
    // A result alone is the user side of the exchange, as function_call_output's; a call first seen here is
    // the agent's, its result beside it.
    const bool fresh = introduced_.insert(id).second;
    as_message(r, fresh ? "assistant" : "user");
    if (fresh) r.message.blocks.push_back(tool_use_block(id, name, input));
    pending_.erase(id);
    answered_.insert(id);
    r.message.blocks.push_back(tool_result_block(id, std::move(text), s.error, s.status, s.exit_code));
  }

  // A call that an item_started or a begin event names before any record introduced it.
  void introduce(Record& r, const std::string& id, const std::string& name, const std::string& input) {
    if (id.empty() || !introduced_.insert(id).second) return;
    as_message(r, "assistant");
    r.message.blocks.push_back(tool_use_block(id, name, input));
    if (!answered_.count(id)) pending_.insert(id);
  }

  static std::optional<int64_t> number_of(const json& j, const char* a, const char* b = nullptr) {
    for (const char* k : {a, b}) {
      if (!k) continue;
      const auto it = j.find(k);
      if (it != j.end() && it->is_number_integer()) return it->get<int64_t>();
    }
    return std::nullopt;
  }

  static std::string string_of(const json& j, const char* a, const char* b = nullptr) {
    std::string v = entry_string(j, a);
    return v.empty() && b ? entry_string(j, b) : v;
  }

  // A status word Codex records (`completed`, `failed`, `declined`, `inProgress`) with an exit code.
  static CodexResultStatus status_of(const std::string& word, std::optional<int64_t> exit_code) {
    CodexResultStatus s;
    s.exit_code = exit_code;
    if (word == "declined" || word == "rejected" || word == "denied") {
      s.error = true;
      s.status = CallStatus::denied;
    } else if (word == "failed" || word == "error" || (exit_code && *exit_code != 0)) {
      s.error = true;
      s.status = CallStatus::error;
    } else if (word == "interrupted" || word == "aborted" || word == "cancelled") {
      s.error = true;
      s.status = CallStatus::interrupted;
    }
    return s;
  }

  // `stdout`, then `stderr` on a line after it (either may be absent).
  static std::string stdout_then_stderr(const json& j) {
    std::string out = entry_string(j, "stdout");
    if (const std::string err = entry_string(j, "stderr"); !err.empty())
      out += (out.empty() ? "" : "\n") + err;
    return out;
  }

  // The output of a command: what it printed as one stream, else stdout then stderr, else what the model saw.
  static std::string command_output(const json& j) {
    std::string out = string_of(j, "aggregated_output", "aggregatedOutput");
    if (out.empty()) out = stdout_then_stderr(j);
    if (out.empty()) out = string_of(j, "formatted_output", "formattedOutput");
    return out;
  }

  // A turn item that does not end its call: item_started, or a status still in progress.
  static bool still_open(bool completed, const std::string& word) {
    return !completed || word == "inProgress" || word == "in_progress";
  }

  static std::string command_input(const json& j) {
    const json argv = j.value("command", json());
    if (argv.is_string()) return codex_dump(json{{"command", argv}});
    return codex_dump(
        json{{"command", shell_script_of(argv).value_or(argv.is_null() ? "" : codex_dump(argv))}});
  }

  static std::string mcp_name(const json& j) {
    const std::string server = entry_string(j, "server"), tool = entry_string(j, "tool");
    return server.empty() ? tool : server + "__" + tool;
  }

  // An MCP result: {"Ok": CallToolResult} or {"Err": message} (events), or the CallToolResult itself (items).
  static void mcp_result(const json& result, std::string& text, CodexResultStatus& s) {
    const json* ok = &result;
    if (result.is_object() && result.contains("Err")) {
      const json& err = result["Err"];
      text = err.is_string() ? err.get<std::string>() : codex_dump(err);
      s = {true, CallStatus::error, std::nullopt};
      return;
    }
    if (result.is_object() && result.contains("Ok")) ok = &result["Ok"];
    if (!ok->is_object()) return;
    text = codex_joined_texts(ok->value("content", json::array()));
    if (codex_flag(*ok, "isError", true) || codex_flag(*ok, "is_error", true))
      s = {true, CallStatus::error, std::nullopt};
  }

  void exec_end(const json& p, Record& r) {
    // The user's own shell command (`!cmd`) is no call of the agent's.
    if (entry_string(p, "source") == "user_shell" && !introduced_.count(entry_string(p, "call_id"))) return;
    const CodexResultStatus s = status_of(entry_string(p, "status"), number_of(p, "exit_code", "exitCode"));
    completion(r, entry_string(p, "call_id"), "exec_command", command_input(p), command_output(p), s);
  }

  void patch_end(const json& p, Record& r) {
    std::string word = entry_string(p, "status");
    if (word.empty() && codex_flag(p, "success", false)) word = "failed";
    if (status_of(word, std::nullopt).status == CallStatus::ok)
      note_applied(p, entry_string(p, "call_id"), r);
    completion(r, entry_string(p, "call_id"), "apply_patch",
               codex_dump(json{{"changes", p.value("changes", json::object())}}), stdout_then_stderr(p),
               status_of(word, std::nullopt));
  }

  // What a patch that succeeded applied (a patch_apply_end's or a completed FileChange item's `changes`), for
  // files / recover (codex_edits.h), whether or not this record is the call's result.
  static void note_applied(const json& p, const std::string& call_id, Record& r) {
    const auto changes = p.find("changes");
    if (changes == p.end() || !changes->is_object() || changes->empty()) return;
    auto& applied = r.harness_fields.get_or_make<CodexAppliedPatch>();
    applied.call_id = call_id;
    applied.changes_json = codex_dump(*changes);
  }

  void mcp_end(const json& p, Record& r) {
    json invocation = p.value("invocation", json::object());
    if (!invocation.is_object()) invocation = json::object();
    std::string text;
    CodexResultStatus s;
    mcp_result(p.value("result", json()), text, s);
    completion(r, entry_string(p, "call_id"), mcp_name(invocation),
               codex_dump(invocation.value("arguments", json::object())), std::move(text), s);
  }

  // A turn item (codex-rs/protocol/src/items.rs): UserMessage is a prompt, AgentMessage and Reasoning the
  // agent's text, and the tool items (CommandExecution, FileChange, McpToolCall, DynamicToolCall,
  // CollabAgentToolCall) a call — introduced by item_started, ended by item_completed with its status.
  void turn_item(const json& item, bool completed, Record& r) {
    const std::string type = entry_string(item, "type");
    const std::string id = entry_string(item, "id");
    if (type == "UserMessage") {
      if (!completed) return;
      std::string text;
      for (const json& c : item.value("content", json::array()))
        if (entry_string(c, "type") == "text") text += entry_string(c, "text");
      if (event_prompt_ && *event_prompt_ == text) {  // the legacy user_message was read first
        event_prompt_.reset();
        return;
      }
      item_prompt_ = text;
      as_message(r, "user");
      r.uuid = id;
      r.message.content_is_string = true;
      r.message.content_string = std::move(text);
      return;
    }
    if (type == "AgentMessage") {
      if (!completed) return;
      std::string text;
      for (const json& c : item.value("content", json::array()))
        if (const std::string part = entry_string(c, "text"); !part.empty())
          text += (text.empty() ? "" : "\n") + part;
      if (response_texts_.erase(text)) return;  // the response_item message already said it
      item_texts_.insert(text);
      as_message(r, "assistant");
      r.message.blocks.push_back(text_block(std::move(text)));
      return;
    }
    const std::string word = entry_string(item, "status");
    if (type == "CommandExecution") {
      const std::string input = command_input(item);
      if (still_open(completed, word)) return introduce(r, id, "exec_command", input);
      completion(r, id, "exec_command", input, command_output(item),
                 status_of(word, number_of(item, "exit_code", "exitCode")));
    } else if (type == "FileChange") {
      const std::string input = codex_dump(json{{"changes", item.value("changes", json::object())}});
      if (still_open(completed, word)) return introduce(r, id, "apply_patch", input);
      const CodexResultStatus s = status_of(word, std::nullopt);
      if (s.status == CallStatus::ok) note_applied(item, id, r);
      completion(r, id, "apply_patch", input, stdout_then_stderr(item), s);
    } else if (type == "McpToolCall") {
      const std::string input = codex_dump(item.value("arguments", json::object()));
      if (still_open(completed, word)) return introduce(r, id, mcp_name(item), input);
      std::string text;
      CodexResultStatus s = status_of(word, std::nullopt);
      mcp_result(item.value("result", json()), text, s);
      if (const auto e = item.find("error"); e != item.end() && e->is_object()) {
        text = entry_string(*e, "message");
        s = {true, CallStatus::error, std::nullopt};
      }
      completion(r, id, mcp_name(item), input, std::move(text), s);
    } else if (type == "DynamicToolCall" || type == "CollabAgentToolCall") {
      const std::string name =
          type == "DynamicToolCall" ? entry_string(item, "tool") : "collab_" + entry_string(item, "tool");
      const std::string input =
          codex_dump(item.value(type == "DynamicToolCall" ? "arguments" : "prompt", json()));
      if (still_open(completed, word)) return introduce(r, id, name, input);
      CodexResultStatus s = status_of(word, std::nullopt);
      if (codex_flag(item, "success", false)) s = {true, CallStatus::error, std::nullopt};
      std::string text = entry_string(item, "error");
      if (text.empty())
        text = codex_joined_texts(item.value("content_items", item.value("contentItems", json::array())));
      completion(r, id, name, input, std::move(text), s);
    }
  }

  // Codex writes the running total after each model call, and repeats it when only its rate limits
  // changed: each record carries the growth of the total since the previous one, so a repeat adds nothing
  // and the session's usage is exactly its last total. A total that shrank (a new accounting) counts the
  // call's own last_token_usage.
  void usage(const json& payload, Record& r) {
    const auto info = payload.find("info");
    if (info == payload.end() || !info->is_object()) return;
    const json total = info->value("total_token_usage", json());
    const json last = info->value("last_token_usage", json());
    if (!total.is_object()) return;
    const auto n = [](const json& j, const char* k) {
      return j.is_object() && j.value(k, json(0)).is_number_integer() ? j.value(k, int64_t{0}) : int64_t{0};
    };
    Usage now{true, n(total, "input_tokens"), n(total, "output_tokens"), n(total, "cached_input_tokens"), 0};
    Usage grew{true, now.input_tokens - prev_.input_tokens, now.output_tokens - prev_.output_tokens,
               now.cache_read_input_tokens - prev_.cache_read_input_tokens, 0};
    if (grew.input_tokens < 0 || grew.output_tokens < 0 || grew.cache_read_input_tokens < 0)
      grew =
          Usage{true, n(last, "input_tokens"), n(last, "output_tokens"), n(last, "cached_input_tokens"), 0};
    prev_ = now;
    if (grew.input_tokens == 0 && grew.output_tokens == 0 && grew.cache_read_input_tokens == 0) return;
    as_message(r, "assistant");
    r.message.has_content = false;
    // Codex counts cached input inside input_tokens; the shared model keeps them apart.
    grew.input_tokens -= grew.cache_read_input_tokens;
    r.message.usage = grew;
  }

  // An interrupted turn ends every call still without a result, each then interrupted; with none pending it
  // is the interrupt itself.
  void interrupted(Record& r) {
    interrupt_pending_calls(r, pending_, answered_, "turn interrupted before the call returned");
  }

  std::string session_id_, cwd_, version_, branch_, model_;
  std::set<std::string> pending_, answered_;
  std::set<std::string>
      ok_answered_;  // calls whose first result was ok: a later item or end event may fail them
  std::set<std::string> introduced_;           // call ids some record made a tool_use of
  std::multiset<std::string> item_texts_;      // AgentMessage item texts no response_item repeated yet
  std::multiset<std::string> response_texts_;  // assistant response_item texts no item repeated yet
  std::optional<std::string> item_prompt_, event_prompt_;  // the last prompt of each kind, until its twin
  Usage prev_;
};

class CodexReader final : public JsonlEntryReader {
 public:
  std::string_view harness() const override { return kCodexHarness; }

 protected:
  bool compressed(const Transcript& t) const override { return is_zstd_path(t.path); }
  std::unique_ptr<EntryMapper> mapper(const Transcript*) const override {
    return std::make_unique<CodexMapper>();
  }
};

std::optional<StoreRoot> locate_codex_store(const Environment& env) {
  return store_root_from(env, "CODEX_HOME", "", ".codex");
}

}  // namespace

const TranscriptReader& codex_reader() {
  static const CodexReader reader;
  return reader;
}

HarnessEntry codex_harness() {
  return HarnessEntry{kCodexHarness,
                      {},
                      &codex_reader(),
                      &locate_codex_store,
                      &list_codex_store,
                      "codex sessions have no subagent transcripts, sidecar or cache-creation token figure",
                      &codex_session_meta,
                      &codex_tool_edits()};
}

}  // namespace csift
