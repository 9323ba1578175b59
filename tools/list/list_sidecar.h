// What `list` reports about a session's elicitation sidecar (SPEC.md §9.1; the sidecar itself is the seed's
// §6.10): whether the hook's file exists (the tri-state "is this session blocked on a human?") and which
// elicitations are still pending.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/store/elicitation_sidecar.h"
#include "core/store/store.h"

namespace csift {

struct SidecarStatus {
  bool present = false;                 // the sidecar file exists: the hook is installed
  std::vector<SidecarPending> pending;  // unresolved markers with no native record
  uint64_t skipped_lines = 0;           // malformed sidecar lines
};

// Reads a top-level session's sidecar without scanning the transcript: only when an AskUserQuestion or
// ExitPlanMode marker is still open are the transcript lines naming its key read, for the ghost guard
// (a native tool_use / tool_result with that id means CC already wrote the real record).
SidecarStatus read_sidecar_status(const Transcript& session);

}  // namespace csift
