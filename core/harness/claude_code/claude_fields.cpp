#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/fixed_texts.h"
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

const std::string& mcp_only_structured_content(const Record& r) {
  return cc(r).mcp_structured_json;
}

std::string mcp_saved_output_path(std::string_view text) {
  const size_t at = text.find(claude_code_text::kMcpSavedOutput);
  if (at == std::string_view::npos) return "";
  const size_t begin = at + claude_code_text::kMcpSavedOutput.size();
  size_t end = text.find('\n', begin);
  if (end == std::string_view::npos) end = text.size();
  std::string_view path = text.substr(begin, end - begin);
  if (!path.empty() && path.back() == '.') path.remove_suffix(1);  // the sentence's full stop
  return std::string(path);
}

bool tool_result_interrupted(const Record& r) {
  const std::string& raw = cc(r).tool_use_result_json;
  if (raw.find("\"interrupted\"") == std::string::npos) return false;  // the common case: no parse
  const nlohmann::json j = parse_stored_object(raw);
  const auto it = j.find("interrupted");
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace csift
