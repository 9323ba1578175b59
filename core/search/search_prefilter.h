// The raw-byte stages of `search` (SPEC.md §7, §9.2 Reading, §10): the required needles of the pattern plus
// the synthesized-text markers (records whose matchable text is rendered, not verbatim), the byte-level label
// gates (gated leaves parse only under an explicit selector, attachments only under --attachments), and the
// whole-file gate that skips a file with no needle and no marker without building records.
#pragma once
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/scan_memo.h"
#include "core/record/transcript_reader.h"
#include "core/scan/substring_finder.h"
#include "core/search/search_config.h"
#include "core/store/classified_transcript.h"

namespace csift {

// The needle share a hit block of fewer than 32 lines reports when a needle occurs in it: too few lines to
// call the pattern common, but not 0 (SkimResult::needle_line_share 0 means only a marker occurred).
inline constexpr double kFewLinesNeedleShare = 1.0 / 1024;

class SearchPrefilter {
 public:
  // `memo`: the server's scan memo, as the call's context hands it (null: none, as in the CLI).
  // `defer_screens`: a file the memo knows nothing of is skimmed as without a memo, and its screen (the
  // sketch that answers later calls) is left to screen_deferred(), which the server runs after the reply.
  SearchPrefilter(const SearchConfig& cfg, bool diagnose_labels, ScanMemo* memo = nullptr,
                  bool defer_screens = false);
  // True when the pattern yields needles (the whole-file gate applies).
  bool gates_files() const { return needles_.has_value(); }
  // A needle or a synthesized-text marker occurs in the line (or in a block of lines).
  bool may_match(std::string_view line) const;
  // The line's record type can carry an admitted label (gated leaves, attachments).
  bool label_candidate(std::string_view line, const RawLineProbes& probes) const;

  // Stage 1: skims the file; stops at the first needle/marker. Counts malformed lines as the full read would.
  // With a server's scan memo, a file remembered whole whose sketch lacks every needle and marker is
  // answered without reading it, and a whole-file screen without a hit is remembered.
  // When the file is remembered by no cover that serves this call and the skim found a needle or marker,
  // `*cover` is set to the stamp taken before the skim: the full read should build a rendered cover
  // (core/search/search_cover.h) and hand it to remember_cover().
  SkimResult skim(const Transcript& t, const CancelToken* cancel,
                  std::optional<FileStamp>* cover = nullptr) const;
  // Counts a rendered cover the searcher left for after the reply (this call's tally).
  void note_cover_deferred() const { tally_.covers_deferred.fetch_add(1, std::memory_order_relaxed); }
  // Whether skims left screens to build (defer_screens).
  bool screens_deferred() const;
  // Builds the screens skims left (defer_screens): each file still stamped as it was skimmed and not
  // remembered since is screened whole, as skim() would have done, and remembered. Runs after the reply.
  void screen_deferred(const CancelToken* cancel);
  // Remembers the rendered cover of a sparse full read: `raw` sketches every line the read offered its
  // filter, `ct` holds the records it parsed (tool partners completed). Not when the file changed since
  // `stamp` or the read failed.
  void remember_cover(const Transcript& t, const FileStamp& stamp, const ClassifiedTranscript& ct,
                      GramSketch&& raw) const;
  // Whether the line's record may carry a label this call admits (RawLineProbes::may_carry_labels): a count
  // need not parse a line that cannot. Always with a diagnosis.
  bool labels_may_survive(std::string_view line, const std::vector<OuterKey>& keys,
                          const RawLineProbes& probes) const {
    return probes.may_carry_labels(line, keys, surviving_);
  }
  // The label-candidate gates a load parses under (which gated record types label_candidate admits): a
  // label census taken under one set of gates answers only calls with the same.
  std::string label_gates() const;
  // This call's use of the scan memo (all zero without one).
  const MemoTally& memo_tally() const { return tally_; }
  // Whether a needles-only load (searcher.cpp) still pays in this call: a file where a unit may match is read
  // a second time, so once a third of the files tried (after the first 16) needed that, the call stops trying
  // (a word common enough to sit in many marker files). Answers are the same either way.
  bool needles_only_pays() const {
    const uint64_t tried = needles_only_tried_.load(std::memory_order_relaxed);
    return tried < 16 || needles_only_reread_.load(std::memory_order_relaxed) * 3 <= tried;
  }
  void note_needles_only(bool reread) const {
    needles_only_tried_.fetch_add(1, std::memory_order_relaxed);
    if (reread) needles_only_reread_.fetch_add(1, std::memory_order_relaxed);
  }

 private:
  SkimResult plain_skim(const Transcript& t, const CancelToken* cancel) const;
  SkimResult screen_again(const Transcript& t, const ScreenFacts& facts,
                          const std::function<bool(std::string_view)>& block_may_match,
                          const CancelToken* cancel) const;
  std::optional<SkimResult> rescreen_cover(const Transcript& t, const ScreenFacts& facts,
                                           const CancelToken* cancel) const;
  bool cover_scope_suffices(const ScreenFacts& facts) const;
  bool covers_this_call(const ScreenFacts& facts) const;
  SkimResult remembering_skim(const Transcript& t, const FileStamp& stamp, ScanMemo& memo,
                              const CancelToken* cancel) const;
  std::optional<SkimResult> appended_skim(const Transcript& t, const FileStamp& stamp, const ScreenFacts& was,
                                          ScanMemo& memo, const CancelToken* cancel) const;
  bool plain_rules_out(const ScreenFacts& facts) const;
  bool answers_from_memory(const ScreenFacts& facts) const;
  bool sketch_may_hold_needle(const GramSketch& grams) const;
  void defer_screen(const Transcript& t, const FileStamp& stamp) const;
  struct DeferredScreen {
    Transcript t;
    FileStamp stamp;
  };
  bool defer_screens_ = false;
  mutable std::mutex deferred_mu_;
  mutable std::vector<DeferredScreen> deferred_;
  std::vector<std::string> needles_only_;  // the pattern's needles and fold markers, but escaped fold markers
  std::vector<std::string> fold_escapes_;  // escaped fold markers ("u017f")
  CoverScope cover_scope_;                 // the records this call parses for their synthesized text
  bool resolve_persisted_ = false;
  ScanMemo* memo_ = nullptr;
  mutable MemoTally tally_;
  mutable std::atomic<uint64_t> needles_only_tried_{0}, needles_only_reread_{0};
  double needle_line_share(std::string_view block) const;
  std::shared_ptr<const CompiledPattern> pattern_;
  std::optional<SubstringFinder> needles_;
  std::optional<SubstringFinder> markers_;
  std::optional<SubstringFinder> gate_;  // needles and markers in one pass, when they fit one Teddy group
  bool queue_ = false, snapshot_ = false, attachments_ = false;
  LabelSet surviving_ = LabelSet::all();  // the labels a matched unit may carry (all with a diagnosis)
};

}  // namespace csift
