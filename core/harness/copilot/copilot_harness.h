// Copilot CLI (`copilot`): <copilot home>/session-state/<session id>/events.jsonl, one event per line, with
// workspace.yaml beside it naming the working directory.
#pragma once
#include <string_view>

#include "core/harness/harness_entry.h"

namespace csift {

inline constexpr std::string_view kCopilotHarness = harness_name(HarnessId::copilot);

HarnessEntry copilot_harness();
const TranscriptReader& copilot_reader();
void list_copilot_store(const StoreRoot& root, StoreListing& out);
// The working directory the workspace.yaml beside events.jsonl names (a regular file of at most 64 KiB): the
// first absolute value of a line starting `cwd:` or holding a `"cwd":` member, with blanks, trailing commas
// and one pair of matching quotes taken off ("" when none).
std::string copilot_workspace_cwd(const std::string& events_path);
// The session's store metadata: copilot_workspace_cwd of its events.jsonl.
SessionMeta copilot_session_meta(const Transcript& t);

}  // namespace csift
