// run_search_scan: the filter pipeline of SPEC.md §9.2 over every transcript of the scope, run by the core
// searcher (core/search/searcher.h: whole-file gate, read + classify, label eligibility, time/turn window,
// regex, oneTBB across transcripts) into this file's sink, and merged in scope order.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "core/search/searcher.h"
#include "tools/search/search_exchange.h"
#include "tools/search/search_types.h"

namespace csift {

namespace {

// What a transcript adds to the scan's totals, in whatever order the transcripts are searched.
void add_counts(SearchScan& out, const TranscriptHits& th) {
  out.skipped_lines += th.skipped_lines;
  out.too_complex_lines += th.too_complex_lines;
  out.hidden_copy_matches += th.hidden_copy_matches;
  out.unresolved_pointers += th.unresolved_pointers;
  out.values_out_of_range += th.values_out_of_range;
  out.matched_records += th.matched_records();
  out.excluded_records += th.excluded_records;
  out.draft_hits += th.draft_hits;
  out.drafts_excluded_by_label += th.drafts_excluded_by_label;
  for (const auto& [l, n] : th.excluded_by_label)
    out.excluded_by_label[l] += n;
}

// The row side of the searcher's sink: each transcript's hits are counted into exchanges and, in exchange
// mode, rendered (`finish`) on the worker that searched it; then its model is released.
class ScanSink final : public SearchSink {
 public:
  ScanSink(const Scope& scope, ToolContext& ctx, bool report, bool release_models,
           const std::function<void(TranscriptHits&)>& finish, SearchScan& totals)
      : scope_(scope),
        ctx_(ctx),
        report_(report),
        release_models_(release_models),
        finish_(finish),
        totals_(totals),
        results(scope.transcripts.size()),
        notes(scope.transcripts.size()),
        saved_unread(scope.transcripts.size()),
        errors(scope.transcripts.size()) {
    for (const Transcript& t : scope.transcripts)
      total_bytes_ += weight(t);
  }

