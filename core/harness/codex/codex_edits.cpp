#include "core/harness/codex/codex_edits.h"

#include <nlohmann/json.hpp>

#include "core/harness/apply_patch.h"
#include "core/json/stored_json.h"

namespace csift {

namespace {

bool codex_shell_tool(std::string_view tool) {
  return tool == "shell" || tool == "container.exec" || tool == "local_shell" || tool == "shell_command" ||
         tool == "exec_command";
}

// The patch a call carries: apply_patch's own input, or a shell call that runs apply_patch.
std::optional<std::string> codex_patch_of(std::string_view tool, std::string_view input_json) {
  if (tool == "apply_patch") {
    const nlohmann::json input = parse_stored_object(input_json);
    for (const char* key : {"input", "patch"})
      if (input.contains(key) && input[key].is_string()) return input[key].get<std::string>();
    return std::string(input_json);
  }
  if (!codex_shell_tool(tool)) return std::nullopt;
  const nlohmann::json input = parse_stored_object(input_json);
  for (const char* key : {"command", "cmd"}) {
    const auto it = input.find(key);
    if (it == input.end()) continue;
    if (it->is_array() && it->size() == 2 && (*it)[0].is_string() && (*it)[1].is_string()) {
      const std::string argv0 = (*it)[0].get<std::string>();
      if (argv0 == "apply_patch" || argv0 == "applypatch") return (*it)[1].get<std::string>();
    }
    if (it->is_string()) {
      std::string patch = apply_patch_in_command(it->get<std::string>());
      if (!patch.empty()) return patch;
    }
  }
  return std::nullopt;
}

bool codex_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  const auto patch = codex_patch_of(tool, input_json);
  if (!patch) return false;
  parse_apply_patch(*patch, out);
  return true;
}

std::optional<std::string> codex_shell_command(std::string_view tool, std::string_view input_json) {
  if (!codex_shell_tool(tool)) return std::nullopt;
  return tool_input_command(input_json, {"command", "cmd"});
}

}  // namespace

const ToolEditReading& codex_tool_edits() {
  static const ToolEditReading reading{&codex_edits, &codex_shell_command};
  return reading;
}

}  // namespace csift
