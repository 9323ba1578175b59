// What `stats` answers over its whole scope of counted tallies, through a server's result memo and the disk
// cache: the summary's totals, the records transcripts share (shared_records.h) and, made only as a page
// shows them, the rows. With every tally from memory, matching record keys across the scope (~50 ms for the
// 1,501 transcripts of a 1.1 GiB store), summing the tallies (token ledgers, census maps), building and
// marking rows were most of what a warm stats had left to do; with every tally from the disk, decoding them
// all was most of a fresh server's first stats. So an unbounded stats over an unchanged scope is also
// remembered by the scope's stamps: a fresh server answers it from one disk entry, reading no tally but the
// shown rows'.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/cache/result_memo.h"
#include "core/store/store.h"
#include "tools/stats/remembered_tally.h"
#include "tools/stats/shared_records.h"
#include "tools/stats/stats_tally.h"

namespace csift {

struct StatsScopeFigures {
  std::vector<SharedRecords> shared;  // one per counted transcript: the records its row is marked with
  json summary;                       // the fields StatsTotals::write sets, in its order
  // The summary's first and last instants as the transcripts recorded them: a figure kept on disk has its
  // local times (the reading process's zone) made again from them.
  std::string first_timestamp, last_timestamp;
};

// The figures of `counted` (transcripts in `counted_transcripts`, parallel), remembered for these very
// tallies (the same objects, in the same order) and the transcripts' row inputs: a tally recomputed since
// (its file changed) is another object, so the figures are computed again. A remembered tally answers only
// for its own path, so the same tallies mean the same paths. Remembered in `memo` (the call's result memo;
// null: computed each time).
std::shared_ptr<const StatsScopeFigures> remembered_scope_figures(
    const std::vector<std::shared_ptr<const TranscriptTally>>& counted,
    const std::vector<const Transcript*>& counted_transcripts, ResultMemo* memo, ResultMemoUse& use);

// What an unbounded stats' figures depend on besides the files' bytes, for a scope whose every transcript is
// Claude Code's and was stamped by discovery: which transcripts, in which order (with their turn rule and
// project), and each one's stamp. `identity` names the scope without its stamps (its entry is replaced when
// a file changes); `stamps` stands for every stamp, project and path (two independent 64-bit hashes of
// them). `settled`: every stamp passes the disk cache's racy rule (disk_settled) for the call.
struct ScopeStamps {
  std::string identity;
  FileStamp stamps;
  bool settled = false;
};
std::optional<ScopeStamps> scope_stamps(const std::vector<const Transcript*>& transcripts, int64_t began_ns);

// The figures remembered (in caches.memo, else in caches.disk) for exactly these stamps, or null. A hit
// counts in `use`; a miss does not (the figures are then made through remembered_scope_figures, which
// counts).
std::shared_ptr<const StatsScopeFigures> recalled_scope_figures(const ScopeStamps& stamps,
                                                                const StatsCaches& caches,
                                                                ResultMemoUse& use);
// Remembers figures made from tallies of the files under `stamps` (every tally read without an error): in
// caches.memo, and in caches.disk when every stamp was settled.
void keep_scope_figures(const ScopeStamps& stamps, const std::shared_ptr<const StatsScopeFigures>& figures,
                        const StatsCaches& caches, ResultMemoUse& use);

// The figures as the disk cache keeps them, and back (nullopt for bytes that are not such figures: the blob
// is untrusted). A decoded summary's local times are made in this process's zone.
std::string encode_scope_figures(const StatsScopeFigures& f);
std::optional<StatsScopeFigures> decode_scope_figures(std::string_view blob);

// The transcripts the figures count, in their order, and their tallies when the call holds them (otherwise
// a shown row takes its transcript's tally through remembered_tally, from memory or the disk).
struct StatsRowSources {
  std::vector<const Transcript*> transcripts;
  std::vector<std::shared_ptr<const TranscriptTally>> tallies;  // empty, or parallel to transcripts
};

// Puts the figures on a stats answer: the summary's fields, and the rows deferred (Envelope::deferred): a
// row is made (or copied from the memo) and marked only when a page shows it. `keep_alive` holds what the
// sources point into (the scope) until the rows are made. A row and a fetched tally go through `caches` (the
// call's; the process's caches outlive every call's rows).
void apply_scope_figures(std::shared_ptr<const StatsScopeFigures> figures,
                         std::shared_ptr<const StatsRowSources> sources, const StatsCaches& caches,
                         std::shared_ptr<ResultMemoUse> use, std::shared_ptr<const void> keep_alive,
                         Envelope& env);

}  // namespace csift
