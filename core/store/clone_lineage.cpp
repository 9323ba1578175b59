#include "core/store/clone_lineage.h"

#include "core/record/transcript_reader.h"

namespace csift {
namespace {

enum class SiblingVerdict { origin, not_origin };

// Reads one sibling up to the boundary record, noting whether it sits at the sibling's own head (its first
// timestamped record), which makes the sibling a co-clone rather than the origin.
SiblingVerdict examine_sibling(const Transcript& sibling, const std::string& boundary_uuid) {
  bool head_seen = false;  // the sibling's first timestamped record has gone by
  SiblingVerdict verdict = SiblingVerdict::not_origin;
  ReadOptions opts;
  opts.sequential =
      true;  // the head state decides which lines are wanted, and the read stops at the boundary
  opts.want = [&](std::string_view line) {
    return !head_seen || line.find(boundary_uuid) != std::string_view::npos;
  };
  for_each_record(sibling, opts, [&](Record&& r) {
    const bool is_head = !head_seen && !r.timestamp.empty();
    if (!r.timestamp.empty()) head_seen = true;
    if (r.uuid != boundary_uuid || r.type != "system" || r.subtype != "compact_boundary") return true;
    if (!is_head)
      verdict = SiblingVerdict::origin;  // at the head it is a co-clone: the same boundary opens it
    return false;
  });
  return verdict;
}

}  // namespace

std::optional<std::string> find_clone_origin(const Transcript& clone, const std::string& boundary_uuid) {
  if (boundary_uuid.empty() || clone.project_dir.empty()) return std::nullopt;
  for (const Transcript& sibling : list_sessions(clone.project_dir)) {
    if (sibling.path == clone.path) continue;
    if (examine_sibling(sibling, boundary_uuid) == SiblingVerdict::origin) return sibling.id;
  }
  return std::nullopt;
}

}  // namespace csift
