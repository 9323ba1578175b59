// Internal: the pieces run_search assembles an envelope from (search.cpp, search_diagnose.cpp,
// search_raw.cpp).
#pragma once
#include <string>
#include <vector>

#include "tools/search/search_exchange.h"
#include "tools/search/search_types.h"

namespace csift {

// The header every search envelope opens with.
Envelope search_envelope_base(const SearchRequest& req, const Scope& scope);
// `-t a,b · -T c · --since … · --turn …` or "none".
std::string active_filters_text(const SearchRequest& req);
// What the search did not read: the scope's unreadable entries, then the transcripts whose read failed.
std::vector<StoreProblem> unread_in(const Scope& scope, const SearchScan& scan);
// Zero-match diagnosis: stderr notes plus summary fields (definitive_absence, active_filters,
// excluded_by_label, gated_leaves_unreached).
void diagnose_zero_match(Envelope& env, const SearchRequest& req, const Scope& scope, const SearchScan& scan,
                         ToolContext& ctx);
// --raw: each matched record's verbatim line, deduped, scope order.
// --raw in two steps: the worker notes where each matched line is (before the model is released), then the
// lines are read back verbatim (core/scan/line_fetch.h) in scope and file order.
void take_raw_lines(TranscriptHits& th);
void fill_raw_rows(Envelope& env, const SearchScan& scan);
// --resolve-persisted: the summary's `saved_results_unread` (every saved result not read: where, why, refused
// or missing, copy searched or not), when there is one.
void report_saved_unread(Envelope& env, const SearchScan& scan);
// The gated leaves no selector reached (the zero-match note and JSON summary).
std::vector<std::string> gated_leaves_unreached(const SearchRequest& req);

}  // namespace csift
