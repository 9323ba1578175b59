// Where a writing tool (image's and recover's `out`, export's `to`) may write: anywhere but the transcript
// store. csift-mcp only ever reads a store, so the rule, its path cleaning and its refusal's wording live
// here once.
#pragma once

#include <filesystem>
#include <string>

namespace csift {

// `p` made absolute, with the symlinks of its existing part resolved (so a link into the store is seen as
// the store), lexically normal when nothing of it exists.
std::filesystem::path clean_absolute_path(const std::string& p);

// Empty when `dest` (already cleaned) lies outside the Claude home `claude_home`; else the message refusing
// argument `arg` given as `given`. An empty home refuses nothing.
std::string store_write_refusal(const std::string& arg, const std::string& given,
                                const std::filesystem::path& dest, const std::string& claude_home);

}  // namespace csift
