// `search` (SPEC.md §9.2): parse -> resolve the scope -> scan (search_scan.cpp) -> one terminal mode:
// exchanges (default), -c, -l, --raw, or --count-by (search_census, built on the same scan).
#include "tools/search/search.h"

#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/cache/result_memo_report.h"
#include "core/cache/scan_memo.h"
#include "tools/common/scope_args.h"
#include "tools/common/unread_report.h"
#include "tools/search/search_envelope.h"

#include "tools/search/search_census.h"
#include "tools/search/search_siblings.h"

namespace csift {
namespace {

constexpr size_t kMaxTranscriptIds = 100;

json strings_json(const std::vector<std::string>& v) {
  json out = json::array();
  for (const auto& s : v)
    out.push_back(s);
  return out;
}

json exchange_row(const SearchRequest& req, const TranscriptHits& th, const Exchange& x) {
  json row = th.ct.owner.row("exchange");
  row["turn_index"] = x.turn_index >= 0 ? json(x.turn_index) : json(nullptr);
  row["started_utc"] = x.started ? json(x.started_utc) : json(nullptr);
  row["started_local"] = x.started ? json(format_local_iso(*x.started)) : json(nullptr);
  row["superseded_draft"] = x.superseded_draft;
  row["sidechain"] = x.sidechain;
  row["record_uuids"] = strings_json(x.record_uuids);
  row["hits"] = json::array();   // what matched, and nothing else
  row["frame"] = json::array();  // the round trip around it: opener, tool partners, end-of-turn answer
  for (const ExchangeUnit& u : x.units) {
    if (u.unit_hit) {
      row["hits"].push_back(search_hit_json(req, th, *u.record_hit, *u.unit_hit));
      continue;
    }
    // A frame unit: its head, rendered under its richest label.
    const HitInput in = hit_input_of(th, u.entry_index, u.unit_index);
    const ExcerptPolicy policy = req.no_truncate ? ExcerptPolicy::full_text() : ExcerptPolicy::centered(0, 0);
    json hit = build_hit_json(in, policy, HitJsonOptions{"hit", true});
    hit["matched"] = false;
    hit["frame"] = frame_role_name(u.frame);
    row["frame"].push_back(std::move(hit));
  }
  return row;
}

// A server's scan memo: this call's hits (files answered from memory, never opened), rescreens (remembered,
// but a needle may occur) and misses, the screens and covers it left for after its reply, and what the memo
// holds. Absent when no memo is installed (the CLI).
json scan_memo_json(const SearchScan& scan) {
  const ScanMemo::Usage use = scan.memo->usage();
  return json{{"hits", scan.memo_hits},
              {"rescreened", scan.memo_rescreened},
              {"misses", scan.memo_misses},
              {"appended", scan.memo_appended},
              {"bytes_not_read", scan.memo_bytes_not_read},
              {"rendered_hits", scan.memo_rendered_hits},
              {"covers_built", scan.memo_covers_built},
              {"screens_deferred", scan.memo_screens_deferred},
              {"covers_deferred", scan.memo_covers_deferred},
              {"texts_ruled_out", scan.memo_texts_ruled_out},
              {"entries", use.entries},
              {"bytes_held", use.bytes},
              {"budget_bytes", use.budget},
              {"evictions", use.evictions},
              {"declined", use.declined}};
}

// Per-transcript facts of the summary (counts, ids, the sidecar note).
void summarize_scan(Envelope& env, const SearchRequest& req, const Scope& scope, const SearchScan& scan) {
  json ids = json::array();
  bool sidecar = false;
  for (const auto& th : scan.transcripts) {
    if (ids.size() < kMaxTranscriptIds) ids.push_back(th.ct.owner.id);
    sidecar = sidecar || th.sidecar_hit;
  }
  env.summary["transcript_ids"] = ids;
  env.summary["transcript_ids_truncated"] = scan.transcripts.size() > kMaxTranscriptIds;
  env.summary["skipped_lines"] = scan.skipped_lines;
  env.summary["too_complex_lines"] = scan.too_complex_lines;
  env.summary["values_out_of_range"] = scan.values_out_of_range;
  env.summary["matched_records"] = scan.matched_records;
  env.summary["with_elicitation_sidecar"] = sidecar;
  env.summary["definitive_absence"] = false;
  env.summary["active_filters"] = active_filters_text(req);
  env.summary["excluded_by_label"] = nullptr;
  env.summary["gated_leaves_unreached"] = gated_leaves_unreached(req);
  if (scan.memo) env.summary["scan_memo"] = scan_memo_json(scan);
  if (scan.census_use) report_result_memo_usage(env, *scan.census_use);
  // One disk report for the call: its screens' lookups and its censuses'.
  DiskCacheCounts disk = scan.screens_disk;
  if (scan.census_use) disk += scan.census_use->disk;
  report_disk_cache(env, disk);
  if (sidecar) env.notes.push_back("with elicitation sidecar");
  if (scan.too_complex_lines > 0) {
    env.notes.push_back(
        "\xE2\x9A\xA0 " + std::to_string(scan.too_complex_lines) + " line(s) were too complex for \"" +
        req.pattern +
        "\" (the DFA state set outgrew its bound): they were NOT searched by this pattern; simplify "
        "nested repeats such as (a+)+");
  }
  for (const auto& n : scan.notes)
    env.notes.push_back(n);
  report_unread(env, unread_in(scope, scan));
  report_saved_unread(env, scan);
  report_stores(env, scope);
}

// In the worker that scanned the transcript: its exchanges as rows, offered to the timeline (the model is
// released after). A row the cap would drop anyway is counted, not rendered.
void render_exchanges(const SearchRequest& req, TranscriptHits& th, ExchangeTimeline& timeline) {
  const std::vector<Exchange> xs = transcript_exchanges(th);
  for (size_t i = 0; i < xs.size(); ++i) {
    const Exchange& x = xs[i];
    const auto key = ExchangeTimeline::key_of(x.started, th.scope_index, i);
    if (!timeline.admits(key)) {
      timeline.offer(key, x.started, json());
      continue;
    }
    json row = exchange_row(req, th, x);
    if (req.siblings) add_siblings(row, req, th.ct, x);
    timeline.offer(key, x.started, std::move(row));
  }
}

// The transcripts with a matched exchange, before any cap: what banners and footers count.
size_t transcripts_matched(const SearchScan& scan) {
  std::set<std::string> ids;
  for (const auto& th : scan.transcripts) {
    if (th.exchange_groups > 0) ids.insert(th.ct.owner.id);
  }
  return ids.size();
}

void fill_exchanges(Envelope& env, const SearchScan& scan, ExchangeTimeline& timeline) {
  ExchangeList list = timeline.finish();
  std::set<std::string> sessions;
  bool truncated = false;
  for (RenderedExchange& x : list.kept) {
    json& row = x.row;
    sessions.insert(row["session_id"].get<std::string>());
    for (const char* part : {"hits", "frame"})
      for (const auto& h : row[part])
        truncated = truncated || h.value("excerpt_truncated", false);
    env.rows.push_back(std::move(row));
  }
  env.summary["matched"] = list.kept.size();
  env.summary["matched_total"] = list.matched;
  env.summary["dropped_by_cap"] = list.dropped_by_cap;
  env.summary["dropped_side"] = list.dropped_side.empty() ? json(nullptr) : json(list.dropped_side);
  env.summary["sessions"] = transcripts_matched(scan);
  env.summary["sessions_shown"] = sessions.size();
  env.summary["undated_last"] = list.undated;
  env.summary["excerpts_truncated"] = truncated;
}

// The superseded-draft disclosure: every matched draft, whether shown, cut by the cap or excluded by a label
// filter (a draft's label, user.unsent, is outside a bare `user`).
void disclose_drafts(Envelope& env, const SearchScan& scan) {
  env.summary["superseded_drafts"] = scan.draft_hits + scan.drafts_excluded_by_label;
  env.summary["superseded_drafts_excluded_by_label"] = scan.drafts_excluded_by_label;
}

void fill_sessions(Envelope& env, const SearchScan& scan, const ExchangeCount& list) {
  std::set<std::string> owners;
  for (const auto& th : scan.transcripts)
    owners.insert(th.ct.owner.parent_session_id);
  for (const auto& id : owners)
    env.add_row("session")["session_id"] = id;
  env.summary["sessions"] = owners.size();
  env.summary["matched"] = list.matched;
  if (list.dropped_by_cap > 0) {
    env.notes.push_back("note: " + arg_ref("sessions_with_matches", true) + " is uncapped; " +
                        arg_ref("max_count") + " would have dropped " + std::to_string(list.dropped_by_cap) +
                        " exchange(s)");
  }
}

// Only a scope of whole projects makes an unfiltered empty pattern a flood: a session target is a bounded
// read the caller asked for.
void empty_pattern_warning(Envelope& env, const SearchRequest& req, const Scope& scope) {
  if (!req.pattern.empty() || req.has_filter() || !scope.project_wide) return;
  env.notes.push_back(
      "warning: empty pattern with no category/time/turn/session filter matches every label-eligible record "
      "and will emit a lot; narrow it with " +
      arg_ref("label", true) + ", " + arg_ref("since") + "/" + arg_ref("until") + ", " + arg_ref("turn") +
      " or a target");
}

}  // namespace

Envelope search_envelope_base(const SearchRequest& req, const Scope& scope) {
  Envelope env = Envelope::make("search");
  env.header["pattern"] = req.pattern;
  echo_scope_counts(scope, env.header);
  env.header["mode"] = req.mode == SearchMode::exchanges               ? "exchanges"
                       : req.mode == SearchMode::count_only            ? "count_only"
                       : req.mode == SearchMode::sessions_with_matches ? "sessions_with_matches"
                       : req.mode == SearchMode::raw                   ? "raw"
                                                                       : "count_by";
  env.header["label"] = strings_json(req.labels.include_selectors);
  env.header["label_not"] = strings_json(req.labels.exclude_selectors);
  echo_time_window(req.window, env.header);
  return env;
}

Envelope run_search(const json& args, ToolContext& ctx) {
  const SearchRequest req = parse_search_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  // Exchange rows and census counts are made by the worker that scanned each transcript (its model is
  // released after), so memory follows the largest transcript, not the scope.
  ExchangeTimeline timeline(req.max_count);
  CensusTally census(req, scope.transcripts.size() > 1);
  std::function<void(TranscriptHits&)> finish;
  if (req.mode == SearchMode::exchanges)
    finish = [&](TranscriptHits& th) { render_exchanges(req, th, timeline); };
  if (req.mode == SearchMode::count_by) finish = [&](TranscriptHits& th) { census.add(th); };
  if (req.mode == SearchMode::raw) finish = take_raw_lines;
  SearchScan scan = run_search_scan(req, scope, ctx, /*diagnose_labels=*/false, finish);
  // A cancelled scan is partial: never present it (or a zero-match "definitive absence") as the answer.
  if (scan.cancelled) failure_error("search was cancelled");
  if (req.mode == SearchMode::count_by) {
    // The census helper owns the envelope of --count-by (rows {kind:"census", axis, key, records}).
    Envelope env = census_envelope(req, scope, scan, census.finish());
    for (const auto& n : scope.notes)
      env.notes.insert(env.notes.begin(), n);
    report_unread(env, unread_in(scope, scan));
    report_saved_unread(env, scan);
    report_stores(env, scope);
    // An empty census is the same answer as an empty exchange list: a definitive absence, with the label
    // probe, so an agent counting by label learns the pattern lives under a label its -t excluded.
    env.summary["definitive_absence"] = false;
    if (scan.matched_records == 0) diagnose_zero_match(env, req, scope, scan, ctx);
    if (ctx.cancelled()) failure_error("search was cancelled");
    return env;
  }
  Envelope env = search_envelope_base(req, scope);
  env.notes = scope.notes;
  for (const auto& n : req.notes)
    env.notes.push_back(n);
  empty_pattern_warning(env, req, scope);
  summarize_scan(env, req, scope, scan);
  switch (req.mode) {
    case SearchMode::raw:
      fill_raw_rows(env, scan);
      break;
    case SearchMode::sessions_with_matches:
      fill_sessions(env, scan, count_exchanges(scan, req.max_count));
      break;
    case SearchMode::count_only: {
      // A count is the true total: the cap bounds rows, and -c prints none.
      const ExchangeCount counted = count_exchanges(scan, req.max_count);
      env.summary["matched"] = counted.matched;
      env.summary["matched_total"] = counted.matched;
      env.summary["dropped_by_cap"] = 0;
      env.summary["sessions"] = transcripts_matched(scan);
      if (counted.dropped_by_cap > 0) {
        env.notes.push_back("note: " + arg_ref("count_only", true) + " counts every matched exchange (" +
                            std::to_string(counted.matched) + "); it is uncapped, and " +
                            arg_ref("max_count") + " would have kept " + std::to_string(counted.kept));
      }
      break;
    }
    default:
      fill_exchanges(env, scan, timeline);
  }
  if (req.mode != SearchMode::raw) disclose_drafts(env, scan);
  if (scan.matched_records == 0) diagnose_zero_match(env, req, scope, scan, ctx);
  if (ctx.cancelled()) failure_error("search was cancelled");  // the diagnosis probe was cut short
  return env;
}

}  // namespace csift
