#include "core/harness/claude_code/claude_fields.h"
#include "core/json/stored_json.h"

#include "core/json/stored_json.h"

namespace csift {

const ClaudeCodeFields& cc(const Record& r) {
  static const ClaudeCodeFields none;
  const ClaudeCodeFields* f = r.harness_fields.get<ClaudeCodeFields>();
  return f ? *f : none;
}

ClaudeCodeFields& cc_mut(Record& r) {
  return r.harness_fields.get_or_make<ClaudeCodeFields>();
}

bool is_compact_summary(const Record& r) {
  return cc(r).is_compact_summary;
}

const std::vector<int64_t>& image_paste_ids(const Record& r) {
  return cc(r).image_paste_ids;
}

const std::string& queue_operation(const Record& r) {
  return cc(r).operation;
}

std::optional<std::string> attachment_type(const Record& r) {
  if (r.type != "attachment") return std::nullopt;
  std::string type = stored_string_field(cc(r).attachment_json, "type");
  if (type.empty()) return std::nullopt;
  return type;
}

const std::string& api_request_id(const Record& r) {
  return cc(r).request_id;
}

std::string persisted_output_path(const Record& r) {
  return stored_string_field(cc(r).tool_use_result_json, "persistedOutputPath");
}

bool tool_result_interrupted(const Record& r) {
  const std::string& raw = cc(r).tool_use_result_json;
  if (raw.find("\"interrupted\"") == std::string::npos) return false;  // the common case: no parse
  const nlohmann::json j = parse_stored_object(raw);
  const auto it = j.find("interrupted");
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace csift
