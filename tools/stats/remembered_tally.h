// One transcript's `stats` tally through a server's result memo (core/cache/result_memo.h): a repeated
// `stats` over an unchanged transcript takes its tally from memory instead of reading the file whole.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/cache/result_memo.h"
#include "tools/stats/stats_tally.h"

namespace csift {

class DiskCache;

// The caches a `stats` call reaches through its context (ToolContext::result_memo and disk_cache): each null
// when the process has none (the CLI has no memo).
struct StatsCaches {
  ResultMemo* memo = nullptr;
  DiskCache* disk = nullptr;
};

// tally_transcript(t, window, cancel), remembered in `caches.memo` per (path, window signature) while the
// file is unchanged; an unbounded tally of a file that only grew since is extended over the appended lines
// (result_memo's `extended`), and an unbounded tally is also kept in `caches.disk`. Only a Claude Code
// transcript's tally is remembered (another harness's transcript may be one session of a shared database),
// and only one that read the file without an error and was not cancelled.
std::shared_ptr<const TranscriptTally> remembered_tally(const Transcript& t, const StatsWindow& window,
                                                        const CancelToken* cancel, const StatsCaches& caches,
                                                        ResultMemoUse& use);

// Everything a tally depends on besides the file's bytes: the time window's bounds, the turn range, and
// whether the transcript is a subagent's (which sets the turn rule's foreign lane).
std::string tally_signature(const Transcript& t, const StatsWindow& window);

// A tally as the disk cache keeps it (core/cache/disk_cache.h; its `error` is empty, its fold not kept), and
// back: nullopt for bytes that are not one (bounds-checked: the blob is untrusted).
std::string encode_tally(const TranscriptTally& t);
std::optional<TranscriptTally> decode_tally(std::string_view blob);

// What a remembered tally costs: its census maps, record keys and per-message token ledger dominate.
size_t tally_memo_cost(const TranscriptTally& tally);

}  // namespace csift
