#include "core/harness/copilot/copilot_edits.h"

#include <nlohmann/json.hpp>

#include "core/harness/apply_patch.h"
#include "core/json/stored_json.h"

namespace csift {

namespace {

bool copilot_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  if (tool == "apply_patch") {  // freeform: the reader keeps the patch text itself as the input
    const nlohmann::json input = parse_stored_json(input_json);
    parse_apply_patch(input.is_object()   ? json_string_at(input, "input")
                      : input.is_string() ? input.get<std::string>()
                                          : std::string(input_json),
                      out);
    return true;
  }
  if (tool != "create" && tool != "edit" && tool != "str_replace_editor") return false;
  const nlohmann::json input = parse_stored_object(input_json);
  std::string command = tool == "str_replace_editor" ? json_string_at(input, "command") : std::string(tool);
  if (command == "str_replace") command = "edit";
  if (command != "create" && command != "edit" && command != "insert") return false;  // view: reads only
  ToolEdit e;
  e.path = json_string_at(input, "path");
  const std::string old_str = json_string_at(input, "old_str");
  if (command == "create") {
    e.kind = ToolEditKind::write;
    e.create = true;
    e.content = json_string_at(input, "file_text");
  } else if (command == "edit" && old_str.empty()) {
    e.kind = ToolEditKind::write;  // only an empty file takes an empty old_str: it becomes new_str
    e.content = json_string_at(input, "new_str");
  } else {
    // insert (after a line number) is not a string edit: an edit with nothing to place it by
    e.kind = ToolEditKind::string_edits;
    if (command == "edit") e.edits.push_back({old_str, json_string_at(input, "new_str")});
  }
  out.files.push_back(std::move(e));
  return true;
}

std::optional<std::string> copilot_shell_command(std::string_view tool, std::string_view input_json) {
  if (tool != "bash") return std::nullopt;
  return tool_input_command(input_json, {"command"});
}

}  // namespace

const ToolEditReading& copilot_tool_edits() {
  static const ToolEditReading reading{&copilot_edits, &copilot_shell_command};
  return reading;
}

}  // namespace csift
