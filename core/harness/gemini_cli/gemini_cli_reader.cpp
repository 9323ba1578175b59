// Gemini CLI messages onto the shared record model. A `user` message with text is a prompt unless it is
// injected context (`<session_context>`, `<hook_context>`), a slash command or the CLI's own `Please
// continue.` (kept as system records) or a message written again under an id already read as a prompt; its
// functionResponse parts are results of calls no `toolCalls` record answered. A `gemini` message carries the
// agent's text, its thoughts (the `thoughts` summaries and `thought: true` parts), its token counts and its
// tool calls: `toolCalls` with their results inline (status error / cancelled; the denial texts; a shell
// result's trailer, inside its `<untrusted_context>` frame), else functionCall parts. Gemini CLI records no
// exit code of its own.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/base/text.h"
#include "core/harness/decoded_line_walk.h"
#include "core/harness/gemini_cli/gemini_cli_edits.h"
#include "core/harness/gemini_cli/gemini_cli_harness.h"
#include "core/harness/gemini_cli/gemini_cli_text.h"
#include "core/harness/harness_listing.h"
#include "core/harness/jsonl_entry_reader.h"

namespace csift {

namespace {

using nlohmann::json;

std::string gemini_dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A message's content as parts: a string is one text part, one part object a list of one.
json gemini_parts(const json& content) {
  if (content.is_string()) return json::array({json{{"text", content}}});
  if (content.is_object()) return json::array({content});
  return content.is_array() ? content : json::array();
}

bool gemini_is_thought(const json& part) {
  const auto it = part.find("thought");
  return it != part.end() && it->is_boolean() && it->get<bool>();
}

// The text parts of a message joined, thought parts left out (or only those, with `thoughts`).
std::string gemini_text_of(const json& content, bool thoughts = false) {
  std::string out;
  for (const json& part : gemini_parts(content)) {
    if (part.is_string()) {
      if (thoughts) continue;
      out += (out.empty() ? "" : "\n") + part.get<std::string>();
      continue;
    }
    if (!part.is_object() || gemini_is_thought(part) != thoughts) continue;
    const std::string t = entry_string(part, "text");
    if (t.empty()) continue;
    if (!out.empty()) out += "\n";
    out += t;
  }
  return out;
}

// A function response's text: its output, else its error, else the response as JSON.
std::string gemini_response_text(const json& response) {
  if (!response.is_object())
    return response.is_string() ? response.get<std::string>() : gemini_dump(response);
  for (const char* key : {"output", "error"}) {
    if (response.contains(key))
      return response[key].is_string() ? response[key].get<std::string>() : gemini_dump(response[key]);
  }
  return gemini_dump(response);
}

// A call's result text: the function response's output or error, else what the CLI displayed.
std::string gemini_result_text(const json& call) {
  const json result = call.value("result", json());
  if (result.is_string()) return result.get<std::string>();
  for (const json& part : gemini_parts(result)) {
    const json fr = part.is_object() ? part.value("functionResponse", json()) : json();
    const json resp = fr.is_object() ? fr.value("response", json()) : json();
    if (resp.is_object()) return gemini_response_text(resp);
  }
  const json display = call.value("resultDisplay", json());
  return display.is_string() ? display.get<std::string>() : (display.is_null() ? "" : gemini_dump(display));
}

// A shell result's trailer, read inside its frame: `Exit Code: N` (N != 0) is an error with that code; a
// `Signal: S` line (S not `(none)` or 0) an error. `Error:`, `Background PIDs:` and `Process Group PGID:`
// lines belong to the trailer; the first other line from the end ends it, so what the command printed is
// never read.
void gemini_shell_trailer(std::string_view text, bool& error, std::optional<int64_t>& exit_code) {
  text = gemini_unframed(text);
  if (trim(text).starts_with(gemini_text::kShellTimeout)) {
    error = true;
    return;
  }
  size_t end = text.size();
  while (end > 0) {
    const size_t start = text.rfind('\n', end - 1);
    const size_t from = start == std::string_view::npos ? 0 : start + 1;
    const std::string_view line = trim_end(text.substr(from, end - from));
    end = start == std::string_view::npos ? 0 : start;
    if (line.empty()) continue;
    if (line.starts_with("Exit Code: ")) {
      const std::string_view value = trim(line.substr(11));
      if (value == "(none)") continue;
      try {
        exit_code = std::stoll(std::string(value));
        error = error || *exit_code != 0;
      } catch (...) {
      }
    } else if (line.starts_with("Signal: ")) {
      const std::string_view value = trim(line.substr(8));
      if (value != "(none)" && value != "0") error = true;
    } else if (!line.starts_with("Error: ") && !line.starts_with("Background PIDs: ") &&
               !line.starts_with("Process Group PGID: ")) {
      break;
    }
  }
}

// The result block of a call, from its recorded status (`error`, `cancelled`, else none), its text and tool.
Block gemini_result_block(const std::string& id, const std::string& name, const std::string& status,
                          std::string text) {
  bool error = status == "error";
  CallStatus shown = error ? CallStatus::error : CallStatus::ok;
  std::optional<int64_t> exit_code;
  if (status == "cancelled") shown = CallStatus::interrupted;
  if (text.find(gemini_text::kUserDenied) != std::string::npos ||
      text.find(gemini_text::kPolicyDenied) != std::string::npos)
    shown = CallStatus::denied;
  if (name == "run_shell_command" && shown == CallStatus::ok) {
    gemini_shell_trailer(text, error, exit_code);
    if (error) shown = CallStatus::error;
  }
  const bool failed = error || shown != CallStatus::ok;
  return tool_result_block(id, std::move(text), failed, shown, exit_code);
}

// A slash command (`/help`, `/memory show`): its first word is `/` and a command name, so a path (`/home/u/x
// fix this`) is still a prompt.
bool gemini_is_slash_command(std::string_view text) {
  text = trim_start(text);
  if (text.size() < 2 || text[0] != '/' || !is_ascii_alnum(static_cast<unsigned char>(text[1])) ||
      is_ascii_digit(text[1]))
    return false;
  for (size_t i = 2; i < text.size() && !is_ascii_space(text[i]); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (!is_ascii_alnum(c) && c != '_' && c != '-') return false;
  }
  return true;
}

// A message gemini-cli sends itself, not the user: `Please continue.` after a turn that ended with the model
// to speak next (core/client.ts, the next-speaker check, since 2025-05), `System: Please continue.` after an
// invalid stream (from v0.10's #10828 until #26340 of 2026-05). Recorded as a `user` message all the same.
bool gemini_is_continuation(std::string_view text) {
  text = trim(text);
  return text == "Please continue." || text == "System: Please continue.";
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
    const json content = entry.value("content", json());
    const std::string text = gemini_text_of(content);
    const std::string_view lead = trim_start(text);
    if (text.empty() || lead.starts_with("<session_context>") || lead.starts_with("<hook_context>")) {
      responses(content, r);  // function responses / injected context
      return;
    }
    const bool slash = gemini_is_slash_command(text);
    const bool continuation = !slash && gemini_is_continuation(text);
    if (slash || continuation || (!r.uuid.empty() && prompts_.count(r.uuid))) {
      // A slash command, the client's own continuation, or a prompt written again under its id: the harness's
      // record, never a (second) prompt.
      r.type = "system";
      r.subtype = slash          ? "gemini-slash-command"
                  : continuation ? "gemini-continuation"
                                 : "gemini-message-rewritten";
      r.content_text = text;
      return;
    }
    if (!r.uuid.empty()) prompts_.insert(r.uuid);
    make_message(r, "user");
    r.message.content_is_string = true;
    r.message.content_string = text;
  }

