// The Codex rule for a digest excerpt (SPEC.md §13.2): an exec_command output opens with a header Codex
// writes (`Chunk ID: …`, `Wall time: …`, `Process exited with code N`, `Original token count: …`, then a line
// `Output:`); the excerpt starts after it, so its bytes hold what the command printed. The record keeps the
// text verbatim; only the excerpt skips the header, and the exit code in it is read by the reader.
#pragma once
#include <string_view>

namespace csift {

// `text` after Codex's exec output header, when it opens with one made only of the lines Codex writes there
// and the command printed something after it; otherwise `text` unchanged.
std::string_view codex_excerpt_body(std::string_view text);

}  // namespace csift
