// Clone lineage (SPEC.md §9.1, v0.9.4 ③): a background-job fork copies a whole session file at a compaction
// point, so the copy's first timestamped record is a system/compact_boundary. The origin is the sibling
// session that holds that boundary record itself (uuid match + compact_boundary) anywhere but at its own
// head: a prose quote parses to a different uuid, and a co-clone carries the same boundary as its head.
#pragma once
#include <optional>
#include <string>

#include "core/store/store.h"

namespace csift {

// The id of the session `clone` was copied from, or nullopt when no sibling in its project dir holds the
// boundary record (the origin left the dir). Reads siblings only; paid only for a detected clone.
std::optional<std::string> find_clone_origin(const Transcript& clone, const std::string& boundary_uuid);

}  // namespace csift
