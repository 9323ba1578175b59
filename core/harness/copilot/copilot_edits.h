// Copilot CLI's file-changing calls onto the shared edit model (core/harness/tool_edits.h), as
// @github/copilot 1.0.40 defines them (app.js): `create` (`path`, `file_text`: a new file), `edit` (`path`,
// `old_str`, `new_str`: exactly one occurrence replaced; an empty old string fills an empty file), the older
// `str_replace_editor` (`command` create / str_replace / insert), and `apply_patch` (a freeform tool taking
// Codex's patch grammar). The shell tool is `bash` (`command`).
#pragma once
#include "core/harness/tool_edits.h"

namespace csift {

const ToolEditReading& copilot_tool_edits();

}  // namespace csift
