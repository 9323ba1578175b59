// Codex's file-changing calls onto the shared edit model (core/harness/tool_edits.h): `apply_patch` as a
// custom tool (freeform input), a function tool (`{"input": patch}`) or run through a shell tool (an argv
// `["apply_patch", patch]`, or `apply_patch <<'EOF'` in a script); and the shell tools whose command the
// Bash reading takes (`shell`, `container.exec`, `local_shell`, `shell_command`, `exec_command`).
#pragma once
#include "core/harness/tool_edits.h"

namespace csift {

const ToolEditReading& codex_tool_edits();

}  // namespace csift
