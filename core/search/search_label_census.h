// The label census a server remembers per transcript (issue 17): what a dense classification said about
// each record's labels, its turn and its draft and lane flags — enough to answer an empty-pattern `-c` or
// `-l` search under any label filter without reading the transcript again. SPEC.md §"Warm result memo".
//
// A census is taken from a dense load of a -c / -l search (its entries are seen as they are classified, the
// same pass that counts them) and kept in the server's result memo under the file's stamp and the
// label-candidate gates the load parsed under (gated record types are parsed only when a call reaches them,
// so a census answers only calls with the same gates).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cache/result_memo.h"
#include "core/record/turns.h"
#include "core/search/search_config.h"
#include "core/search/search_hits.h"
#include "core/store/classified_transcript.h"

namespace csift {

class DiskCache;

struct LabelCensus {
  // Consecutive entries with the same label set, turn and flags (file order; runs keep it small).
  struct Run {
    uint64_t labels = 0;  // bit per Label: the union of the entry's unit labels
    int32_t turn = -1;
    bool draft = false;
    bool foreign = false;
    uint32_t entries = 0;
  };
  std::vector<Run> runs;
  uint64_t skipped_lines = 0;
  uint64_t values_out_of_range = 0;
  // What classifies the lines appended to the file since (null when the read that took the census did not
  // complete): where that read's last complete line ended, its line count and torn tail, the hashes of the
  // first line and of the bytes before `end`, and the classifier's and the turn numbering's state after the
  // last record.
  struct Resume {
    uint64_t end = 0;
    uint64_t lines = 0;
    bool torn = false;
    uint64_t head_hash = 0;
    uint64_t tail_hash = 0;
    ClassifyContext context;  // labels_context() of the classifier's
    TurnState turns;
  };
  std::shared_ptr<const Resume> resume;
};

// Folds entries as a dense load classifies them (before their units are dropped).
class LabelCensusBuilder {
 public:
  LabelCensusBuilder() = default;
  explicit LabelCensusBuilder(LabelCensus from) : census_(std::move(from)) {}
  void add(const ClassifiedEntry& e);
  // The census of a dense load of `ct` (no sidecar merged), `context` its classifier's context after the last
  // entry and `head_hash` its first line's hash before the read (nullopt: the census cannot be extended).
  LabelCensus take(const ClassifiedTranscript& ct, const ClassifyContext& context,
                   std::optional<uint64_t> head_hash);
  // The census as folded so far (its counters and resume state as given).
  LabelCensus finish();

 private:
  LabelCensus census_;
};

// `was` (a census of `t` when it was smaller) extended over the lines appended since, read with `options`
// (the same line filter the census was taken under; begin and first_line are set here): nullopt when it
// cannot be (no resume state, a rewritten first line, a read that failed or was cancelled), and the caller
// reads `t` whole. An appended opener that supersedes an earlier one turns that opener's entry into a draft
// and closes up the turns after it, as a read of the whole file would number them.
std::optional<LabelCensus> extend_label_census(const Transcript& t, const LabelCensus& was,
                                               ReadOptions options);

// Whether a counted search (-c or -l) under `cfg` can be answered from a census: an empty pattern with no
// time or turn window and no persisted-output resolution (each reads more than labels).
bool census_answers(const SearchConfig& cfg);

// The census `memo` (the call's result memo, ToolContext::result_memo) remembers for `t` under `gates` (the
// load's label-candidate gates), else the one `disk` (the call's disk cache, or null) kept, or nullptr. When
// `t` only grew since a census was remembered, it is extended over the appended lines (read with `appended`,
// see extend_label_census) and remembered in its place.
std::shared_ptr<const LabelCensus> recalled_label_census(ResultMemo& memo, DiskCache* disk,
                                                         const Transcript& t, const std::string& gates,
                                                         ResultMemoUse& use, const ReadOptions& appended);
// The label-candidate gates a load parses under, as a census is keyed by them (SearchPrefilter::label_gates):
// whether queue operations, file-history snapshots and attachments are parsed.
std::string label_gates_text(bool queue, bool snapshot, bool attachments);
// Takes into `memo` the census under `gates` an earlier process stored on `disk` for `t` at its discovered
// stamp (the warm-up's step: nothing of the transcript is read); true when `memo` holds one for that stamp.
bool recall_stored_census(ResultMemo& memo, DiskCache* disk, const Transcript& t, const std::string& gates,
                          ResultMemoUse& use);
// The server's warm-up step (core/store/store_warm_up.h): each Claude Code transcript's census under the
// gates of a call that names no gated leaf and no attachment (the common `-t` count), from the process's disk
// cache into its result memo. A label search's first call then reads no census from the disk.
std::function<bool(const Transcript&)> census_warm_up_step();
// Remembers in `memo` a census taken from a read of `t` that started when the file was stamped `before`; not
// when the file changed since. `use`: the call remembering it, whose other entries it does not evict; behind
// the memo the census is also queued for `disk` (kDiskCensusKind; null: none), and a fresh server's
// recalled_label_census finds it there.
void remember_label_census(ResultMemo& memo, DiskCache* disk, const Transcript& t, const FileStamp& before,
                           const std::string& gates, LabelCensus&& census, ResultMemoUse& use);

// A census as the disk cache keeps it: its runs and counts (not its resume state) and, when its read joined
// spawns to children, the children it was classified with and the part of them the file's own spawn results
// named.
struct StoredCensus {
  LabelCensus census;
  bool joined = false;
  std::unordered_map<std::string, std::string> children, result_agents;
  // Whether `t`'s labels are still these: no join, or the join over the subagents' meta.json files now
  // gives the same children.
  bool holds_for(const Transcript& t) const;
};
// Nullopt for bytes that are not one (bounds-checked: the blob is untrusted).
std::string encode_label_census(const LabelCensus& c);
std::optional<StoredCensus> decode_label_census(std::string_view blob);

// The counters a scan of the transcript would produce under `req` (census_answers(req)): the records with a
// label that survives the filter and the gates, their exchange groups and the draft disclosure (-c and -l
// read nothing else of a hit).
void count_from_census(const LabelCensus& census, const SearchConfig& req, TranscriptHits& th);

}  // namespace csift