  // The functionResponse parts of a user message that answer a call no toolCalls record answered (a response
  // without an id answers the oldest unanswered call of its name).
  void responses(const json& content, Record& r) {
    for (const json& part : gemini_parts(content)) {
      const json fr = part.is_object() ? part.value("functionResponse", json()) : json();
      if (!fr.is_object()) continue;
      std::string id = entry_string(fr, "id");
      const std::string name = entry_string(fr, "name");
      if (id.empty()) {
        for (const auto& [call_id, call_name] : unanswered_)
          if (call_name == name) {
            id = call_id;
            break;
          }
      }
      if (id.empty() || answered_.count(id)) continue;
      const json resp = fr.value("response", json());
      std::string text = gemini_response_text(resp);
      const bool cancelled = trim_start(text).starts_with(gemini_text::kCancelledPrefix);
      const bool error = resp.is_object() && resp.contains("error") && !resp.contains("output");
      if (r.message.role.empty()) make_message(r, "user");
      r.message.blocks.push_back(
          gemini_result_block(id, name, cancelled ? "cancelled" : (error ? "error" : ""), std::move(text)));
      answered(id);
    }
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
    const json content = entry.value("content", json());
    if (const std::string thought = gemini_text_of(content, true); !thought.empty())
      r.message.blocks.push_back(thinking_block(thought));
    const std::string text = gemini_text_of(content);
    if (!text.empty()) r.message.blocks.push_back(text_block(text));
    std::set<std::string> recorded;
    for (const json& call : entry.value("toolCalls", json::array()))
      if (call.is_object()) {
        recorded.insert(entry_string(call, "id"));
        tool_call(call, r);
      }
    function_calls(content, recorded, r);
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

  void tool_call(const json& call, Record& r) {
    const std::string id = entry_string(call, "id");
    const std::string name = entry_string(call, "name");
    r.message.blocks.push_back(tool_use_block(id, name, gemini_dump(call.value("args", json::object()))));
    const std::string status = entry_string(call, "status");
    if (!call.contains("result") && status != "error" && status != "cancelled") {  // no result yet
      if (!answered_.count(id)) unanswered_.emplace_back(id, name);
      return;
    }
    r.message.blocks.push_back(gemini_result_block(id, name, status, gemini_result_text(call)));
    answered(id);
  }

  // functionCall parts of a model turn that no toolCalls record of the message names (a turn synced from the
  // model's history): calls, answered later by a functionResponse part. One without an id is named by its
  // message and position.
  void function_calls(const json& content, const std::set<std::string>& recorded, Record& r) {
    size_t index = 0;
    for (const json& part : gemini_parts(content)) {
      const json fc = part.is_object() ? part.value("functionCall", json()) : json();
      if (!fc.is_object()) continue;
      ++index;
      std::string id = entry_string(fc, "id");
      if (id.empty()) id = r.uuid + "/" + std::to_string(index);
      if (recorded.count(id) || answered_.count(id)) continue;
      const std::string name = entry_string(fc, "name");
      r.message.blocks.push_back(tool_use_block(id, name, gemini_dump(fc.value("args", json::object()))));
      if (std::find_if(unanswered_.begin(), unanswered_.end(),
                       [&](const auto& c) { return c.first == id; }) == unanswered_.end())
        unanswered_.emplace_back(id, name);
    }
  }

  void answered(const std::string& id) {
    answered_.insert(id);
    std::erase_if(unanswered_, [&](const auto& c) { return c.first == id; });
  }

  std::string cwd_, session_id_;
  std::set<std::string> prompts_;                                // user message ids read as prompts
  std::set<std::string> answered_;                               // call ids with a result
  std::vector<std::pair<std::string, std::string>> unanswered_;  // (call id, tool name), oldest first
};

// A legacy single-document session (`session-*.json`, releases before v0.39.0: JSON.stringify(conversation,
// null, 2), rewritten whole on every save) laid out as the log gemini-cli itself migrates it to when it
// resumes one (chatRecordingService.ts initialize()): a metadata line, then one line per message. The
// metadata line keeps only what is final once written (sessionId, projectHash, startTime, kind), so the log's
// first line, and with it the watermark, stays the same as messages are added.
struct GeminiLegacyLog {
  std::vector<std::string> lines;
  // Each line's value, from the one parse of the document: read() maps these, never parsing a line again.
  std::vector<json> entries;
  std::string error;      // the file could not be read
  std::string malformed;  // the document is not a session: why (one skipped line)
};

constexpr uint64_t kMaxLegacyDocumentBytes = uint64_t{256} << 20;

GeminiLegacyLog gemini_legacy_log(const Transcript& t) {
  GeminiLegacyLog out;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(t.path, ec);
  if (ec) {
    out.error = "cannot read " + t.path + ": " + ec.message();
    return out;
  }
  if (size > kMaxLegacyDocumentBytes) {
    out.malformed = "the legacy session document is larger than 256 MiB";
    return out;
  }
  std::ifstream in(t.path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    out.error = "cannot read " + t.path;
    return out;
  }
  json doc = json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("sessionId")) {
    out.malformed = "malformed JSON: not a Gemini CLI session document";
    return out;
  }
  json meta = json::object();
  for (const char* key : {"sessionId", "projectHash", "startTime", "kind"})
    if (doc.contains(key)) meta[key] = doc[key];
  out.lines.push_back(gemini_dump(meta));
  out.entries.push_back(std::move(meta));
  if (const auto messages = doc.find("messages"); messages != doc.end() && messages->is_array())
    for (json& m : *messages) {
      out.lines.push_back(gemini_dump(m));
      out.entries.push_back(std::move(m));
    }
  return out;
}

bool gemini_is_legacy(const Transcript& t) {
  return t.path.ends_with(".json");
}

class GeminiCliReader final : public JsonlEntryReader {
 public:
  std::string_view harness() const override { return kGeminiCliHarness; }

