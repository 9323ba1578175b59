#include "core/search/search_prefilter.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include <tbb/parallel_for.h>

#include "core/harness/claude_code/fixed_texts.h"
#include "core/harness/claude_code/render_joiners.h"
#include "core/scan/line_scanner.h"
#include "core/search/search_cover.h"
#include "core/search/search_label_census.h"
#include "core/search/search_load.h"

namespace csift {
namespace {

// Lines whose matchable text is fabricated by a render (so the raw bytes may lack the pattern's needles): the
// record is parsed whenever one of these occurs, and the regex decides on the rendered text.
std::vector<std::string> synthesized_markers(const SearchConfig& req, bool diagnose) {
  const LabelFilter& f = req.labels;
  auto admits = [&](Label l) { return diagnose || f.admits(l); };
  auto reaches = [&](Label l) { return f.explicitly_reaches(l); };
  // "<command-" stands for both wrapper tags (<command-name>, <command-message>). Bash mode's "! " + command
  // needs none: "!" sits between the text's start and a space, so no needle (3 safe bytes or more) holds
  // it. Most needles drop most of these (markers_needles_need), which leaves the gate one finder pass.
  namespace cc = claude_code_text;
  std::vector<std::string> m = {std::string(cc::kTaskNotificationOpen), std::string(cc::kAuqAnswerMarkers[0]),
                                std::string(cc::kAuqAnswerMarkers[1]),  std::string(cc::kAuqAnswerMarkers[2]),
                                std::string(cc::kRejectionHead),        std::string(cc::kCommandTagPrefix),
                                std::string(cc::kAgentsStoppedTail)};
  if (admits(Label::harness_compaction_boundary)) m.push_back(std::string(cc::kCompactBoundarySubtype));
  if (reaches(Label::harness_meta_turn_duration)) m.push_back("turn_duration");
  if (reaches(Label::harness_meta_stop_hooks)) m.push_back("stop_hook_summary");
  if (reaches(Label::harness_meta_snapshot)) m.push_back("file-history-");
  if (reaches(Label::harness_meta_away_summary)) m.push_back("away_summary");
  if (reaches(Label::harness_meta_system)) m.push_back("\"subtype\"");
  if (req.resolve_persisted) {
    m.push_back(std::string(claude_code_text::kPersistedOutputName));
    m.push_back(std::string(claude_code_text::kMcpSavedOutput));
  }
  return m;
}

// The markers whose records this call must parse: a marker whose render writes nothing a needle can
// straddle (every needle confined by its joiners, core/regex/needles.h) stands for records whose rendered
// text holds a needle only where its own bytes, or its tool partner's, do — and a line holding a needle is
// parsed anyway, its partners read back. Such a marker is dropped: a file it alone sent to the full read
// (most of a real store's bytes for a word that is absent) is screened to its end like any other.
// CSIFT_SEARCH_DENSE keeps every marker: the reference the dropped ones are tested against. The fold markers
// (a caseless 's' or 'k' written as U+017F or U+212A) need no test: no joiner holds either, so such a byte of
// a match lies inside a piece.
std::vector<std::string> markers_needles_need(std::vector<std::string> markers, const NeedleSet& ns) {
  if (dense_forced()) return markers;
  const auto confined = [&ns](const RenderJoiners* r) {
    return r && std::all_of(ns.needles.begin(), ns.needles.end(),
                            [&](const std::string& n) { return needle_confined(n, ns.caseless, *r); });
  };
  markers.erase(
      std::remove_if(markers.begin(), markers.end(),
                     [&](const std::string& m) { return confined(claude_code_text::render_joiners_of(m)); }),
      markers.end());
  return markers;
}

}  // namespace

SearchPrefilter::SearchPrefilter(const SearchConfig& req, bool diagnose_labels, ScanMemo* memo,
                                 bool defer_screens)
    : defer_screens_(defer_screens && memo != nullptr), memo_(memo) {
  const NeedleSet& ns = req.compiled->needles();
  pattern_ = req.compiled;
  if (!ns.empty()) {
    needles_.emplace(ns.all(), ns.caseless);
    const std::vector<std::string> markers =
        markers_needles_need(synthesized_markers(req, diagnose_labels), ns);
    if (!markers.empty()) markers_.emplace(markers, false);
    // One pass for both sets when they fit one Teddy group (its cost per byte does not depend on how many
    // strings it holds); a caseless union only adds candidates for the markers, never loses one. A single
    // needle joins the markers' pass too (one read of each block instead of two: 5-9 % of the skim's CPU,
    // bench/README.md "The cold path"), but only case-sensitively: a caseless union would widen the screen.
    std::vector<std::string> both = ns.all();
    both.insert(both.end(), markers.begin(), markers.end());
    if ((ns.all().size() > 1 || !ns.caseless) && both.size() <= 8) gate_.emplace(both, ns.caseless);
    // A sketch is asked for the fold markers' escaped forms ("u017f" for `\u017f`) as escapes: as 4-grams,
    // two grams of hex, they would be a maybe in most files.
    needles_only_ = ns.needles;
    for (const std::string& m : ns.fold_markers)
      (m.size() == 5 && m[0] == 'u' ? fold_escapes_ : needles_only_).push_back(m);
    cover_scope_.markers = markers;
    std::sort(cover_scope_.markers.begin(), cover_scope_.markers.end());
  }
  queue_ = req.labels.explicitly_reaches(Label::user_queued);
  snapshot_ = req.labels.explicitly_reaches(Label::harness_meta_snapshot);
  attachments_ = req.attachments;
  if (!diagnose_labels) {
    surviving_ = LabelSet{};
    for (const Label l : all_labels())
      if (label_survives(req, l, false)) surviving_.add(l);
  }
  cover_scope_.queued = queue_;
  cover_scope_.snapshots = snapshot_;
  cover_scope_.attachments = attachments_;
  resolve_persisted_ = req.resolve_persisted;
}

bool SearchPrefilter::may_match(std::string_view line) const {
  if (!needles_) return true;
  return gate_ ? gate_->contains(line) : needles_->contains(line) || (markers_ && markers_->contains(line));
}

// Only the three record types whose every unit is a gated leaf are refused at byte level; finer gating
// (gated system subtypes) happens on the classified labels, so this stays a conservative superset.
bool SearchPrefilter::label_candidate(std::string_view line, const RawLineProbes& probes) const {
  if (probes.may_carry_message(line)) return true;
  const std::string type = probes.peek_type(line);
  if (type == "attachment") return attachments_;
  if (type == "queue-operation") return queue_;
  if (type == "file-history-snapshot") return snapshot_;
  return true;
}

std::string SearchPrefilter::label_gates() const {
  return label_gates_text(queue_, snapshot_, attachments_);
}

double SearchPrefilter::needle_line_share(std::string_view block) const {
  const uint64_t lines = count_newlines(block.data(), block.size());
  // Too few lines to say how common the pattern is: a share far below "common", but not 0 when a needle
  // occurs, since 0 tells the searcher that only a synthesized-text marker sent the file to the full read.
  if (lines < 32) return needles_->contains(block) ? kFewLinesNeedleShare : 0;
  uint64_t with = 0;
  for (size_t at = needles_->find(block); at != SubstringFinder::npos; at = needles_->find(block, at)) {
    ++with;
    const void* nl = std::memchr(block.data() + at, '\n', block.size() - at);
    if (!nl) break;
    at = static_cast<size_t>(static_cast<const char*>(nl) - block.data()) + 1;
  }
  return static_cast<double>(with) / static_cast<double>(lines);
}

// Skims the file through its reader's byte screen: a needle or marker anywhere in a block sends the file to
// the full read; otherwise the reader counts the malformed lines exactly as a full read would.
SkimResult SearchPrefilter::plain_skim(const Transcript& t, const CancelToken* cancel) const {
  return reader_for(t).skim(
      t, [this](std::string_view block) { return may_match(block); },
      [this](std::string_view block) { return needle_line_share(block); }, cancel);
}

// A remembered file the memory cannot rule out, screened again with `block_may_match`. The file is the one
// remembered (same stamp), so its lines are not checked for well-formedness again: when nothing is found,
// its skipped and out-of-range counts are the remembered ones.
SkimResult SearchPrefilter::screen_again(const Transcript& t, const ScreenFacts& facts,
                                         const std::function<bool(std::string_view)>& block_may_match,
                                         const CancelToken* cancel) const {
  SkimResult out = reader_for(t).skim(
      t, block_may_match, [this](std::string_view block) { return needle_line_share(block); }, cancel,
      /*count_malformed=*/false);
  if (out.may_match || out.cancelled || !out.error.empty()) return out;
  out.skipped_lines = facts.skipped_lines();
  out.values_out_of_range = facts.values_out_of_range;
  return out;
}

bool SearchPrefilter::sketch_may_hold_needle(const GramSketch& grams) const {
  for (const std::string& s : needles_only_)
    if (grams.may_contain(s)) return true;
  for (const std::string& e : fold_escapes_)
    if (grams.may_hold_escape(std::string_view(e).substr(1))) return true;
  return false;
}

// A marker the screen found absent needs no sketch (an English phrase such as "The user answered:" has
// every 4-gram in many files that never hold it); any other marker of this call must be missing from it.
bool SearchPrefilter::plain_rules_out(const ScreenFacts& facts) const {
  if (sketch_may_hold_needle(facts.grams)) return false;
  for (const std::string& m : cover_scope_.markers) {
    const bool screened = std::binary_search(facts.absent_markers.begin(), facts.absent_markers.end(), m);
    if (!screened && facts.grams.may_contain(m)) return false;
  }
  return true;
}

namespace {

// Sketches handed to the screen's concurrent block callbacks (a large file is screened in chunks on several
// workers): each callback borrows a sketch no other holds, and the borrowed sketches are merged at the end.
class PrefilterSketchPool {
 public:
  explicit PrefilterSketchPool(uint64_t file_bytes) : file_bytes_(file_bytes) {}
  std::unique_ptr<GramSketch> borrow() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return std::make_unique<GramSketch>(file_bytes_);
    auto s = std::move(free_.back());
    free_.pop_back();
    return s;
  }
  void give_back(std::unique_ptr<GramSketch> s) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(s));
  }
  // The sketches borrowed, ORed into one (every callback has given its sketch back).
  GramSketch take() {
    if (free_.empty()) return GramSketch(file_bytes_);
    GramSketch out = std::move(*free_.front());
    for (size_t i = 1; i < free_.size(); ++i)
      out.merge(*free_[i]);
    return out;
  }

 private:
  uint64_t file_bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<GramSketch>> free_;
};

}  // namespace

