#include "core/harness/gemini_cli/gemini_cli_edits.h"

#include <cinttypes>
#include <cstdio>
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

// read_file (packages/core/src/tools/read-file.ts): `file_path`, v0.10's `absolute_path`.
std::optional<std::string> gemini_read_path(std::string_view tool, std::string_view input_json) {
  if (tool != "read_file") return std::nullopt;
  const nlohmann::json input = parse_stored_object(input_json);
  for (const char* key : {"file_path", "absolute_path"})
    if (std::string path = json_string_at(input, key); !path.empty()) return path;
  return std::nullopt;
}

// What read_file's result shows (read-file.ts and utils/fileUtils.ts processSingleFileContent, v0.10 to
// HEAD): the file's lines joined by '\n' (split at \r?\n); a read of a range, or one with a line longer than
// 2,000 characters, leads with `IMPORTANT: The file content has been truncated.\nStatus: Showing lines A-B of
// T total lines.` and the lines after `--- FILE CONTENT (truncated) ---`, a long line cut to 2,000 characters
// and
// `... [truncated]`. Context gemini-cli discovers for the file's folder is appended after the content (HEAD's
// jit-context.ts). A binary, image or oversized file gives a note, no lines. The window is the lines up to
// the first cut one; the file's length is stated only by the truncated form's header, so an untruncated read
// is a window of unknown length too (its \r are gone: a CRLF file's lines cannot be told from an LF file's).
bool gemini_read_window(std::string_view tool, std::string_view text, ToolReadWindow& out) {
  static constexpr std::string_view kJitOpen = "\n\n--- Newly Discovered Project Context ---\n";
  static constexpr std::string_view kJitClose = "\n--- End Project Context ---";
  static constexpr std::string_view kTruncated =
      "IMPORTANT: The file content has been truncated.\nStatus: Showing lines ";
  static constexpr std::string_view kContent = "--- FILE CONTENT (truncated) ---\n";
  static constexpr std::string_view kNotes[] = {"Cannot display content of", "Could not read",
                                                "File size exceeds",         "Unhandled file type",
                                                "Binary content provided",   "Error reading file"};
  if (tool != "read_file" || text.empty()) return false;
  if (text.ends_with(kJitClose))
    if (const size_t at = text.rfind(kJitOpen); at != std::string_view::npos) text = text.substr(0, at);
  int64_t first = 1, last = 0, total = 0;
  const std::string_view lead = text.starts_with('\n') ? text.substr(1) : text;
  if (lead.starts_with(kTruncated)) {
    // `A-B of T total lines.`
    const std::string_view status = lead.substr(kTruncated.size());
    if (std::sscanf(std::string(status.substr(0, status.find('\n'))).c_str(),
                    "%" SCNd64 "-%" SCNd64 " of %" SCNd64, &first, &last, &total) != 3 ||
        first < 1 || last < first)
      return false;
    const size_t at = text.find(kContent);
    if (at == std::string_view::npos) return false;
    text = text.substr(at + kContent.size());
  } else {
    for (std::string_view note : kNotes)
      if (text.starts_with(note)) return false;
  }
  out = ToolReadWindow{};
  out.start_line = first;
  out.total_lines = total;
  size_t at = 0;
  while (at <= text.size()) {
    if (last && out.num_lines > last - first) break;
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    if (line.ends_with("... [truncated]")) break;  // cut to 2,000 characters
    if (out.num_lines) out.content += '\n';
    out.content.append(line);
    ++out.num_lines;
    at = nl + 1;
  }
  return out.num_lines > 0;
}

}  // namespace

const ToolEditReading& gemini_cli_tool_edits() {
  static const ToolEditReading reading{&gemini_edits, &gemini_shell_command, &gemini_read_path,
                                       &gemini_read_window};
  return reading;
}

}  // namespace csift
