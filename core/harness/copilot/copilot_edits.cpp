#include "core/harness/copilot/copilot_edits.h"

#include <nlohmann/json.hpp>
#include <vector>

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

// view (`path`, `view_range`), and str_replace_editor's `view` command.
std::optional<std::string> copilot_read_path(std::string_view tool, std::string_view input_json) {
  if (tool != "view" && tool != "str_replace_editor") return std::nullopt;
  const nlohmann::json input = parse_stored_object(input_json);
  if (tool == "str_replace_editor" && json_string_at(input, "command") != "view") return std::nullopt;
  std::string path = json_string_at(input, "path");
  return path.empty() ? std::nullopt : std::optional<std::string>(std::move(path));
}

// What view's result shows of a file (@github/copilot 1.0.52 app.js): each line `N. <text>`, numbered from
// the range's start, joined by '\n', the last line's own \r dropped; a view cut short ends with an `[Output
// truncated. …]` note after a blank line; a directory is a listing of names. The window is the numbered lines
// from the first, consecutive; the last is left out when anything follows them (a cut may have shortened it)
// or when the lines before it end in \r (a CRLF file: it lost its \r). The file's length is never stated.
bool copilot_read_window(std::string_view tool, std::string_view text, ToolReadWindow& out) {
  if (tool != "view" && tool != "str_replace_editor") return false;
  out = ToolReadWindow{};
  std::vector<std::string_view> lines;
  int64_t expect = 0;
  size_t at = 0;
  bool complete = true;  // every line of the text was a numbered line
  while (at < text.size()) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    const size_t digits = line.find_first_not_of("0123456789");
    if (digits == 0 || digits == std::string_view::npos || digits > 12 || line.substr(digits, 2) != ". ") {
      complete = false;
      break;
    }
    const int64_t n = std::stoll(std::string(line.substr(0, digits)));
    if ((expect && n != expect) || n < 1) {
      complete = false;
      break;
    }
    if (!expect) out.start_line = n;
    expect = n + 1;
    lines.push_back(line.substr(digits + 2));
    at = nl + 1;
  }
  const bool crlf = lines.size() > 1 && lines[lines.size() - 2].ends_with('\r');
  if (!lines.empty() && (!complete || crlf)) lines.pop_back();
  for (std::string_view l : lines) {
    if (out.num_lines++) out.content += '\n';
    out.content.append(l);
  }
  return out.num_lines > 0;
}

}  // namespace

const ToolEditReading& copilot_tool_edits() {
  static const ToolEditReading reading{&copilot_edits, &copilot_shell_command, &copilot_read_path,
                                       &copilot_read_window};
  return reading;
}

}  // namespace csift
