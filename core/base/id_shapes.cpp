#include "core/base/id_shapes.h"

#include <cctype>

namespace csift {

bool is_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    bool dash_slot = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_slot ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool is_teammate_agent_id(std::string_view s) {
  // a<Name>-<16 hex>; the name may itself carry dashes.
  if (s.size() < 19 || s[0] != 'a' || is_uuid(s)) return false;
  size_t dash = s.size() - 17;
  if (s[dash] != '-') return false;
  for (size_t i = dash + 1; i < s.size(); ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  for (size_t i = 1; i < dash; ++i) {
    if (!std::isalnum(static_cast<unsigned char>(s[i])) && s[i] != '-') return false;
  }
  return true;
}

std::string agent_id_from_filename(std::string_view filename) {
  constexpr std::string_view prefix = "agent-";
  constexpr std::string_view suffix = ".jsonl";
  if (!filename.starts_with(prefix) || !filename.ends_with(suffix)) return "";
  std::string_view id = filename.substr(prefix.size(), filename.size() - prefix.size() - suffix.size());
  if (id.empty() || id.ends_with(".meta")) return "";
  return std::string(id);
}

}  // namespace csift
