// Codex's file-changing calls onto the shared edit model (core/harness/tool_edits.h): `apply_patch` as a
// custom tool (freeform input), a function tool (`{"input": patch}`) or run through a shell tool (an argv
// `["apply_patch", patch]`, or `apply_patch <<'EOF'` in a script); and the shell tools whose command the
// Bash reading takes (`shell`, `container.exec`, `local_shell`, `shell_command`, `exec_command`). A
// patch_apply_end's `changes` (what the call applied) ride on its record (CodexAppliedPatch) for `applied`.
#pragma once
#include <memory>
#include <string>

#include "core/harness/tool_edits.h"

namespace csift {

const ToolEditReading& codex_tool_edits();

// The `changes` of a patch_apply_end that succeeded (JSON as the log holds it), kept on the event's record by
// the reader: per path `{"type": "add", "content"}`, `{"type": "delete", "content"}` or `{"type": "update",
// "unified_diff", "move_path"}` (codex-rs protocol FileChange; releases before the internally tagged form
// wrote `{"add": {"content"}}` and so on).
struct CodexAppliedPatch final : HarnessFields {
  std::string call_id;
  std::string changes_json;
  std::unique_ptr<HarnessFields> clone() const override { return std::make_unique<CodexAppliedPatch>(*this); }
};

}  // namespace csift
