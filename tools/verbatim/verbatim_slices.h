// Chunking the verbatim document for hook injection (SPEC.md §9.8): a Claude Code SessionStart hook injects
// at most 10,000 characters, so the document is cut into chunks of at most `window` characters (code
// points). Cuts fall between lines; a line longer than the window is split on a character boundary.
// Concatenating the chunks in order gives the document back byte for byte.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// Greedy from the start: each chunk takes whole lines while they fit.
std::vector<std::string> pack_forward(std::string_view document, size_t window);
// Greedy from the end (the fixed fleet): the last chunk is filled with the newest blocks, then the one
// before. Each block is a run of whole lines; a block longer than the window is split like a long line.
std::vector<std::string> pack_from_end(const std::vector<std::string>& blocks, size_t window);

}  // namespace csift