  void searched(size_t i, std::unique_ptr<TranscriptHits> searched,
                std::vector<std::string>&& transcript_notes, std::string&& error) override {
    if (!error.empty()) errors[i] = std::move(error);
    // A transcript that could not be searched says why in `errors`; its notes are not merged.
    const bool merged = searched != nullptr;
    try {
      if (searched) {
        results[i] = std::move(searched);
        TranscriptHits& th = *results[i];
        {
          std::lock_guard<std::mutex> lock(totals_mutex_);
          add_counts(totals_, th);
        }
        if (!th.unreadable.empty()) transcript_notes.push_back(std::move(th.unreadable));
        saved_unread[i] = std::move(th.saved_unread);
        if (!th.from_census) {  // a census counted its exchanges; its transcripts have no sidecar
          th.exchange_groups = count_exchange_groups(th);
          for (const RecordHit& rh : th.hits)
            th.sidecar_hit =
                th.sidecar_hit || th.ct.entries[rh.entry_index].source == RecordSource::elicitation_sidecar;
        }
        if (finish_ && !th.hits.empty()) finish_(th);
        if (th.matched_records() == 0) {
          // Nothing of it is left to merge: freed here, on the worker, rather than held with every other
          // transcript of the scope until the end (a warm count over 9,696 memo hits faulted in 11 MB of
          // fresh pages for them, a sixth of the call).
          results[i].reset();
        } else if (release_models_ || finish_) {
          // -c / -l keep only its counts and a finished one its rows: free its records now, so peak memory
          // does not grow with the scope.
          ClassifiedTranscript identity_only;
          identity_only.transcript = th.ct.transcript;
          identity_only.owner = th.ct.owner;
          th.ct = std::move(identity_only);
        }
      }
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
    if (merged) notes[i] = std::move(transcript_notes);
    if (report_) {
      std::lock_guard<std::mutex> lock(progress_mutex_);
      done_bytes_ += weight(scope_.transcripts[i]);
      ctx_.progress(static_cast<double>(done_bytes_), static_cast<double>(total_bytes_),
                    "searched " + scope_.transcripts[i].path);
    }
  }

 private:
  static uint64_t weight(const Transcript& t) { return std::max<uint64_t>(t.size, 1); }
  const Scope& scope_;
  ToolContext& ctx_;
  bool report_;
  bool release_models_;
  const std::function<void(TranscriptHits&)>& finish_;
  SearchScan& totals_;  // add_counts of every transcript searched
  std::mutex totals_mutex_;
  uint64_t total_bytes_ = 0;
  uint64_t done_bytes_ = 0;
  std::mutex progress_mutex_;

 public:
  std::vector<std::unique_ptr<TranscriptHits>> results;  // the transcripts that matched, null for the rest
  std::vector<std::vector<std::string>> notes;
  std::vector<std::vector<SavedResultUnread>> saved_unread;
  std::vector<std::string> errors;
};

}  // namespace

SearchScan run_search_scan(const SearchRequest& req, const Scope& scope, ToolContext& ctx,
                           bool diagnose_labels, const std::function<void(TranscriptHits&)>& finish) {
  const size_t n = scope.transcripts.size();
  // Progress is in bytes of the scope (one transcript can be most of the work), reported by the worker that
  // finished a transcript; the mutex makes the reported `done` strictly increasing across workers. An empty
  // file weighs one byte so that it still advances `done`. The diagnosis probe re-scans the same scope, so it
  // reports nothing (its progress would restart from zero).
  const bool report = ctx.progress && !diagnose_labels;
  const bool release_models = !diagnose_labels && (req.mode == SearchMode::count_only ||
                                                   req.mode == SearchMode::sessions_with_matches);
  SearchPass pass;
  pass.diagnose = diagnose_labels;
  pass.counts_only = release_models;
  if (req.mode == SearchMode::exchanges && !diagnose_labels)
    pass.context = req.siblings ? SearchPass::Context::whole_turns : SearchPass::Context::turn_answers;
  Searcher searcher(req, pass, SearchCaches{ctx.scan_memo, ctx.result_memo, ctx.disk_cache, ctx.after_reply},
                    scope.projects_root, ctx.cancel);
  SearchScan out;
  ScanSink sink(scope, ctx, report, release_models, finish, out);
  searcher.search(scope.transcripts, sink);
  const SearchPrefilter& pf = searcher.prefilter();
  auto& results = sink.results;
  out.transcripts_scanned = n;
  out.cancelled = ctx.cancelled();
  out.memo = ctx.scan_memo;
  out.memo_hits = pf.memo_tally().hits.load();
  out.memo_rescreened = pf.memo_tally().rescreened.load();
  out.memo_misses = pf.memo_tally().misses.load();
  out.memo_appended = pf.memo_tally().appended.load();
  out.memo_bytes_not_read = pf.memo_tally().bytes_not_read.load();
  out.memo_rendered_hits = pf.memo_tally().rendered_hits.load();
  out.memo_covers_built = pf.memo_tally().covers_built.load();
  out.memo_screens_deferred = pf.memo_tally().screens_deferred.load();
  out.memo_covers_deferred = pf.memo_tally().covers_deferred.load();
  out.memo_texts_ruled_out = pf.memo_tally().texts_ruled_out.load();
  out.screens_disk += pf.memo_tally().disk;
  out.census_use = searcher.take_census_use();
  // A TranscriptHits is a large object: moving every kept one at each growth was an eighth of a warm count.
  out.transcripts.reserve(static_cast<size_t>(
      std::count_if(results.begin(), results.end(), [](const auto& r) { return r != nullptr; })));
  // In scope order: what each transcript says beside its counts, and the transcripts that matched.
  for (size_t i = 0; i < n; ++i) {
    if (!sink.errors[i].empty()) out.unread.push_back({scope.transcripts[i].path, sink.errors[i]});
    for (auto& unread : sink.saved_unread[i])
      out.saved_unread.push_back(std::move(unread));
    for (auto& note : sink.notes[i])
      out.notes.push_back(std::move(note));
    if (results[i]) out.transcripts.push_back(std::move(*results[i]));
  }
  return out;
}

HitInput hit_input_of(const TranscriptHits& th, size_t entry_index, size_t unit_index) {
  return hit_input_of(th.ct, th.ct.entries[entry_index], unit_index);
}

json search_hit_json(const SearchRequest& req, const TranscriptHits& th, const RecordHit& rh,
                     const UnitHit& uh) {
  const HitInput in = hit_input_of(th, rh.entry_index, uh.unit_index);
  const ExcerptPolicy policy =
      req.no_truncate ? ExcerptPolicy::full_text() : ExcerptPolicy::centered(uh.match_begin, uh.match_end);
  json hit = build_hit_json(in, policy, HitJsonOptions{"hit", true});
  hit["label"] = std::string(label_path(uh.label));
  hit["matched"] = true;
  if (uh.persisted_resolved) hit["persisted_resolved"] = true;
  return hit;
}

}  // namespace csift
