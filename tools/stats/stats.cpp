#include "tools/stats/stats.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <mutex>
#include <numeric>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/cache/result_memo_report.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/remembered_probe.h"
#include "tools/common/scope_args.h"
#include "tools/common/unread_report.h"
#include "tools/stats/remembered_scope_figures.h"
#include "tools/stats/remembered_tally.h"
#include "tools/stats/stats_row.h"
#include "tools/stats/stats_tally.h"

namespace csift {
namespace {

std::optional<RangeSpec> turn_arg(const json& args) {
  if (!args.contains("turn") || !args["turn"].is_string() || args["turn"].get<std::string>().empty()) {
    return std::nullopt;
  }
  return parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
}

struct Selection {
  std::vector<size_t> indices;  // transcripts to tally, in scope order
  size_t dropped_by_cap = 0;
  size_t outside_window = 0;  // dropped before tallying: the probed activity span misses the window
};

// A cap keeps the N most recently active transcripts, ranked by the cheap head/tail probe so only the kept
// ones pay for the full scan. Without a cap every transcript is tallied.
Selection select_transcripts(const Scope& scope, const TimeWindow& window, std::optional<size_t> cap,
                             ResultMemoUse& memo_use) {
  Selection sel;
  const size_t n = scope.transcripts.size();
  if (!cap || n <= *cap) {
    sel.indices.resize(n);
    std::iota(sel.indices.begin(), sel.indices.end(), size_t{0});
    return sel;
  }
  std::vector<std::shared_ptr<const SessionProbe>> probes(n);
  tbb::parallel_for(size_t{0}, n,
                    [&](size_t i) { probes[i] = remembered_probe(scope.transcripts[i], memo_use); });
  std::vector<size_t> candidates;
  std::vector<int64_t> activity;
  for (size_t i = 0; i < n; ++i) {
    if (!probe_span_meets(*probes[i], window)) continue;
    candidates.push_back(i);
    activity.push_back(most_recent_activity(*probes[i]));
  }
  sel.outside_window = n - candidates.size();
  for (size_t k : keep_most_recent(activity, *cap))
    sel.indices.push_back(candidates[k]);
  sel.dropped_by_cap = candidates.size() - sel.indices.size();
  return sel;
}

// The caches the call's context carries (a server's memo and disk cache; the CLI's disk cache).
StatsCaches caches_of(const ToolContext& ctx) {
  return StatsCaches{ctx.result_memo, ctx.disk_cache};
}

// Tallies are shared with the server's result memo (never modified), so a warm call copies none of them.
using SharedTallies = std::vector<std::shared_ptr<const TranscriptTally>>;

SharedTallies tally_all(const Scope& scope, const Selection& sel, const StatsWindow& window, ToolContext& ctx,
                        ResultMemoUse& memo_use) {
  SharedTallies tallies(sel.indices.size());
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  tbb::parallel_for(size_t{0}, sel.indices.size(), [&](size_t k) {
    if (ctx.cancelled()) return;
    const Transcript& t = scope.transcripts[sel.indices[k]];
    tallies[k] = remembered_tally(t, window, ctx.cancel, caches_of(ctx), memo_use);
    const size_t finished = ++done;
    if (ctx.progress) {
      std::lock_guard<std::mutex> lock(progress_mutex);
      ctx.progress(static_cast<double>(finished), static_cast<double>(sel.indices.size()),
                   "counted " + t.path);
    }
  });
  if (ctx.cancelled()) failure_error("stats was cancelled");
  return tallies;
}

// Under a window, a transcript none of whose records fall inside it is left out (and counted), not shown as
// a row of zeros.
bool counted_nothing(const TranscriptTally& t) {
  return t.user_records == 0 && t.assistant_records == 0 && t.first_timestamp.empty() && t.error.empty();
}

json build_header(const Scope& scope, const StatsWindow& window) {
  json header = span_header("stats", scope);
  echo_time_window(window.time, header);
  header["turn"] = window.turn ? json(window.turn->text) : json(nullptr);
  return header;
}

}  // namespace

Envelope run_stats(const json& args, ToolContext& ctx) {
  const StatsWindow window{parse_time_window(args), turn_arg(args)};
  // Shared with the deferred rows, whose sources point at its transcripts.
  const auto scoped = std::make_shared<const Scope>(resolve_span_scope(args, ctx));
  const Scope& scope = *scoped;
  const std::optional<size_t> cap = effective_row_cap(args, scope.unscoped, std::nullopt);
  // Shared with the deferred rows, which count their own lookups into it.
  const auto memo_use = std::make_shared<ResultMemoUse>();
  Selection sel = select_transcripts(scope, window.time, cap, *memo_use);

  Envelope env = Envelope::make("stats");
  env.header = build_header(scope, window);
  auto sources = std::make_shared<StatsRowSources>();
  std::vector<StoreProblem> unread = scope.problems;
  std::shared_ptr<const StatsScopeFigures> figures;
  // An unbounded window counts every selected transcript: over an unchanged scope its figures are
  // remembered by the transcripts' stamps, and no tally is needed but the shown rows'.
  std::optional<ScopeStamps> stamps;
  if (!window.bounded()) {
    for (const size_t i : sel.indices)
      sources->transcripts.push_back(&scope.transcripts[i]);
    stamps = scope_stamps(sources->transcripts, memo_use->disk.began);
    if (stamps) figures = recalled_scope_figures(*stamps, caches_of(ctx), *memo_use);
  }
  if (!figures) {
    const SharedTallies tallies = tally_all(scope, sel, window, ctx, *memo_use);
    sources->transcripts.clear();
    bool read_all = true;
    for (size_t k = 0; k < tallies.size(); ++k) {
      const TranscriptTally& tally = *tallies[k];
      const Transcript& t = scope.transcripts[sel.indices[k]];
      if (!tally.error.empty()) {
        unread.push_back({t.path, tally.error});
        read_all = false;
      }
      if (window.bounded() && counted_nothing(tally)) {
        ++sel.outside_window;
        continue;
      }
      sources->tallies.push_back(tallies[k]);
      sources->transcripts.push_back(&t);
    }
    figures = remembered_scope_figures(sources->tallies, sources->transcripts, ctx.result_memo, *memo_use);
    if (stamps && read_all && !ctx.cancelled())
      keep_scope_figures(*stamps, figures, caches_of(ctx), *memo_use);
  }
  apply_scope_figures(figures, sources, caches_of(ctx), memo_use, scoped, env);
  const std::string cost_by =
      args.contains("cost_by") && args["cost_by"].is_string() ? args["cost_by"].get<std::string>() : "";
  if (cost_by != "day") env.summary.erase(kCostByDay);
  if (cost_by != "project") env.summary.erase(kCostByProject);
  env.summary["dropped_by_cap"] = sel.dropped_by_cap;
  env.summary["max_count"] = cap ? json(*cap) : json(nullptr);
  env.summary["outside_window"] = sel.outside_window;
  // The memo's report counts the rows made, so it is written once the pager is done.
  env.deferred.settle = [memo_use](Envelope& e) { report_result_memo(e, *memo_use); };
  report_result_memo(env, *memo_use);  // its place among the summary's fields; settle fills it in
  env.notes = scope.notes;
  report_unread(env, unread);
  report_stores(env, scope);
  return env;
}

}  // namespace csift
