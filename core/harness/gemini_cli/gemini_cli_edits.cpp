#include "core/harness/gemini_cli/gemini_cli_edits.h"

#include <nlohmann/json.hpp>

#include "core/json/stored_json.h"

namespace csift {

namespace {

bool gemini_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  if (tool != "write_file" && tool != "replace") return false;
  const nlohmann::json input = parse_stored_object(input_json);
  ToolEdit e;
  e.path = json_string_at(input, "file_path");
  if (tool == "write_file") {
    e.kind = ToolEditKind::write;
    e.content = json_string_at(input, "content");
  } else if (json_string_at(input, "old_string").empty()) {
    e.kind = ToolEditKind::write;  // Gemini CLI creates the file with the new string (refused if it exists)
    e.create = true;
    e.content = json_string_at(input, "new_string");
  } else {
    e.kind = ToolEditKind::string_edits;
    ToolStringEdit s{json_string_at(input, "old_string"), json_string_at(input, "new_string")};
    const auto n = input.find("expected_replacements");
    s.expected = n != input.end() && n->is_number_integer() && n->get<int64_t>() > 0 ? n->get<int64_t>() : 1;
    e.edits.push_back(std::move(s));
  }
  out.files.push_back(std::move(e));
  return true;
}

std::optional<std::string> gemini_shell_command(std::string_view tool, std::string_view input_json) {
  if (tool != "run_shell_command") return std::nullopt;
  return tool_input_command(input_json, {"command"});
}

}  // namespace

const ToolEditReading& gemini_cli_tool_edits() {
  static const ToolEditReading reading{&gemini_edits, &gemini_shell_command};
  return reading;
}

}  // namespace csift
