// OpenCode 1's line: one message (`info`) with its parts, as render_opencode_log() lays it out.
#include "core/harness/opencode/opencode_decode_detail.h"

namespace csift::opencode_detail {

namespace {

void v1_text_block(Record& r, BlockKind kind, const std::string& text) {
  Block b;
  b.kind = kind;
  b.type = kind == BlockKind::thinking ? "thinking" : "text";
  b.text = text;
  r.message.blocks.push_back(std::move(b));
}

// The result text of a finished tool part: its output, or its error.
std::string v1_result_text(const json& part) {
  const json* state = member(part, "state");
  if (!state) return "";
  return str(*state, "status") == "error" ? str(*state, "error") : str(*state, "output");
}

// Parts become blocks in order. A user message's synthetic or ignored text is the harness's, not the human's:
// it is kept apart and becomes the record's text only when the message has nothing else.
void v1_parts(const json& parts, bool user, Record& r, OpenCodeFields& f, std::string& harness_text) {
  if (!parts.is_array()) return;
  for (const json& p : parts) {
    const std::string type = str(p, "type");
    if (type == "text") {
      const auto flag = [&](const char* key) {
        const json* v = member(p, key);
        return v && v->is_boolean() && v->get<bool>();
      };
      const bool harness_part = flag("synthetic") || flag("ignored");
      if (user && harness_part)
        harness_text += (harness_text.empty() ? "" : "\n") + str(p, "text");
      else
        v1_text_block(r, BlockKind::text, str(p, "text"));
    } else if (type == "reasoning") {
      v1_text_block(r, BlockKind::thinking, str(p, "text"));
    } else if (type == "tool") {
      const json* state = member(p, "state");
      push_tool(r, f, v1_tool_outcome(p), state ? member(*state, "input") : nullptr, v1_result_text(p));
    }
    // step-start / step-finish / snapshot / patch / file / agent / subtask / retry / compaction: not
    // modelled.
  }
}

void v1_message_end(const json& info, OpenCodeFields& f) {
  const json* err = member(info, "error");
  if (!err || !err->is_object()) return;
  const std::string name = str(*err, "name");
  if (name == "MessageAbortedError") {
    f.ended = "interrupted";
    return;
  }
  const json* data = member(*err, "data");
  f.ended = "error: " + name + (data ? ": " + str(*data, "message") : "");
}

}  // namespace

bool decode_v1(const json& line, Record& r, std::string& error) {
  const json& info = line["info"];
  if (!info.is_object()) {
    error = "`info` is not an object";
    return false;
  }
  OpenCodeFields& f = r.harness_fields.get_or_make<OpenCodeFields>();
  const std::string role = str(info, "role");
  f.row_type = role;
  f.agent = str(info, "agent");
  r.type = role;
  r.uuid = str(info, "id");
  r.parent_uuid = str(info, "parentID");
  r.session_id = str(info, "sessionID");
  r.timestamp = time_at(info, "created");
  const json* path = member(info, "path");
  r.cwd = absolute_or_empty(path ? str(*path, "cwd") : "");
  if (r.cwd.empty()) r.cwd = absolute_or_empty(str(line, "directory"));
  Message& m = r.message;
  m.present = true;
  m.role = role;
  m.has_content = true;
  if (role == "assistant") {
    m.id = r.uuid;
    m.model = str(info, "modelID");
    f.provider = str(info, "providerID");
    m.stop_reason = str(info, "finish");
    if (const json* tokens = member(info, "tokens")) read_tokens(*tokens, r, f);
    v1_message_end(info, f);
  } else if (const json* model = member(info, "model")) {
    m.model = str(*model, "modelID");
    f.provider = str(*model, "providerID");
  }
  std::string harness_text;
  if (const json* parts = member(line, "parts")) v1_parts(*parts, role == "user", r, f, harness_text);
  if (role == "user" && m.blocks.empty() && !harness_text.empty()) {
    // Only the harness spoke (a synthetic note): a system record, so it never reads as the human.
    r.type = "system";
    r.subtype = "opencode-synthetic";
    r.content_text = harness_text;
  }
  return true;
}

}  // namespace csift::opencode_detail
