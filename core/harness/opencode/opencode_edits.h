// OpenCode's file-changing tool parts onto the shared edit model (core/harness/tool_edits.h), OpenCode 1 and
// 2 alike (sst/opencode packages/opencode/src/tool/{edit,write,multiedit,apply_patch}.ts): `write`
// (`filePath`, `content`), `edit` (`filePath`, `oldString`, `newString`, `replaceAll`; an empty old string
// writes the new one as the whole file), `multiedit` (`filePath`, `edits`: each an edit's fields) and
// `apply_patch` (`patchText`, Codex's grammar). The shell tool is `bash` (OpenCode 2: `shell`).
#pragma once
#include "core/harness/tool_edits.h"

namespace csift {

const ToolEditReading& opencode_tool_edits();

}  // namespace csift
