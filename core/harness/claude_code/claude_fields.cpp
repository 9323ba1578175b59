#include "core/harness/claude_code/claude_fields.h"

#include <nlohmann/json.hpp>

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

const std::string& queue_operation(const Record& r) {
  return cc(r).operation;
}

std::optional<std::string> attachment_type(const Record& r) {
  const std::string& raw = cc(r).attachment_json;
  if (r.type != "attachment" || raw.empty()) return std::nullopt;
  const nlohmann::json att = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (!att.is_object()) return std::nullopt;
  const auto it = att.find("type");
  if (it == att.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) return std::nullopt;
  return it->get<std::string>();
}

std::string persisted_output_path(const Record& r) {
  const std::string& raw = cc(r).tool_use_result_json;
  if (raw.empty()) return "";
  const nlohmann::json j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return "";
  const auto it = j.find("persistedOutputPath");
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace csift