namespace {

// The facts a screen without a hit learned, for a file whose stamp was `stamp` before and after it.
std::shared_ptr<ScreenFacts> facts_of_screen(const SkimResult& out, const FileStamp& stamp,
                                             uint64_t head_hash, uint64_t tail_hash) {
  auto facts = std::make_shared<ScreenFacts>(0);  // the caller sets its sketch
  facts->stamp = stamp;
  facts->torn_tail = out.torn_tail;
  facts->malformed_lines = out.skipped_lines - (out.torn_tail ? 1 : 0);
  facts->screened_end = out.torn_tail ? out.torn_tail_offset : stamp.size;
  facts->values_out_of_range = out.values_out_of_range;
  facts->head_hash = head_hash;
  facts->tail_hash = tail_hash;
  return facts;
}

}  // namespace

// The plain skim, sketching every block it refuses; a screen that read the whole file without a hit (and
// saw the file unchanged from start to end) is remembered.
SkimResult SearchPrefilter::remembering_skim(const Transcript& t, const FileStamp& stamp, ScanMemo& memo,
                                             const CancelToken* cancel) const {
  PrefilterSketchPool pool(stamp.size);
  const RawLineProbes* probes = reader_for(t).raw_probes();
  const SkimResult out = reader_for(t).skim(
      t,
      [&](std::string_view block) {
        if (may_match(block)) return true;
        auto sketch = pool.borrow();
        add_sketchable(*sketch, block, probes);
        pool.give_back(std::move(sketch));
        return false;
      },
      [this](std::string_view block) { return needle_line_share(block); }, cancel);
  if (out.may_match || out.cancelled || !out.error.empty()) return out;
  const auto head = head_hash_of(t.path);
  const auto tail = tail_hash_of(t.path, out.torn_tail ? out.torn_tail_offset : stamp.size);
  if (!head || !tail || stamp_file(t.path) != stamp) return out;  // changed while read: may not cover it
  auto facts = facts_of_screen(out, stamp, *head, *tail);
  facts->absent_markers = cover_scope_.markers;
  facts->grams = pool.take();
  memo.remember(t.path, std::move(facts), tally_);
  return out;
}

