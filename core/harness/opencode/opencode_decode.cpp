// The shared half of OpenCode's line decoding: field helpers, the tool call/result pair, the public entry
// points. Each schema's own shape is in opencode_decode_v1.cpp / opencode_decode_v2.cpp.
#include <cmath>

#include "core/base/timefmt.h"
#include "core/harness/opencode/opencode_decode_detail.h"

namespace csift {

namespace opencode_detail {

const json* member(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::string str(const json& obj, const char* key) {
  const json* v = member(obj, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<int64_t> whole(const json& obj, const char* key) {
  const json* v = member(obj, key);
  if (!v) return std::nullopt;
  if (v->is_number_integer()) return v->get<int64_t>();
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9e15) return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

std::string absolute_or_empty(const std::string& p) {
  return !p.empty() && p.front() == '/' ? p : std::string();
}

std::string iso_of_ms(int64_t ms) {
  return format_utc(ms);
}

std::string time_at(const json& obj, const char* key) {
  const json* time = member(obj, "time");
  if (!time) return "";
  const auto ms = whole(*time, key);
  return ms ? iso_of_ms(*ms) : std::string();
}

void read_tokens(const json& tokens, Record& r, OpenCodeFields& f) {
  if (!tokens.is_object()) return;
  Usage& u = r.message.usage;
  u.present = true;
  f.reasoning_tokens = whole(tokens, "reasoning").value_or(0);
  u.input_tokens = whole(tokens, "input").value_or(0);
  u.output_tokens = whole(tokens, "output").value_or(0) + f.reasoning_tokens;
  if (const json* cache = member(tokens, "cache")) {
    u.cache_read_input_tokens = whole(*cache, "read").value_or(0);
    u.cache_creation_input_tokens = whole(*cache, "write").value_or(0);
  }
}

std::string raw(const json& v) {
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

void push_tool(Record& r, OpenCodeFields& f, OpenCodeToolOutcome outcome, const json* input,
               std::string result_text) {
  Block use;
  use.kind = BlockKind::tool_use;
  use.type = "tool_use";
  use.id = outcome.call_id;
  use.name = outcome.tool;
  use.input_json = input ? raw(*input) : "";
  r.message.blocks.push_back(std::move(use));
  if (outcome.status) {
    Block result;
    result.kind = BlockKind::tool_result;
    result.type = "tool_result";
    result.tool_use_id = outcome.call_id;
    result.content_text = std::move(result_text);
    result.is_error = *outcome.status != CallStatus::ok;
    result.has_is_error = true;
    r.message.blocks.push_back(std::move(result));
  }
  f.tools.push_back(std::move(outcome));
}

}  // namespace opencode_detail

const OpenCodeFields* opencode_fields(const Record& r) {
  return r.harness_fields.get<OpenCodeFields>();
}

const OpenCodeToolOutcome* opencode_tool_outcome(const Record& r, std::string_view call_id) {
  const OpenCodeFields* f = opencode_fields(r);
  if (!f) return nullptr;
  for (const OpenCodeToolOutcome& t : f->tools)
    if (t.call_id == call_id) return &t;
  return nullptr;
}

bool decode_opencode_line(std::string_view line, Record& r, std::string& error) {
  using opencode_detail::decode_v1, opencode_detail::decode_v2, opencode_detail::json,
      opencode_detail::member;
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "malformed JSON: the stored row is not a JSON object";
    return false;
  }
  // The decoders check every type they read; a nlohmann exception here would be a bug, reported as the
  // line's.
  try {
    if (member(j, "info")) return decode_v1(j, r, error);
    if (member(j, "data")) return decode_v2(j, r, error);
  } catch (const std::exception& e) {
    error = std::string("unreadable OpenCode row: ") + e.what();
    return false;
  }
  error = "not an OpenCode message line (neither `info` nor `data`)";
  return false;
}

bool opencode_opens_turn(const Record& r) {
  if (r.type != "user") return false;
  for (const Block& b : r.message.blocks)
    if (b.kind == BlockKind::text && b.text.find_first_not_of(" \t\r\n") != std::string::npos) return true;
  return false;
}

}  // namespace csift