  ReadStats read(const Transcript& t, const ReadOptions& opts, RecordSink& sink) const override {
    if (!gemini_is_legacy(t)) return JsonlEntryReader::read(t, opts, sink);
    const GeminiLegacyLog log = gemini_legacy_log(t);
    ReadStats stats;
    stats.error = log.error;
    if (!log.malformed.empty()) {
      stats.lines = stats.skipped_lines = 1;
      if (opts.census_types) ++stats.line_types["(malformed)"];
      sink.skipped({1, log.malformed});
    }
    std::unique_ptr<EntryMapper> m = mapper(&t);
    uint64_t offset = 0;
    for (size_t i = 0; i < log.lines.size(); ++i) {
      if (opts.cancel && opts.cancel->is_cancelled()) {
        stats.cancelled = true;
        break;
      }
      if (opts.max_lines && stats.lines >= opts.max_lines) break;
      ++stats.lines;
      stats.bytes += log.lines[i].size() + 1;
      const json& entry = log.entries[i];
      Record r;
      r.line = i + 1;
      r.offset = offset;
      r.length = log.lines[i].size();
      offset += log.lines[i].size() + 1;
      if (!entry.is_object()) {  // a message that is not an object
        ++stats.skipped_lines;
        if (opts.census_types) ++stats.line_types["(malformed)"];
        sink.skipped({r.line, "malformed JSON: not a JSON object"});
        continue;
      }
      const std::string kind = m->map(entry, r);
      if (opts.census_types) ++stats.line_types[kind.empty() ? "(untyped)" : kind];
      if (!sink.record(std::move(r))) {
        stats.stopped = true;
        break;
      }
    }
    if (opts.on_bytes) opts.on_bytes(stats.bytes);
    return stats;
  }

  ScanStats read_raw_lines(const Transcript& t, const RawLineFn& fn,
                           const CancelToken* cancel) const override {
    if (!gemini_is_legacy(t)) return JsonlEntryReader::read_raw_lines(t, fn, cancel);
    const GeminiLegacyLog log = gemini_legacy_log(t);
    return walk_laid_out_lines(log.lines, log.error, fn, cancel);
  }

  bool laid_out_in_memory(const Transcript& t) const override { return gemini_is_legacy(t); }

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
