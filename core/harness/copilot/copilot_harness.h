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
// The top-level `cwd:` scalar (or JSON member) of the workspace.yaml beside events.jsonl ("" when none).
std::string copilot_workspace_cwd(const std::string& events_path);

}  // namespace csift
