// Codex's apply_patch grammar (codex-rs/apply-patch/src/parser.rs, openai/codex at rust-v0.126), which
// OpenCode's apply_patch tool also takes:
//
//   *** Begin Patch
//   *** Add File: <path>          then every line `+<text>` (the file is those lines, each ending in '\n')
//   *** Delete File: <path>
//   *** Update File: <path>
//   *** Move to: <path>           (optional) the updated file is then moved
//   @@ [<context line>]           a chunk, sought after that line; ' ' context, '-' old, '+' new lines
//   *** End of File               (optional) the chunk before it is anchored at the file's end
//   *** End Patch
//
// Parsed leniently as Codex does: surrounding whitespace, and a heredoc wrapper (`<<'EOF'` … `EOF`) around
// the patch; the first chunk of an update may omit its `@@` line. The apply side (placing chunks on a known
// file's lines) is the replay's (tools/recover/replay.cpp, `apply_patch_chunks`).
#pragma once
#include <string>
#include <string_view>

#include "core/harness/tool_edits.h"

namespace csift {

// Parses a patch into one ToolEdit per file hunk (write for Add File, remove for Delete File, patch for
// Update File). On a malformed patch `out.error` says why and `out.files` is left empty.
void parse_apply_patch(std::string_view text, ToolEdits& out);

// The patch of a shell script that is one `apply_patch` (or `applypatch`) heredoc: `apply_patch <<'EOF'\n
// <patch>\nEOF`, the delimiter any word, bare or quoted, nothing after its closing line. Empty for any other
// script — one that runs something first (`cd <dir> && apply_patch …`, whose paths are the dir's) included.
// An argv `["apply_patch", "<patch>"]` is the caller's to read (core/harness/codex/codex_edits.cpp).
std::string apply_patch_in_command(std::string_view command);

}  // namespace csift