// A remembered file grown since, whose remembered part cannot match: screens only the bytes from where the
// remembered screen ended (the old torn tail included, now complete or not), and remembers the sum. nullopt:
// the file must be screened whole (its head changed, or the read failed).
std::optional<SkimResult> SearchPrefilter::appended_skim(const Transcript& t, const FileStamp& stamp,
                                                         const ScreenFacts& was, ScanMemo& memo,
                                                         const CancelToken* cancel) const {
  if (!appended_since(t.path, was.head_hash, was.screened_end, was.tail_hash)) return std::nullopt;
  auto facts = std::make_shared<ScreenFacts>(was);
  const RawLineProbes* probes = reader_for(t).raw_probes();
  SkimResult out = reader_for(t).skim_from(
      t, was.screened_end,
      [&](std::string_view block) {
        if (may_match(block)) return true;
        add_sketchable(facts->grams, block, probes);
        return false;
      },
      [this](std::string_view block) { return needle_line_share(block); }, cancel);
  if (!out.error.empty()) return std::nullopt;
  if (out.may_match || out.cancelled) return out;
  const uint64_t appended_malformed = out.skipped_lines - (out.torn_tail ? 1 : 0);
  out.skipped_lines += was.malformed_lines;
  out.values_out_of_range += was.values_out_of_range;
  const uint64_t screened_end = out.torn_tail ? out.torn_tail_offset : stamp.size;
  const auto tail = tail_hash_of(t.path, screened_end);
  if (!tail || stamp_file(t.path) != stamp) return out;
  facts->stamp = stamp;
  facts->tail_hash = *tail;
  facts->malformed_lines = was.malformed_lines + appended_malformed;
  facts->torn_tail = out.torn_tail;
  facts->screened_end = screened_end;
  // The remembered part lacks this call's markers (screened, or missing from its sketch), the appended part
  // was screened for them.
  facts->absent_markers = cover_scope_.markers;
  // A rendered cover stays one for this call's scope only: the appended bytes were screened for its markers
  // (none occurs, so their records' text is their bytes, now sketched), not for those of a wider scope. The
  // remembered records' text does not change with an append: a record is classified from the ones before it,
  // and a draft superseded by an appended opener keeps the text of its first unit.
  if (facts->rendered) facts->rendered = cover_scope_;
  facts->values_out_of_range = out.values_out_of_range;
  memo.remember(t.path, std::move(facts), tally_);
  return out;
}

