// OpenCode 2's line: one session_message row ({"id", "type", "seq", "time_created", "directory", "data"}).
// User and assistant rows become user and assistant records; every other row type (idle, shell, compaction,
// system, synthetic, agent or model switches, moves) is the harness speaking: a system record whose subtype
// is `opencode-<type>`.
#include "core/harness/opencode/opencode_decode_detail.h"

namespace csift::opencode_detail {

namespace {

// The text a finished tool returned: its text content joined, or its error's message.
std::string v2_result_text(const json& state) {
  if (str(state, "status") == "error") {
    const json* err = member(state, "error");
    return err && err->is_object() ? str(*err, "message") : (err ? raw(*err) : "");
  }
  std::string out;
  if (const json* content = member(state, "content"); content && content->is_array()) {
    for (const json& c : *content) {
      if (str(c, "type") != "text") continue;
      out += (out.empty() ? "" : "\n") + str(c, "text");
    }
  }
  return out;
}

void v2_assistant(const json& data, Record& r, OpenCodeFields& f) {
  Message& m = r.message;
  m.id = r.uuid;
  if (const json* model = member(data, "model")) {
    m.model = str(*model, "id");
    f.provider = str(*model, "providerID");
  }
  f.agent = str(data, "agent");
  m.stop_reason = str(data, "finish");
  if (const json* tokens = member(data, "tokens")) read_tokens(*tokens, r, f);
  if (const json* err = member(data, "error"); err && err->is_object()) {
    const std::string type = str(*err, "type");
    f.ended = type == "aborted" ? "interrupted" : "error: " + type + ": " + str(*err, "message");
  }
  const json* content = member(data, "content");
  if (!content || !content->is_array()) return;
  for (const json& c : *content) {
    const std::string type = str(c, "type");
    if (type == "text" || type == "reasoning") {
      Block b;
      b.kind = type == "text" ? BlockKind::text : BlockKind::thinking;
      b.type = type == "text" ? "text" : "thinking";
      b.text = str(c, "text");
      m.blocks.push_back(std::move(b));
    } else if (type == "tool") {
      const json* state = member(c, "state");
      push_tool(r, f, v2_tool_outcome(c), state ? member(*state, "input") : nullptr,
                state ? v2_result_text(*state) : "");
    }
  }
}

// What a harness row says, as text.
std::string v2_harness_text(const std::string& type, const json& data) {
  if (type == "idle") return "idle: " + str(data, "outcome");
  if (type == "shell") {
    const json* output = member(data, "output");
    return "! " + str(data, "command") + (output ? "\n" + str(*output, "output") : "");
  }
  if (type == "compaction") return str(data, "summary");
  if (const std::string text = str(data, "text"); !text.empty()) return text;
  return raw(data);
}

}  // namespace

bool decode_v2(const json& line, Record& r, std::string& error) {
  const json& data = line["data"];
  if (!data.is_object()) {
    error = "`data` is not an object";
    return false;
  }
  OpenCodeFields& f = r.harness_fields.get_or_make<OpenCodeFields>();
  const std::string type = str(line, "type");
  f.row_type = type;
  r.uuid = str(line, "id");
  r.timestamp = time_at(data, "created");
  if (r.timestamp.empty()) {
    if (const auto ms = whole(line, "time_created"); ms && *ms > 0) r.timestamp = iso_of_ms(*ms);
  }
  r.cwd = absolute_or_empty(str(line, "directory"));
  if (type == "user" || type == "assistant") {
    r.type = type;
    r.message.present = true;
    r.message.role = type;
    r.message.has_content = true;
    if (type == "assistant") {
      v2_assistant(data, r, f);
    } else {
      Block b;
      b.kind = BlockKind::text;
      b.type = "text";
      b.text = str(data, "text");
      r.message.blocks.push_back(std::move(b));
    }
    return true;
  }
  r.type = "system";
  r.subtype = "opencode-" + type;
  r.content_text = v2_harness_text(type, data);
  if (type == "idle" && str(data, "outcome") == "interrupted") f.ended = "interrupted";
  return true;
}

}  // namespace csift::opencode_detail
