// The internal data model of `search` (SPEC.md §9.2): the parsed request, the per-transcript scan result
// (every matched record with its matched units, spans and rendered label), and the scan entry point. The
// terminal modes (exchanges, -c, -l, --raw, --count-by) and --siblings all consume a SearchScan, so the
// filter pipeline runs in exactly one place.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "core/cache/result_memo.h"
#include "core/cache/result_memo_report.h"
#include "core/cache/scan_memo.h"
#include "core/record/labels.h"
#include "core/regex/regex.h"
#include "core/search/search_config.h"
#include "core/search/search_hits.h"
#include "core/store/classified_transcript.h"
#include "core/store/targets.h"
#include "tools/common/record_render.h"
#include "tools/common/scope_args.h"
#include "tools/common/tool.h"

namespace csift {

// The terminal mode of one call; exactly one applies (the conflicts are usage errors).
enum class SearchMode { exchanges, count_only, sessions_with_matches, raw, count_by };

// The nine closed --count-by axes.
enum class CountAxis { label, tool, turn, session, pairing, model, attachment, version, result };
const char* count_axis_name(CountAxis a);

// The matcher's configuration (compiled pattern, labels, gates: core/search/search_config.h) and what only
// the tool's rows and modes read.
struct SearchRequest : SearchConfig {
  json args;  // the call's arguments as validated (defaults applied), for echoes and continuations
  std::string pattern;
  RegexOptions regex_options;
  bool label_filter_active = false;  // any -t or -T given
  int64_t max_count = 0;             // 0 uncapped; N keeps the earliest N exchanges, -N the latest N
  SearchMode mode = SearchMode::exchanges;
  std::optional<CountAxis> count_by;
  bool json_format = false;
  bool siblings = false;
  bool no_truncate = false;
  std::vector<std::string> notes;  // parse-time notes (uuid-shaped pattern ...)

  // Whether any filter beyond the pattern narrows the search (labels, time, turn).
  bool has_filter() const { return label_filter_active || turn.has_value() || window.bounded(); }
};

// Throws ToolError(usage) on a conflict, a bad pattern (dialect), a bad selector/range/time.
SearchRequest parse_search_request(const json& args);

// One exchange as a row, rendered by the worker that scanned its transcript (whose model is then released).
struct RenderedExchange {
  std::optional<EpochMs> started;  // the timeline key (nullopt: undated, sorted last)
  json row;
};

// The whole scan in scope order. Only transcripts with at least one hit are kept in `transcripts` (the
// counters cover every transcript scanned).
struct SearchScan {
  std::vector<TranscriptHits> transcripts;
  size_t transcripts_scanned = 0;
  uint64_t skipped_lines = 0;
  uint64_t too_complex_lines = 0;
  uint64_t hidden_copy_matches = 0;  // TranscriptHits::hidden_copy_matches summed
  uint64_t unresolved_pointers = 0;  // TranscriptHits::unresolved_pointers summed
  uint64_t values_out_of_range = 0;
  uint64_t matched_records = 0;
  // Label exclusions summed across the scope (filled only when a -t/-T was active).
  std::map<Label, uint64_t> excluded_by_label;
  uint64_t excluded_records = 0;
  uint64_t draft_hits = 0;                // matched superseded drafts among the hits (before any cap)
  uint64_t drafts_excluded_by_label = 0;  // matched superseded drafts the label filter excluded
  std::vector<std::string> notes;         // --resolve-persisted failures, sidecar notes ...
  // TranscriptHits::saved_unread, in scope order.
  std::vector<SavedResultUnread> saved_unread;
  // Transcripts of the scope the scan could not read (the reason is the read's error), in scope order.
  std::vector<StoreProblem> unread;
  bool cancelled = false;
  // A server's scan memo (core/cache/scan_memo.h), when one is installed: how this call used it.
  const ScanMemo* memo = nullptr;  // the call's (ToolContext::scan_memo)
  uint64_t memo_hits = 0, memo_rescreened = 0, memo_misses = 0, memo_appended = 0, memo_bytes_not_read = 0;
  uint64_t memo_rendered_hits = 0, memo_covers_built = 0, memo_texts_ruled_out = 0;
  uint64_t memo_screens_deferred = 0, memo_covers_deferred = 0;  // left for after the reply
  DiskCacheCounts screens_disk;  // the screens' use of the disk cache behind the scan memo
  // The result memo's label censuses (search_label_census.h), when one is installed: nullptr otherwise.
  std::unique_ptr<ResultMemoUse> census_use;
};

// Runs the filter pipeline (SPEC.md §9.2; in order: label eligibility -> time/turn window -> regex) over
// every transcript of the scope, oneTBB across transcripts, results merged deterministically in scope order.
// With `diagnose_labels` the label-excluded matches are tallied (the zero-match probe; costs a wider
// prefilter). `finish`, when given, runs in the worker on each transcript with hits (exchange mode renders
// its rows there); the transcript's model is released after it, so memory follows the largest transcript
// rather than the whole scope.
SearchScan run_search_scan(const SearchRequest& req, const Scope& scope, ToolContext& ctx,
                           bool diagnose_labels = false,
                           const std::function<void(TranscriptHits&)>& finish = {});

// The hit row input of any unit of an entry: hit_input_of (classified_transcript.h) addressed by index.
HitInput hit_input_of(const TranscriptHits& th, size_t entry_index, size_t unit_index);
// The JSON hit of one matched unit: build_hit_json with `refetch`, the label set to the surviving label, and
// a match-centred excerpt (or the full text under --no-truncate).
json search_hit_json(const SearchRequest& req, const TranscriptHits& th, const RecordHit& rh,
                     const UnitHit& uh);

}  // namespace csift
