// Gemini CLI (`gemini-cli`): <gemini dir>/tmp/<project>/chats/session-*.jsonl, a metadata line then one
// message (or a `$set` / `$rewindTo` / `$patch` update) per line; <project>/.project_root names the
// working directory.
#pragma once
#include <string_view>

#include "core/harness/harness_entry.h"

namespace csift {

inline constexpr std::string_view kGeminiCliHarness = harness_name(HarnessId::gemini_cli);

HarnessEntry gemini_cli_harness();
const TranscriptReader& gemini_cli_reader();
void list_gemini_cli_store(const StoreRoot& root, StoreListing& out);
// The working directory `<project>/.project_root` names for a chats/session-*.jsonl ("" when unreadable).
std::string gemini_project_root(const std::string& session_path);

}  // namespace csift
