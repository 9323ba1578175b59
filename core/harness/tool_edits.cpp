#include "core/harness/tool_edits.h"

#include <nlohmann/json.hpp>

#include "core/json/stored_json.h"

namespace csift {

namespace {

// A word as a POSIX shell reads it back: bare when it holds nothing the shell would split or expand.
std::string te_shell_word(const std::string& w) {
  const bool plain = !w.empty() && w.find_first_not_of(
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789-_./=:,+@%") == std::string::npos;
  if (plain) return w;
  std::string out = "'";
  for (char c : w)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::string> tool_input_command(std::string_view input_json,
                                              std::initializer_list<std::string_view> keys) {
  return tool_command_of(parse_stored_object(input_json), keys);
}

std::optional<std::string> tool_command_of(const nlohmann::json& input,
                                           std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    const auto it = input.find(std::string(key));
    if (it == input.end()) continue;
    if (it->is_string()) return it->get<std::string>();
    if (it->is_array()) {
      std::string out;
      for (const nlohmann::json& w : *it) {
        if (!w.is_string()) return std::nullopt;
        if (!out.empty()) out += ' ';
        out += te_shell_word(w.get<std::string>());
      }
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace csift
