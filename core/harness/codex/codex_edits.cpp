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

// One recorded change: `kind` add / delete / update with its fields (an add's content, an update's diff and
// move target), or nothing for a kind Codex does not write.
void codex_change(const std::string& path, const std::string& kind, const nlohmann::json& fields,
                  const char* diff_key, ToolEdits& out) {
  ToolEdit e;
  e.path = path;
  if (kind == "add") {
    e.kind = ToolEditKind::write;
    e.create = true;
    e.content = json_string_at(fields, diff_key ? diff_key : "content");
  } else if (kind == "delete") {
    e.kind = ToolEditKind::remove;
  } else if (kind == "update") {
    e.kind = ToolEditKind::patch;
    e.unified_diff = json_string_at(fields, diff_key ? diff_key : "unified_diff");
    e.move_to = json_string_at(fields, "move_path");
  } else {
    return;
  }
  if (!e.path.empty()) out.files.push_back(std::move(e));
}

// What Codex recorded a patch changed (protocol FileChange, keyed by path: a patch_apply_end's or a
// FileChange item's `changes`), in each shape it has written: `{"type": "add", "content"}`, `{"type":
// "delete", "content"}`, `{"type": "update", "unified_diff", "move_path"}` (internally tagged, rust-v0.126
// on); the older externally tagged `{"add": {"content"}}`, `{"delete": {}}`, `{"update": {…}}`; and the app
// server's v2 list `[{"path", "kind": {"type", "move_path"}, "diff"}]`, whose `diff` is an add's or a
// delete's content and an update's unified diff.
void codex_changes(const nlohmann::json& changes, ToolEdits& out) {
  if (changes.is_array()) {
    for (const nlohmann::json& c : changes) {
      if (!c.is_object()) continue;
      const auto kind = c.find("kind");
      if (kind == c.end()) continue;
      const std::string k = kind->is_string() ? kind->get<std::string>() : json_string_at(*kind, "type");
      nlohmann::json fields = c;
      if (kind->is_object() && kind->contains("move_path")) fields["move_path"] = (*kind)["move_path"];
      codex_change(json_string_at(c, "path"), k, fields, "diff", out);
    }
    return;
  }
  if (!changes.is_object()) return;
  for (const auto& [path, change] : changes.items()) {
    if (!change.is_object()) continue;
    const std::string kind = json_string_at(change, "type");
    if (kind.empty() && change.size() == 1 && change.begin().value().is_object())
      codex_change(path, change.begin().key(), change.begin().value(), nullptr, out);
    else
      codex_change(path, kind, change, nullptr, out);
  }
}

// apply_patch's own input, or a shell call that runs apply_patch. A shell call that does not is read as its
// command from the same parse (`out.command`), for the Bash reading.
bool codex_edits(std::string_view tool, std::string_view input_json, ToolEdits& out) {
  if (tool == "apply_patch") {
    const nlohmann::json input = parse_stored_object(input_json);
    std::optional<std::string> patch;
    for (const char* key : {"input", "patch"})
      if (!patch && input.contains(key) && input[key].is_string()) patch = input[key].get<std::string>();
    // A call the reader knows only from its end event or FileChange item: its input is what Codex recorded
    // as applied (codex_reader.cpp), never a patch text.
    if (!patch && input.contains("changes") &&
        (input["changes"].is_object() || input["changes"].is_array())) {
      codex_changes(input["changes"], out);
      return true;
    }
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
  codex_changes(parse_stored_object(applied->changes_json), out);
  call_id = applied->call_id;
  return !call_id.empty() && !out.files.empty();
}

}  // namespace

const ToolEditReading& codex_tool_edits() {
  static const ToolEditReading reading{&codex_edits, &codex_shell_command, nullptr, nullptr, &codex_applied};
  return reading;
}

}  // namespace csift
