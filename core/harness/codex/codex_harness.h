// Codex (`codex`): rollouts under <codex home>/sessions/YYYY/MM/DD/ and <codex home>/archived_sessions/,
// one JSON entry per line (session_meta, turn_context, response_item, event_msg, compacted).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "core/harness/harness_entry.h"

namespace csift {

inline constexpr std::string_view kCodexHarness = harness_name(HarnessId::codex);

HarnessEntry codex_harness();
const TranscriptReader& codex_reader();
// The session id a rollout's file name carries (`rollout-<YYYY-MM-DDTHH-MM-SS>-<id>.jsonl`), else the stem.
std::string codex_session_id_of(std::string_view file_name);
void list_codex_store(const StoreRoot& root, StoreListing& out);
// The rollout's first line read alone (at most 1 MiB, ending in a newline), a `session_meta` entry whose
// payload may name the working directory (`cwd`, kept when absolute); any other first line is unreadable
// metadata.
SessionMeta codex_session_meta(const Transcript& t);
// A rollout's first line, plain or compressed (from the decompressed stream): the one read of it that the
// session_meta gate and `agents`' thread index share. nullopt when the file holds no complete first line
// within 1 MiB.
std::optional<std::string> codex_first_line(const std::string& path);

}  // namespace csift