// A plain entry answers when every needle and marker is missing from its sketch. A rendered cover answers
// when every needle is missing from it (the markers' records are in it, rendered), provided it was built
// under a scope that parses all this call parses, and no persisted output is to be resolved from another
// file.
bool SearchPrefilter::answers_from_memory(const ScreenFacts& facts) const {
  if (!facts.rendered) return plain_rules_out(facts);
  return covers_this_call(facts) && !sketch_may_hold_needle(facts.grams);
}

// A cover built under a call that dropped markers this one keeps (its needles confined by their renders'
// joiners) still parsed all this call would when the file's bytes hold none of those markers: no record of
// their renders is there.
bool SearchPrefilter::cover_scope_suffices(const ScreenFacts& facts) const {
  if (!facts.rendered || !facts.rendered->includes_gates(cover_scope_)) return false;
  const std::vector<std::string>& parsed = facts.rendered->markers;
  for (const std::string& m : cover_scope_.markers)
    if (!std::binary_search(parsed.begin(), parsed.end(), m) && facts.grams.may_contain(m)) return false;
  return true;
}

bool SearchPrefilter::covers_this_call(const ScreenFacts& facts) const {
  return cover_scope_suffices(facts) &&
         !(resolve_persisted_ && (facts.grams.may_contain(claude_code_text::kPersistedOutputName) ||
                                  facts.grams.may_contain(claude_code_text::kMcpSavedOutput)));
}

// A rendered cover whose sketch may hold a needle, with its rendered texts kept. A line without a needle
// matches only through text its record renders (the skim's rule), and the cover's read parsed every record
// that renders text under this call's scope. So when no raw byte holds a needle and the pattern matches none
// of the kept texts, no record of the file can match. nullopt: not such a cover. Otherwise the screen's
// answer, may_match when a needle occurs or a kept text matches (the file is then read whole, as before).
std::optional<SkimResult> SearchPrefilter::rescreen_cover(const Transcript& t, const ScreenFacts& facts,
                                                          const CancelToken* cancel) const {
  if (!facts.rendered_texts || !covers_this_call(facts)) return std::nullopt;
  SkimResult out = screen_again(
      t, facts, [this](std::string_view block) { return needles_->contains(block); }, cancel);
  if (out.may_match || out.cancelled || !out.error.empty()) return out;
  Matcher m(pattern_);
  if (facts.rendered_texts->any_of(
          [&m](std::string_view text) { return m.is_match(text) != MatchStatus::no_match; })) {
    out.may_match = true;
    return out;
  }
  tally_.texts_ruled_out.fetch_add(1, std::memory_order_relaxed);
  return out;
}

