// Reads and classifies one transcript for `search`: the same model as load_classified_transcript, but the
// reader's `want` declines the lines a label gate refuses (attachments, queue operations, snapshots). Every
// other line is parsed, so turn indices, tool names and the pairing index are exact and a hit's round-trip
// partners are present. A session with an elicitation sidecar is read whole (the ghost guard needs every
// native tool id).
#include <sys/stat.h>

#include <functional>
#include <string_view>

#include "core/error.h"
#include "tools/search_scan.h"

namespace csift {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

bool has_sidecar(const Transcript& t) {
  return !t.is_subagent && file_exists(sidecar_path(t));
}

ClassifiedTranscript load_for_search(const Transcript& t, const SearchPrefilter& pf,
                                     const CancelToken* cancel) {
  // A session with an elicitation sidecar is read whole: the ghost guard needs every native tool id.
  const bool sidecar = has_sidecar(t);
  std::function<bool(std::string_view)> want;
  if (!sidecar) want = [&pf](std::string_view line) { return pf.label_candidate(line); };
  return load_classified_transcript(t, /*merge_sidecar=*/sidecar, cancel, want);
}

}  // namespace csift
