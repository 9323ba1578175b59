#include "core/harness/opencode/opencode_edits.h"

#include <nlohmann/json.hpp>

#include "core/harness/apply_patch.h"
#include "core/json/stored_json.h"

namespace csift {

namespace {

ToolStringEdit opencode_string_edit(const nlohmann::json& e) {
  return {json_string_at(e, "oldString"), json_string_at(e, "newString"),
          e.value("replaceAll", false) == true};
}

bool opencode_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  if (tool != "write" && tool != "edit" && tool != "multiedit" && tool != "apply_patch") return false;
  const nlohmann::json input = parse_stored_object(input_json);
  if (tool == "apply_patch") {
    parse_apply_patch(json_string_at(input, "patchText"), out);
    return true;
  }
  ToolEdit e;
  e.path = json_string_at(input, "filePath");
  if (tool == "write") {
    e.kind = ToolEditKind::write;
    e.content = json_string_at(input, "content");
  } else if (tool == "edit" && json_string_at(input, "oldString").empty()) {
    e.kind = ToolEditKind::write;
    e.content = json_string_at(input, "newString");
  } else {
    e.kind = ToolEditKind::string_edits;
    if (tool == "edit") {
      e.edits.push_back(opencode_string_edit(input));
    } else if (input.contains("edits") && input["edits"].is_array()) {
      for (const nlohmann::json& one : input["edits"])
        if (one.is_object()) e.edits.push_back(opencode_string_edit(one));
    }
  }
  out.files.push_back(std::move(e));
  return true;
}

std::optional<std::string> opencode_shell_command(std::string_view tool, std::string_view input_json) {
  if (tool != "bash" && tool != "shell") return std::nullopt;
  return tool_input_command(input_json, {"command"});
}

}  // namespace

const ToolEditReading& opencode_tool_edits() {
  static const ToolEditReading reading{&opencode_edits, &opencode_shell_command};
  return reading;
}

}  // namespace csift