SkimResult SearchPrefilter::skim(const Transcript& t, const CancelToken* cancel,
                                 std::optional<FileStamp>* cover) const {
  ScanMemo* memo = memo_;
  // Discovery stat'ed the file moments ago: its stamp is that stat's, not a second one.
  std::optional<FileStamp> stamp;
  if (memo) stamp = stamp_of(t);
  if (!stamp) return plain_skim(t, cancel);
  if (const auto facts = memo->find(t.path, *stamp, tally_.call, &tally_.disk)) {
    if (answers_from_memory(*facts)) {
      tally_.hits.fetch_add(1, std::memory_order_relaxed);
      if (facts->rendered) tally_.rendered_hits.fetch_add(1, std::memory_order_relaxed);
      tally_.bytes_not_read.fetch_add(stamp->size, std::memory_order_relaxed);
      SkimResult out;
      out.skipped_lines = facts->skipped_lines();
      out.values_out_of_range = facts->values_out_of_range;
      return out;
    }
    tally_.rescreened.fetch_add(1, std::memory_order_relaxed);
    if (auto out = rescreen_cover(t, *facts, cancel)) return *out;
    SkimResult out = screen_again(
        t, *facts, [this](std::string_view block) { return may_match(block); }, cancel);
    // The file goes to the full read: a plain entry (screened under a call whose needles dropped the markers
    // this one keeps) or a cover built under a narrower scope is rebuilt as a cover of this call's scope,
    // as a file seen for the first time is. A cover of a scope as wide is kept (a needle that may occur is no
    // reason: the new cover would hold the same grams).
    if (out.may_match && cover && !cover_scope_suffices(*facts)) *cover = *stamp;
    return out;
  }
  if (const auto was = memo->find_grown(t.path, *stamp)) {
    // The remembered part cannot match (its sketch, or its rendered cover, lacks every needle): only the
    // appended bytes are screened.
    if (answers_from_memory(*was)) {
      if (auto out = appended_skim(t, *stamp, *was, *memo, cancel)) {
        tally_.appended.fetch_add(1, std::memory_order_relaxed);
        tally_.bytes_not_read.fetch_add(was->screened_end, std::memory_order_relaxed);
        return *out;
      }
    }
    memo->forget(t.path);  // screened whole below: remembered afresh only when no line may match
  }
  tally_.misses.fetch_add(1, std::memory_order_relaxed);
  SkimResult out;
  if (defer_screens_) {
    // The screen is built after the reply, as remembering_skim would build it now (it remembers only a file
    // where no line may match).
    out = plain_skim(t, cancel);
    if (!out.may_match && !out.cancelled && out.error.empty()) defer_screen(t, *stamp);
  } else {
    out = remembering_skim(t, *stamp, *memo, cancel);
  }
  if (out.may_match && cover) *cover = *stamp;
  return out;
}

void SearchPrefilter::defer_screen(const Transcript& t, const FileStamp& stamp) const {
  tally_.screens_deferred.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(deferred_mu_);
  deferred_.push_back({t, stamp});
}

bool SearchPrefilter::screens_deferred() const {
  std::lock_guard<std::mutex> lock(deferred_mu_);
  return !deferred_.empty();
}

void SearchPrefilter::screen_deferred(const CancelToken* cancel) {
  std::vector<DeferredScreen> todo;
  {
    std::lock_guard<std::mutex> lock(deferred_mu_);
    todo.swap(deferred_);
  }
  if (!memo_) return;
  tbb::parallel_for(size_t{0}, todo.size(), [&](size_t i) {
    const DeferredScreen& d = todo[i];
    if (cancel && cancel->is_cancelled()) return;
    // Another call may have screened it since, or it changed (then the next call that reads it screens it).
    if (memo_->find(d.t.path, d.stamp, tally_.call) || stamp_file(d.t.path) != d.stamp) return;
    remembering_skim(d.t, d.stamp, *memo_, cancel);
  });
}

}  // namespace csift
