#include "core/harness/claude_code/clone_lineage.h"

#include "core/harness/claude_code/record_parser.h"
#include "core/record/record.h"
#include "core/scan/line_scanner.h"

namespace csift {
namespace {

enum class SiblingVerdict { origin, not_origin };

// Scans one sibling for the boundary record, noting whether it sits at the sibling's own head (its first
// timestamped record), which makes the sibling a co-clone rather than the origin.
SiblingVerdict examine_sibling(const std::string& path, const std::string& boundary_uuid,
                               RecordParser& parser) {
  bool head_seen = false;  // the sibling's first timestamped record has gone by
  SiblingVerdict verdict = SiblingVerdict::not_origin;
  LineScanner scanner(64 * 1024);
  scanner.scan_lines(path, [&](const LineView& view) {
    const bool mentions = view.bytes.find(boundary_uuid) != std::string_view::npos;
    if (head_seen && !mentions) return true;
    Record r;
    if (parser.parse(view.bytes, r) != ParseStatus::ok) return true;
    const bool is_head = !head_seen && !r.timestamp.empty();
    if (!r.timestamp.empty()) head_seen = true;
    if (!mentions || r.uuid != boundary_uuid || r.type != "system" || r.subtype != "compact_boundary")
      return true;
    if (is_head) return false;  // a co-clone: the same boundary opens it
    verdict = SiblingVerdict::origin;
    return false;
  });
  return verdict;
}

}  // namespace

std::optional<std::string> find_clone_origin(const Transcript& clone, const std::string& boundary_uuid) {
  if (boundary_uuid.empty() || clone.project_dir.empty()) return std::nullopt;
  RecordParser parser;
  for (const Transcript& sibling : list_sessions(clone.project_dir)) {
    if (sibling.path == clone.path) continue;
    if (examine_sibling(sibling.path, boundary_uuid, parser) == SiblingVerdict::origin) return sibling.id;
  }
  return std::nullopt;
}

}  // namespace csift
