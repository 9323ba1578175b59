// Gemini CLI's file-changing calls onto the shared edit model (core/harness/tool_edits.h): `write_file`
// (`file_path`, `content`: the whole file) and `replace` (`file_path`, `old_string`, `new_string`,
// `expected_replacements`: that many occurrences, each replaced; an empty old string creates the file), as
// google-gemini/gemini-cli's packages/core/src/tools/write-file.ts and edit.ts (v0.40) define them; the shell
// tool is `run_shell_command` (`command`).
#pragma once
#include "core/harness/tool_edits.h"

namespace csift {

const ToolEditReading& gemini_cli_tool_edits();

}  // namespace csift
