#include "core/json/stored_json.h"

namespace csift {

nlohmann::json parse_stored_json(std::string_view raw) {
  if (raw.empty()) return nullptr;
  nlohmann::json j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? nlohmann::json(nullptr) : j;
}

nlohmann::json parse_stored_object(std::string_view raw) {
  // Cheap refusal before the parser runs: most texts that are not objects are strings or arrays.
  if (raw.empty() || raw.front() != '{') return nlohmann::json::object();
  nlohmann::json j = parse_stored_json(raw);
  return j.is_object() ? j : nlohmann::json::object();
}

std::string stored_string_field(std::string_view raw, std::string_view key) {
  const nlohmann::json j = parse_stored_object(raw);
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace csift
