// One scan for every file a `recover` call names (SPEC.md §9.13): each transcript of the scope is screened
// for the files' basenames and, when one is there, read once for all of them; then each file's events are put
// in transcript order, cut to the call's window and cutoff, and replayed.
#pragma once
#include <string>
#include <vector>

#include "core/mutations/content_events.h"
#include "core/store/targets.h"
#include "tools/common/tool.h"
#include "tools/recover/recover_request.h"
#include "tools/recover/replay.h"

namespace csift {

struct ScopeContent {
  std::vector<TranscriptContent> per_transcript;  // parallel to scope.transcripts
  uint64_t screened_out = 0, parsed = 0, skipped_lines = 0;
  std::vector<std::string> read_errors;
};

ScopeContent scan_scope_content(const Scope& scope, const std::vector<std::string>& files, ToolContext& ctx);

struct OpaqueInWindow {
  const OpaqueCommand* command = nullptr;
  const Transcript* transcript = nullptr;
};

struct FileRecovery {
  std::string path;
  ReplayResult replay;
  uint64_t events_in_scope = 0;        // content and boundary events found for the file, before any window
  uint64_t events_outside = 0;         // left out by turn / since / until / the cutoff
  std::vector<OpaqueInWindow> opaque;  // opaque commands from the file's first event on, in its transcripts
  std::string first_timestamp;         // of the first replayed event ("" when none)
  std::vector<std::string> sessions;   // owning top-level sessions with events for the file
};

FileRecovery recover_file(size_t target, const std::string& path, const Scope& scope,
                          const ScopeContent& content, const RecoverRequest& req);

}  // namespace csift
