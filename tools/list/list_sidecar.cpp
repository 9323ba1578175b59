#include "tools/list/list_sidecar.h"

#include <filesystem>

#include "core/record/transcript_reader.h"

namespace csift {
namespace {

bool needs_ghost_guard(const SidecarPending& p) {
  return p.kind == "AskUserQuestion" || p.kind == "ExitPlanMode";
}

// The transcript records whose raw line names one of the keys: all the ghost guard needs to see.
std::vector<Record> records_naming(const Transcript& t, const std::vector<std::string>& keys) {
  ReadOptions opts;
  opts.want = [&keys](std::string_view line) {
    for (const auto& key : keys) {
      if (line.find(key) != std::string_view::npos) return true;
    }
    return false;
  };
  return read_transcript(t, opts).records;
}

}  // namespace

SidecarStatus read_sidecar_status(const Transcript& session) {
  SidecarStatus status;
  if (session.is_subagent || session.session_dir_absent || !session.session_dir_may_hold_sidecar())
    return status;
  std::error_code ec;
  status.present = std::filesystem::is_regular_file(sidecar_path(session), ec);
  if (!status.present) return status;
  SidecarMerge merge = read_unresolved_pending(session, {});
  std::vector<std::string> keys;
  for (const auto& p : merge.pending) {
    if (needs_ghost_guard(p)) keys.push_back(p.key);
  }
  if (!keys.empty()) merge = read_unresolved_pending(session, records_naming(session, keys));
  status.pending = std::move(merge.pending);
  status.skipped_lines = merge.skipped_lines;
  return status;
}

}  // namespace csift
