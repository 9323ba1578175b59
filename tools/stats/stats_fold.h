// stats' per-record figures as a fold (SPEC.md §9.4): each windowed record is added once, in file order, so
// a read streams its records through the fold instead of holding them. The state is everything the figures
// need to go on, so a fold kept from an earlier read can be extended with records appended since.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/base/timefmt.h"
#include "core/record/transcript_reader.h"
#include "tools/stats/stats_tally.h"

namespace csift {

struct StatsFold {
  uint64_t user_records = 0;
  uint64_t assistant_records = 0;
  uint64_t compactions = 0;
  std::optional<EpochMs> first, last;
  std::string first_timestamp, last_timestamp;
  TokenLedger ledger;
  CountByName narration_blocks, unknown_thinking_tags, tools;
  std::optional<double> harness_cost_usd;    // the last cost-state's totalCostUSD
  std::unordered_set<std::string> tool_ids;  // tool_use ids counted (a replayed call counts once)
  std::vector<uint64_t> record_keys;         // hashed uuids, in fold order (sorted when finished)
  // Turns without turn numbers (core/record/turns.h): an opener with no parent always opens a turn, and of
  // the openers sharing a parent only the last does (the earlier ones are drafts), so the count is the root
  // openers plus the distinct parents among the others.
  uint64_t root_openers = 0;
  std::unordered_set<std::string> opener_parents;

  void add(const Record& r, const TurnRule& rule);
  int turn_count() const { return static_cast<int>(root_openers + opener_parents.size()); }
  // Writes the per-record figures into `tally` (its file facts are left alone). The ledger and the record
  // keys, the bulk of a fold, are moved, not copied: a copy held both at once (a transient twice the largest
  // transcript's ledger), and no caller reads them from the fold after finishing. A fold kept beside its
  // finished tally takes them back before it goes on (keys come back sorted and unique, which finishing makes
  // of them anyway).
  void finish_into(TranscriptTally& tally);
  void take_back_from(const TranscriptTally& tally) {
    ledger = tally.ledger;
    record_keys = tally.record_keys;
  }
};

// Folds the records a time window admits as a read pushes them.
class StatsFoldSink final : public RecordSink {
 public:
  StatsFoldSink(StatsFold& fold, const TimeWindow& time, const TurnRule& rule)
      : fold_(fold), time_(time), rule_(rule) {}
  bool record(Record&& r) override;

 private:
  StatsFold& fold_;
  const TimeWindow& time_;
  const TurnRule& rule_;
};

// Does the time window admit the record (a bounded window never admits a record without a timestamp)?
bool time_window_admits(const TimeWindow& time, const Record& r);

// A tally with what carries it over lines appended since: an unbounded tally's fold, where its read ended
// and the hashes of the file's first line and of the bytes before `end` (a rewrite in place changes one).
struct ResumableTally {
  TranscriptTally tally;
  bool resumable = false;  // an unbounded window whose read completed: `fold` and `end` are kept
  StatsFold fold;
  uint64_t end = 0;  // the offset just past the last complete line read
  uint64_t head_hash = 0;
  uint64_t tail_hash = 0;
};
// keep_fold: keep what an extension needs (a server's memo will remember the tally); the CLI keeps none.
ResumableTally tally_resumable(const Transcript& t, const StatsWindow& window, const CancelToken* cancel,
                               bool keep_fold);
// `was` extended over the lines appended to the same file since (the caller checked device and inode):
// nullopt when it cannot be (a bounded window, a changed first line or line end, a read error), and the
// transcript is tallied afresh.
std::optional<ResumableTally> extend_tally(const Transcript& t, const ResumableTally& was,
                                           const CancelToken* cancel);

}  // namespace csift
