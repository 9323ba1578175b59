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
// The working directory `<project>/.project_root` names for a chats/session-*.jsonl (a regular file of at
// most 4 KiB, its text with blanks around it taken off), "" when unreadable or not absolute.
std::string gemini_project_root(const std::string& session_path);
// The session's store metadata: gemini_project_root of its log.
SessionMeta gemini_cli_session_meta(const Transcript& t);

}  // namespace csift
