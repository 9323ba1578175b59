// Gemini CLI messages onto the shared record model. A `user` message with text is a prompt unless it is the
// injected `<session_context>`; a `gemini` message carries the agent's text, its thoughts, its token counts
// and its tool calls with their results inline (status error / cancelled; the denial texts; a shell
// result's `Exit Code:` trailer). Gemini CLI records no exit code of its own.
#include <nlohmann/json.hpp>

#include "core/harness/gemini_cli/gemini_cli_edits.h"
#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/harness_listing.h"
#include "core/harness/jsonl_entry_reader.h"

namespace csift {

namespace {

using nlohmann::json;

std::string gemini_dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The texts of a user message's parts (function responses are not the human's words).
std::string gemini_user_text(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (!content.is_array()) return out;
  for (const json& part : content) {
    const std::string t = entry_string(part, "text");
    if (t.empty()) continue;
    if (!out.empty()) out += "\n";
    out += t;
  }
  return out;
}

// A call's result text: the function response's output or error, else what the CLI displayed.
std::string gemini_result_text(const json& call) {
  const json result = call.value("result", json());
  if (result.is_array()) {
    for (const json& part : result) {
      const json fr = part.value("functionResponse", json());
      const json resp = fr.is_object() ? fr.value("response", json()) : json();
      if (!resp.is_object()) continue;
      for (const char* key : {"output", "error"}) {
        if (resp.contains(key))
          return resp[key].is_string() ? resp[key].get<std::string>() : gemini_dump(resp[key]);
      }
      return gemini_dump(resp);
    }
  }
  const json display = call.value("resultDisplay", json());
  return display.is_string() ? display.get<std::string>() : (display.is_null() ? "" : gemini_dump(display));
}

// A shell result's trailer: `Exit Code: N` (N != 0) is an error with that code; a `Signal:` line an error.
void gemini_shell_trailer(const std::string& text, bool& error, std::optional<int64_t>& exit_code) {
  size_t end = text.size();
  while (end > 0) {
    const size_t start = text.rfind('\n', end - 1);
    const size_t from = start == std::string::npos ? 0 : start + 1;
    const std::string_view line(text.data() + from, end - from);
    end = start == std::string::npos ? 0 : start;
    if (line.empty()) continue;
    if (line.starts_with("Exit Code: ")) {
      try {
        exit_code = std::stoll(std::string(line.substr(11)));
        error = error || *exit_code != 0;
      } catch (...) {
      }
    } else if (line.starts_with("Signal: ")) {
      error = true;
    } else if (!line.starts_with("Error: ") && !line.starts_with("Background PIDs: ") &&
               !line.starts_with("Process Group PGID: ")) {
      break;
    }
  }
}

void gemini_tool_call(const json& call, Record& r) {
  const std::string id = entry_string(call, "id");
  const std::string name = entry_string(call, "name");
  r.message.blocks.push_back(tool_use_block(id, name, gemini_dump(call.value("args", json::object()))));
  const std::string status = entry_string(call, "status");
  if (!call.contains("result") && status != "error" && status != "cancelled") return;  // no result yet
  std::string text = gemini_result_text(call);
  bool error = status == "error";
  CallStatus shown = error ? CallStatus::error : CallStatus::ok;
  std::optional<int64_t> exit_code;
  if (status == "cancelled") shown = CallStatus::interrupted;
  if (text.find("[Operation Cancelled] Reason: User denied execution.") != std::string::npos ||
      text.find("Tool execution denied by policy.") != std::string::npos)
    shown = CallStatus::denied;
  if (name == "run_shell_command" && shown == CallStatus::ok) {
    gemini_shell_trailer(text, error, exit_code);
    if (error) shown = CallStatus::error;
  }
  const bool failed = error || shown != CallStatus::ok;
  r.message.blocks.push_back(tool_result_block(id, std::move(text), failed, shown, exit_code));
}

class GeminiMapper final : public EntryMapper {
 public:
  explicit GeminiMapper(std::string cwd) : cwd_(std::move(cwd)) {}

  std::string map(const json& entry, Record& r) override {
    r.cwd = cwd_;
    r.timestamp = entry_string(entry, "timestamp");
    for (const char* update : {"$set", "$rewindTo", "$patch"}) {
      if (entry.contains(update)) return r.type = update;
    }
    const std::string type = entry_string(entry, "type");
    if (type.empty() && entry.contains("sessionId")) {
      session_id_ = entry_string(entry, "sessionId");
      r.session_id = session_id_;
      r.timestamp = entry_string(entry, "startTime");
      return r.type = "session";
    }
    r.session_id = session_id_;
    r.uuid = entry_string(entry, "id");
    r.type = type;
    if (type == "user") user(entry, r);
    if (type == "gemini") agent(entry, r);
    return type.empty() ? "(untyped)" : type;
  }

 private:
  void user(const json& entry, Record& r) {
    const std::string text = gemini_user_text(entry.value("content", json()));
    if (text.empty() || text.starts_with("<session_context>"))
      return;  // function responses / injected context
    make_message(r, "user");
    r.message.content_is_string = true;
    r.message.content_string = text;
  }

  void agent(const json& entry, Record& r) {
    make_message(r, "assistant");
    r.message.id = entry_string(entry, "id");
    r.message.model = entry_string(entry, "model");
    for (const json& t : entry.value("thoughts", json::array())) {
      const std::string subject = entry_string(t, "subject");
      const std::string description = entry_string(t, "description");
      r.message.blocks.push_back(
          thinking_block(subject.empty() ? description : subject + ": " + description));
    }
    const std::string text = gemini_user_text(entry.value("content", json()));
    if (!text.empty()) r.message.blocks.push_back(text_block(text));
    for (const json& call : entry.value("toolCalls", json::array()))
      if (call.is_object()) gemini_tool_call(call, r);
    const json tokens = entry.value("tokens", json());
    if (tokens.is_object()) {
      const auto n = [&](const char* k) {
        return tokens.value(k, json(0)).is_number_integer() ? tokens.value(k, int64_t{0}) : 0;
      };
      Usage& u = r.message.usage;
      u.present = true;
      u.cache_read_input_tokens = n("cached");
      u.input_tokens = n("input") - u.cache_read_input_tokens;
      u.output_tokens = n("output") + n("thoughts");
    }
  }

  std::string cwd_, session_id_;
};

class GeminiCliReader final : public JsonlEntryReader {
 public:
  std::string_view harness() const override { return kGeminiCliHarness; }

 protected:
  std::unique_ptr<EntryMapper> mapper(const Transcript* t) const override {
    return std::make_unique<GeminiMapper>(t ? gemini_project_root(t->path) : "");
  }
};

std::optional<StoreRoot> locate_gemini_cli_store(const Environment& env) {
  return store_root_from(env, "GEMINI_CLI_HOME", ".gemini", ".gemini");
}

}  // namespace

const TranscriptReader& gemini_cli_reader() {
  static const GeminiCliReader reader;
  return reader;
}

HarnessEntry gemini_cli_harness() {
  return HarnessEntry{kGeminiCliHarness,
                      {"gemini"},
                      &gemini_cli_reader(),
                      &locate_gemini_cli_store,
                      &list_gemini_cli_store,
                      "gemini-cli sessions record no exit code (read from a shell result's trailer), no "
                      "subagent transcripts here and no cache-creation token figure",
                      &gemini_cli_session_meta,
                      &gemini_cli_tool_edits()};
}

}  // namespace csift
