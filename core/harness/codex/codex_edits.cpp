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

// The patch of a shell call's input (already parsed): an argv `["apply_patch", patch]` or an `apply_patch`
// script at `command` / `cmd`.
std::optional<std::string> codex_shell_patch(const nlohmann::json& input) {
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

// apply_patch's own input, or a shell call that runs apply_patch. A shell call that does not is read as its
// command from the same parse (`out.command`), for the Bash reading.
bool codex_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  if (tool == "apply_patch") {
    const nlohmann::json input = parse_stored_object(input_json);
    std::optional<std::string> patch;
    for (const char* key : {"input", "patch"})
      if (!patch && input.contains(key) && input[key].is_string()) patch = input[key].get<std::string>();
    parse_apply_patch(patch ? *patch : input_json, out);
    return true;
  }
  if (!codex_shell_tool(tool)) return false;
  const nlohmann::json input = parse_stored_object(input_json);
  if (const auto patch = codex_shell_patch(input)) {
    parse_apply_patch(*patch, out);
    return true;
  }
  out.command = tool_command_of(input, {"command", "cmd"});
  return false;
}

std::optional<std::string> codex_shell_command(std::string_view tool, std::string_view input_json) {
  if (!codex_shell_tool(tool)) return std::nullopt;
  return tool_input_command(input_json, {"command", "cmd"});
}

// patch_apply_end's changes (CodexAppliedPatch), one ToolEdit per path.
bool codex_applied(const Record& r, std::string& call_id, ToolEdits& out) {
  const auto* applied = r.harness_fields.get<CodexAppliedPatch>();
  if (!applied) return false;
  const nlohmann::json changes = parse_stored_object(applied->changes_json);
  for (const auto& [path, change] : changes.items()) {
    if (!change.is_object()) continue;
    // {"type": kind, ...fields} or, older, {kind: {...fields}}
    std::string kind = json_string_at(change, "type");
    const nlohmann::json* fields = &change;
    if (kind.empty() && change.size() == 1 && change.begin().value().is_object()) {
      kind = change.begin().key();
      fields = &change.begin().value();
    }
    ToolEdit e;
    e.path = path;
    if (kind == "add") {
      e.kind = ToolEditKind::write;
      e.create = true;
      e.content = json_string_at(*fields, "content");
    } else if (kind == "delete") {
      e.kind = ToolEditKind::remove;
    } else if (kind == "update") {
      e.kind = ToolEditKind::patch;
      e.unified_diff = json_string_at(*fields, "unified_diff");
      e.move_to = json_string_at(*fields, "move_path");
    } else {
      continue;
    }
    out.files.push_back(std::move(e));
  }
  call_id = applied->call_id;
  return !call_id.empty() && !out.files.empty();
}

}  // namespace

const ToolEditReading& codex_tool_edits() {
  static const ToolEditReading reading{&codex_edits, &codex_shell_command, nullptr, nullptr, &codex_applied};
  return reading;
}

}  // namespace csift
