// --resolve-persisted's read of a saved tool result (search_persisted.cpp), which the searcher's matcher
// (searcher.cpp) searches in place of the pointer.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/harness/claude_code/classify.h"
#include "core/record/record.h"

namespace csift {

// The largest persisted output --resolve-persisted reads (the record limit: a bigger file is reported).
inline constexpr uint64_t kMaxPersistedBytes = uint64_t{64} << 20;

// --resolve-persisted: the content of the file a <persisted-output> tool result (or an MCP result's "Output
// has been saved to <path>.") points at, or nullopt with `*note` saying why it could not be read and
// `*refused` whether a file was there that was not read (outside the Claude home, not regular, too large,
// unreadable) rather than missing. Only a regular file inside the Claude home (the parent of `projects_root`,
// symlinks resolved) is opened, non-blocking and bounded by kMaxPersistedBytes. Only called for a unit whose
// text carries a pointer.
std::optional<std::string> resolve_persisted_output(const Record& r, const Unit& u,
                                                    const std::string& projects_root, std::string* note,
                                                    bool* refused);

}  // namespace csift
