#include "tools/list/list.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>

#include "core/base/error.h"
#include "core/base/timefmt.h"
#include "core/cache/result_memo_report.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/clone_lineage.h"
#include "core/store/remembered_probe.h"
#include "core/store/retention.h"
#include "tools/common/retention_notes.h"
#include "tools/common/scope_args.h"
#include "tools/common/unread_report.h"
#include "tools/list/list_row.h"
#include "tools/list/remembered_list_row.h"

namespace csift {
namespace {

// An unscoped listing floods the reader's context, so it keeps the 50 most recently active sessions.
constexpr size_t kUnscopedDefaultCap = 50;

// Probes every transcript on oneTBB workers; results stay in scope order.
std::vector<ListEntry> probe_all(const Scope& scope, ToolContext& ctx, ResultMemoUse& memo_use) {
  const size_t n = scope.transcripts.size();
  std::vector<ListEntry> entries(n);
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  tbb::parallel_for(size_t{0}, n, [&](size_t i) {
    if (ctx.cancelled()) return;
    const Transcript& t = scope.transcripts[i];
    entries[i].transcript = &t;
    entries[i].probe = remembered_probe(t, memo_use);
    entries[i].sidecar = read_sidecar_status(t);
    const size_t finished = ++done;
    if (ctx.progress) {
      std::lock_guard<std::mutex> lock(progress_mutex);
      ctx.progress(static_cast<double>(finished), static_cast<double>(n), "probed " + t.path);
    }
  });
  if (ctx.cancelled()) failure_error("list was cancelled");
  return entries;
}

void join_clone_origins(std::vector<ListEntry>& entries) {
  tbb::parallel_for(size_t{0}, entries.size(), [&](size_t i) {
    ListEntry& e = entries[i];
    if (e.probe->is_clone) e.clone_of = find_clone_origin(*e.transcript, e.probe->clone_boundary_uuid);
  });
}

json build_header(const Scope& scope, const TimeWindow& window) {
  json header = span_header("list", scope);
  echo_time_window(window, header);
  return header;
}

struct ListCounts {
  size_t outside_window = 0;
  size_t dropped_by_cap = 0;
  std::optional<size_t> cap;
};

// A note for each kept session whose compressed log stopped decoding part way (its probe read up to there).
std::vector<std::string> unreadable_notes(const std::vector<ListEntry>& kept) {
  std::vector<std::string> out;
  for (const auto& e : kept)
    if (!e.probe->unreadable.empty()) out.push_back(e.transcript->id + ": " + e.probe->unreadable);
  return out;
}

void fill_summary(Envelope& env, const std::vector<ListEntry>& kept, const ListCounts& counts) {
  uint64_t skipped = 0, bytes = 0, bytes_read = 0;
  size_t pending = 0, clones = 0;
  for (const auto& e : kept) {
    skipped += e.probe->skipped_lines + e.sidecar.skipped_lines;
    bytes += e.transcript->size;
    bytes_read += e.probe->bytes_read;
    pending += e.sidecar.pending.size();
    clones += e.probe->is_clone ? 1 : 0;
  }
  json& s = env.summary;
  s["sessions"] = kept.size();
  s["dropped_by_cap"] = counts.dropped_by_cap;
  s["max_count"] = counts.cap ? json(*counts.cap) : json(nullptr);
  s["outside_window"] = counts.outside_window;
  s["skipped_lines"] = skipped;
  s["census_scope"] = "head/tail windows";
  s["window_note"] = skipped == 0
                         ? json(nullptr)
                         : json("skipped " + std::to_string(skipped) +
                                " malformed line(s) among the head/tail lines read — full census: stats");
  s["clones"] = clones;
  s["pending_elicitations"] = pending;
  s["with_elicitation_sidecar"] = pending > 0;
  s["bytes"] = bytes;
  s["bytes_read"] = bytes_read;
}

}  // namespace

Envelope run_list(const json& args, ToolContext& ctx) {
  const TimeWindow window = parse_time_window(args);
  // Shared with the deferred rows, whose entries point at its transcripts.
  const auto scoped = std::make_shared<const Scope>(resolve_span_scope(args, ctx));
  const Scope& scope = *scoped;
  ListCounts counts;
  counts.cap = effective_row_cap(args, scope.unscoped, kUnscopedDefaultCap);

  // Shared with the deferred rows, which count their own lookups into it.
  const auto memo_use = std::make_shared<ResultMemoUse>();
  std::vector<ListEntry> entries = probe_all(scope, ctx, *memo_use);
  std::vector<StoreProblem> unread = scope.problems;
  for (const auto& e : entries) {
    if (!e.probe->error.empty()) unread.push_back({e.transcript->path, e.probe->error});
  }
  std::vector<ListEntry> in_window;
  for (auto& e : entries) {
    if (probe_span_meets(*e.probe, window)) in_window.push_back(std::move(e));
  }
  counts.outside_window = entries.size() - in_window.size();

  std::vector<ListEntry> kept;
  if (counts.cap && in_window.size() > *counts.cap) {
    std::vector<int64_t> activity;
    for (const auto& e : in_window)
      activity.push_back(most_recent_activity(*e.probe));
    for (size_t i : keep_most_recent(activity, *counts.cap))
      kept.push_back(std::move(in_window[i]));
  } else {
    kept = std::move(in_window);
  }
  counts.dropped_by_cap = entries.size() - counts.outside_window - kept.size();
  join_clone_origins(kept);
  // Days left before Claude Code's cleanup, per kept row; never remembered with the row (it moves with the
  // clock and with settings.json).
  const CleanupPeriod period = claude_cleanup_period(scope.claude_home);
  const EpochMs now = now_ms();
  auto expiry = std::make_shared<std::vector<std::optional<int64_t>>>();
  size_t expiring = 0;
  for (const auto& e : kept) {
    expiry->push_back(expires_in_days(*e.transcript, period, now));
    expiring += expiry->back() ? 1 : 0;
  }

  Envelope env = Envelope::make("list");
  env.header = build_header(scope, window);
  fill_summary(env, kept, counts);
  std::vector<std::string> unreadable = unreadable_notes(kept);
  if (expiring > 0) env.summary["expiring"] = expiring_summary(expiring, period);
  // Rows are made only as a page shows them: on a warm call each is a copy of a remembered row, and copying
  // (then freeing) the 1,460 of 1,501 that a default page leaves out was a third of the call. The memo's
  // report counts the rows made, so it is written once the pager is done.
  auto entries_left = std::make_shared<std::vector<ListEntry>>(std::move(kept));
  env.deferred.count = entries_left->size();
  // The call's memo is the process's, which outlives the rows.
  env.deferred.make = [scoped, entries_left, memo = ctx.result_memo, memo_use, expiry](size_t i) {
    json row = remembered_list_row((*entries_left)[i], memo, *memo_use);
    if ((*expiry)[i]) row["expires_in_days"] = *(*expiry)[i];
    return row;
  };
  env.deferred.settle = [memo_use](Envelope& e) { report_result_memo(e, *memo_use); };
  report_result_memo(env, *memo_use);  // its place among the summary's fields; settle fills it in
  env.notes = scope.notes;
  if (!period.note.empty() && scope.claude_store_read) env.notes.push_back(period.note);
  for (std::string& note : unreadable)
    env.notes.push_back(std::move(note));
  report_unread(env, unread);
  report_stores(env, scope);
  return env;
}

}  // namespace csift
