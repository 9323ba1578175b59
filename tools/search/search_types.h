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
#include "core/record/labels.h"
#include "core/regex/regex.h"
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

struct SearchRequest {
  json args;  // the call's arguments as validated (defaults applied), for echoes and continuations
  std::string pattern;
  RegexOptions regex_options;
  std::shared_ptr<const CompiledPattern> compiled;  // never null after parse_search_request
  LabelFilter labels;
  bool label_filter_active = false;  // any -t or -T given
  std::optional<RangeSpec> turn;     // --turn, resolved per transcript
  TimeWindow window;                 // --since/--until
  int64_t max_count = 0;             // 0 uncapped; N keeps the earliest N exchanges, -N the latest N
  SearchMode mode = SearchMode::exchanges;
  std::optional<CountAxis> count_by;
  bool json_format = false;
  bool siblings = false;
  bool no_truncate = false;
  bool resolve_persisted = false;
  bool attachments =
      false;  // the harness.meta.attachment gate (--attachments, implied by --count-by attachment)
  std::vector<std::string> notes;  // parse-time notes (uuid-shaped pattern ...)

  // Whether any filter beyond the pattern narrows the search (labels, time, turn).
  bool has_filter() const { return label_filter_active || turn.has_value() || window.bounded(); }
};

// Throws ToolError(usage) on a conflict, a bad pattern (dialect), a bad selector/range/time.
SearchRequest parse_search_request(const json& args);

// Whether one label survives -t/-T and the gates (`ignore_filter`: only the gates). search_scan.cpp.
bool label_survives(const SearchRequest& req, Label l, bool ignore_filter);

// One matched unit of a matched record.
struct UnitHit {
  size_t unit_index = 0;              // into ClassifiedEntry::units
  Label label = Label::user_message;  // the richest SURVIVING label (the view the hit renders under)
  size_t match_begin = 0;             // byte span of the first match in the unit's text (empty pattern: 0,0)
  size_t match_end = 0;
  // --resolve-persisted replaced the unit's text (in ct.entries) with the persisted output's content.
  bool persisted_resolved = false;
};

// A saved tool result --resolve-persisted did not read (SPEC.md §9.2): where its pointer is, why, whether the
// file exists and was refused (outside the Claude home, not a regular file, too large, unreadable) rather
// than missing, and whether the copy Claude Code kept in mcpMeta.structuredContent was searched instead.
// A refused file may hold what the copy does not, so only a missing file with a copy leaves a zero
// definitive.
struct SavedResultUnread {
  std::string session_id;  // the transcript holding the pointer
  uint64_t line = 0;
  std::string reason;
  bool refused = false;
  bool copy_searched = false;
};

// One matched record: an entry of its transcript with at least one matched unit.
struct RecordHit {
  size_t entry_index = 0;      // into TranscriptHits::ct.entries
  std::vector<UnitHit> units;  // unit order
};

// One exchange as a row, rendered by the worker that scanned its transcript (whose model is then released).
struct RenderedExchange {
  std::optional<EpochMs> started;  // the timeline key (nullopt: undated, sorted last)
  json row;
};

// Per transcript: the classified records the scan admitted (a prefilter may have left non-candidate records
// unparsed — turn openers are always parsed so turn indices are exact), and the matched records in file
// order. `ct.entries[i].record->line` is the physical line; sidecar entries have line 0. When the scan
// worker is done with a transcript, `ct` keeps only its identity (transcript, owner) unless the caller keeps
// the models (diagnosis, tests): the counts, rows and line positions below were taken from it first.
struct TranscriptHits {
  TranscriptHits() = default;
  TranscriptHits(size_t index, ClassifiedTranscript&& classified)
      : scope_index(index), ct(std::move(classified)) {}

  size_t scope_index = 0;  // position in Scope::transcripts
  ClassifiedTranscript ct;
  std::vector<RecordHit> hits;  // file order (sidecar entries last)
  uint64_t skipped_lines = 0;   // malformed + too large + torn tail (exact, whole file) + sidecar skips
  std::string unreadable;       // "<ref>: from line N on: …" when a compressed log stopped decoding
  uint64_t too_complex_lines = 0;
  // Tool results the pattern matched only in the copy of an MCP result Claude Code kept in mcpMeta (not
  // searched without --resolve-persisted), and --resolve-persisted pointers whose result could not be read.
  uint64_t hidden_copy_matches = 0;
  uint64_t unresolved_pointers = 0;
  uint64_t values_out_of_range = 0;  // numbers beyond a finite double, read as absent (whole file)
  size_t exchange_groups = 0;        // the exchanges its hits make (one per turn, drafts apart)
  bool sidecar_hit = false;          // a hit is a merged elicitation-sidecar record
  bool from_census = false;          // counted from a remembered label census: no model and no hits listed
  uint64_t census_matches = 0;       // from_census: the matched records it counted
  uint64_t matched_records() const { return from_census ? census_matches : hits.size(); }
  // --raw: where each matched record's line is (file order) and how many matched records were merged sidecar
  // records (they have no line); taken before the model is released.
  std::vector<LineRef> raw_lines;
  size_t raw_sidecar_hits = 0;
  // Zero-match diagnosis input: records the pattern matched that -t/-T excluded, per richest leaf.
  std::map<Label, uint64_t> excluded_by_label;
  uint64_t excluded_records = 0;
  // Superseded drafts the pattern matched: kept as hits, and the ones a label filter left out (a draft's
  // only label, user.unsent, is outside a bare `user` selector), so the disclosure counts both.
  uint64_t draft_hits = 0;
  uint64_t drafts_excluded_by_label = 0;
  // --resolve-persisted: every saved result its pointers name that was not read, in file order.
  std::vector<SavedResultUnread> saved_unread;
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
  bool memo_active = false;
  uint64_t memo_hits = 0, memo_rescreened = 0, memo_misses = 0, memo_appended = 0, memo_bytes_not_read = 0;
  uint64_t memo_rendered_hits = 0, memo_covers_built = 0, memo_texts_ruled_out = 0;
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
