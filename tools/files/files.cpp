#include "tools/files/files.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <mutex>
#include <set>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "tools/common/scope_args.h"
#include "tools/files/files_rows.h"
#include "tools/files/path_filter.h"

namespace csift {
namespace {

FilesDetail detail_arg(const json& args) {
  const std::string by = args.value("by", std::string("summary"));
  if (by == "dir") return FilesDetail::dir;
  if (by == "file") return FilesDetail::file;
  if (by == "timeline") return FilesDetail::timeline;
  return FilesDetail::summary;
}

std::optional<RangeSpec> turn_arg(const json& args) {
  if (!args.contains("turn") || !args["turn"].is_string() || args["turn"].get<std::string>().empty()) {
    return std::nullopt;
  }
  return parse_range(args["turn"].get<std::string>(), arg_ref("turn"), false);
}

struct FilesWindow {
  TimeWindow time;
  std::optional<RangeSpec> turn;
  const PathFilter* paths = nullptr;

  // turns: the transcript's turn count (a -k window counts from its end).
  bool admits(const std::string& path, const std::string& ts, int turn_index, int turns) const {
    if (turn) {
      const auto range = resolve_range(*turn, 0, turns - 1);
      if (!range || turn_index < range->lo || turn_index > range->hi) return false;
    }
    if (time.bounded()) {
      const auto t = parse_iso8601(ts);
      if (!t || !time.contains(*t)) return false;
    }
    return paths->admits(path);
  }
};

std::vector<TranscriptMutations> scan_all(const Scope& scope, ToolContext& ctx) {
  std::vector<TranscriptMutations> scans(scope.transcripts.size());
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  tbb::parallel_for(size_t{0}, scans.size(), [&](size_t i) {
    if (ctx.cancelled()) return;
    scans[i] = scan_file_mutations(scope.transcripts[i], ctx.cancel);
    const size_t finished = ++done;
    if (ctx.progress) {
      std::lock_guard<std::mutex> lock(progress_mutex);
      ctx.progress(static_cast<double>(finished), static_cast<double>(scans.size()),
                   "read " + scope.transcripts[i].path);
    }
  });
  if (ctx.cancelled()) failure_error("files was cancelled");
  return scans;
}

json build_header(const json& args, const Scope& scope, const FilesWindow& w, FilesDetail detail) {
  json header = span_header("files", scope);
  echo_time_window(w.time, header);
  header["turn"] = w.turn ? json(w.turn->text) : json(nullptr);
  header["by"] = detail_name(detail);
  header["regex"] = args.contains("regex") ? args["regex"] : json(nullptr);
  header["glob"] = args.contains("glob") ? args["glob"] : json(nullptr);
  return header;
}

struct Totals {
  uint64_t structured = 0, heuristic = 0, failed = 0, unconfirmed = 0, skipped = 0, read_errors = 0;
  std::set<std::string> files, owners;
};

}  // namespace

Envelope run_files(const json& args, ToolContext& ctx) {
  const FilesDetail detail = detail_arg(args);
  const PathFilter paths = PathFilter::from_args(args);
  const FilesWindow window{parse_time_window(args), turn_arg(args), &paths};
  const Scope scope = resolve_span_scope(args, ctx);
  const std::vector<TranscriptMutations> scans = scan_all(scope, ctx);

  std::vector<AttributedMutation> kept;
  std::vector<AttributedBoundary> boundaries;
  Totals totals;
  Envelope env = Envelope::make("files");
  for (size_t i = 0; i < scans.size(); ++i) {
    const Transcript& t = scope.transcripts[i];
    const TranscriptMutations& s = scans[i];
    totals.failed += s.failed;
    totals.unconfirmed += s.unconfirmed;
    totals.skipped += s.skipped_lines;
    if (!s.error.empty()) {
      ++totals.read_errors;
      env.notes.push_back("could not read " + t.path + ": " + s.error);
    }
    const std::string owner = t.parent_session_id().empty() ? t.id : t.parent_session_id();
    for (const FileMutation& m : s.mutations) {
      if (!window.admits(m.path, m.timestamp, m.turn, s.turns)) continue;
      (m.heuristic ? totals.heuristic : totals.structured) += 1;
      totals.files.insert(path_key(m.path));
      totals.owners.insert(owner);
      kept.push_back({&t, m});
    }
    for (const EditBoundary& b : s.boundaries) {
      if (!window.admits(b.path, b.timestamp, b.turn, s.turns)) continue;
      totals.owners.insert(owner);
      boundaries.push_back({&t, b});
    }
  }
  env.header = build_header(args, scope, window, detail);
  env.rows = mutation_rows(kept, detail);
  for (const auto& b : boundaries)
    env.rows.push_back(boundary_row(b));
  json& sum = env.summary;
  sum["sessions"] = totals.owners.size();
  sum["transcripts_scanned"] = scope.transcripts.size();
  sum["distinct_files"] = totals.files.size();
  sum["total_mutations"] = totals.structured + totals.heuristic;
  sum["structured_mutations"] = totals.structured;
  sum["heuristic_mutations"] = totals.heuristic;
  sum["edit_before_read_boundaries"] = boundaries.size();
  sum["failed_calls"] = totals.failed;
  sum["unconfirmed_calls"] = totals.unconfirmed;
  sum["skipped_lines"] = totals.skipped;
  sum["read_errors"] = totals.read_errors;
  sum["detail_level"] = detail_name(detail);
  for (const std::string& n : scope.notes)
    env.notes.push_back(n);
  return env;
}

}  // namespace csift
