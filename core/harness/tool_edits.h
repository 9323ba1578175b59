// The one model of "what a file-changing tool call asks for" that every harness but Claude Code maps its own
// edit tools onto (SPEC.md §9.7, §9.13): a whole-file write, string replacements, a patch's context-anchored
// chunks (Codex's apply_patch grammar), a delete or a move. Each harness folder has a `<name>_edits.cpp`
// that reads its tool_use blocks (the harness's own tool name and the raw input JSON its reader keeps) into
// this model, reached through `HarnessEntry::tool_edits`; core/mutations (files, recover) then joins the call
// to its result, resolves the paths and replays the content the same way for every harness. Claude Code's own
// tools (Edit / Write / MultiEdit / NotebookEdit / Bash) keep their reading in core/mutations, whose results
// carry more (toolUseResult's structuredPatch and originalFile) than this model holds.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/record.h"

namespace csift {

enum class ToolEditKind {
  write,         // `content` is the whole file afterwards (created or overwritten)
  string_edits,  // `edits`, each applied to the text the ones before it left
  patch,         // `chunks`, placed by their context lines (apply_patch's Update File), optionally then moved
  remove,        // the file is deleted
};

// One string replacement. `expected` > 0 (Gemini CLI's expected_replacements): the old text must occur
// exactly that many times and every occurrence is replaced; 0: it must occur once, unless `replace_all`.
struct ToolStringEdit {
  std::string old_string, new_string;
  bool replace_all = false;
  int64_t expected = 0;
};

// One chunk of an apply_patch Update File: the `@@ <context>` line it is sought after (empty: none), the
// lines it replaces (context and `-` lines) and the lines that replace them (context and `+` lines), and
// whether it is anchored at the file's end (`*** End of File`).
struct PatchChunk {
  std::string context;
  std::vector<std::string> old_lines, new_lines;
  bool end_of_file = false;
};

struct ToolEdit {
  ToolEditKind kind = ToolEditKind::write;
  std::string path;     // as the call spells it (resolved by core/mutations/paths.h against the call's cwd)
  std::string move_to;  // patch: the path the file is moved to afterwards ("" when none)
  std::string content;  // write
  std::vector<ToolStringEdit> edits;
  std::vector<PatchChunk> chunks;
  bool create = false;  // the call only creates (apply_patch's Add File, Copilot's create)
  // patch, as the harness logged it applied (Codex's patch_apply_end): a unified diff with line numbers
  std::string unified_diff;
};

// What one call asks to change. `error` is set when the tool is an edit tool but its input cannot be read
// (a patch that does not parse): the harness refuses such a call, so a successful result contradicts it.
struct ToolEdits {
  std::vector<ToolEdit> files;
  std::string error;
  // A shell call `edits` parsed and found no edit in (Codex's shell tools may run apply_patch): its command,
  // read from that one parse, so the caller does not ask `shell_command` to parse the input again.
  std::optional<std::string> command;
};

// What a file-reading call's result shows of the file: its lines from `start_line` on, `num_lines` of them,
// joined by '\n' in `content`; `total_lines` the file's line count when the result states it (0: unknown).
struct ToolReadWindow {
  int64_t start_line = 1, num_lines = 0, total_lines = 0;
  std::string content;
};

// How one harness's tool calls read as file changes, shell commands and file reads. Each function sees the
// tool_use block's name and its input JSON as the reader keeps it (a read's window: its result's text).
struct ToolEditReading {
  // True when `tool` is one of the harness's file-editing tools (then `out` holds what it asks for).
  bool (*edits)(std::string_view tool, std::string_view input_json, ToolEdits& out) = nullptr;
  // The command text of one of the harness's shell tools, else nullopt.
  std::optional<std::string> (*shell_command)(std::string_view tool, std::string_view input_json) = nullptr;
  // The path one of the harness's file-reading tools reads (as the call spells it), else nullopt.
  std::optional<std::string> (*read_path)(std::string_view tool, std::string_view input_json) = nullptr;
  // The lines a successful read's result text shows, numbered as in the file; false when it shows none the
  // replay can place (a directory listing, a note about a binary file, an empty result).
  bool (*read_window)(std::string_view tool, std::string_view result_text, ToolReadWindow& out) = nullptr;
  // What a record says a call applied, when the harness logs that apart from the call's input (Codex's
  // patch_apply_end): the call's id and, per file, what it became — a write's content, a delete, an update's
  // applied diff (`unified_diff`). False when the record says nothing of the kind.
  bool (*applied)(const Record& r, std::string& call_id, ToolEdits& out) = nullptr;
};

// A shell call's command: the string at one of `keys`, or an argv array joined with each word single-quoted
// when it needs quoting (so the Bash reading sees the words the harness ran).
std::optional<std::string> tool_input_command(std::string_view input_json,
                                              std::initializer_list<std::string_view> keys);
// The same of an input already parsed.
std::optional<std::string> tool_command_of(const nlohmann::json& input,
                                           std::initializer_list<std::string_view> keys);

}  // namespace csift
