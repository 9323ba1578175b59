#include "tools/recover/recover_scan.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

#include "core/base/error.h"

namespace csift {

ScopeContent scan_scope_content(const Scope& scope, const std::vector<std::string>& files, ToolContext& ctx) {
  ScopeContent out;
  out.per_transcript.resize(scope.transcripts.size());
  std::atomic<size_t> done{0};
  std::mutex progress_mutex;
  tbb::parallel_for(size_t{0}, scope.transcripts.size(), [&](size_t i) {
    if (ctx.cancelled()) return;
    out.per_transcript[i] = scan_content_events(scope.transcripts[i], files, ctx.cancel);
    const size_t finished = ++done;
    if (ctx.progress) {
      std::lock_guard<std::mutex> lock(progress_mutex);
      ctx.progress(static_cast<double>(finished), static_cast<double>(scope.transcripts.size()),
                   "read " + scope.transcripts[i].path);
    }
  });
  if (ctx.cancelled()) failure_error("recover was cancelled");
  for (size_t i = 0; i < out.per_transcript.size(); ++i) {
    const TranscriptContent& c = out.per_transcript[i];
    (c.screened_out ? out.screened_out : out.parsed) += 1;
    out.skipped_lines += c.skipped_lines;
    if (!c.error.empty()) out.read_errors.push_back(scope.transcripts[i].path + ": " + c.error);
  }
  return out;
}

namespace {

struct Candidate {
  std::string order_ts;  // the latest timestamp seen so far in its transcript (keeps file order)
  size_t transcript = 0;
  size_t seq = 0;
  const ContentEvent* event = nullptr;
};

bool in_window(const ContentEvent& e, int turns, const RecoverRequest& req) {
  if (req.turn) {
    const auto range = resolve_range(*req.turn, 0, turns - 1);
    if (!range || e.turn < range->lo || e.turn > range->hi) return false;
  }
  if (req.window.bounded()) {
    const auto t = parse_iso8601(e.timestamp);
    if (!t || !req.window.contains(*t)) return false;
  }
  switch (req.cutoff.kind) {
    case RecoverCutoff::Kind::turn:
      return e.turn <= req.cutoff.value;
    case RecoverCutoff::Kind::line:
      return static_cast<int64_t>(e.line) <= req.cutoff.value;
    case RecoverCutoff::Kind::instant: {
      const auto t = parse_iso8601(e.timestamp);
      return t && *t <= req.cutoff.value;
    }
    default:
      return true;
  }
}

}  // namespace

FileRecovery recover_file(size_t target, const std::string& path, const Scope& scope,
                          const ScopeContent& content, const RecoverRequest& req) {
  FileRecovery fr;
  fr.path = path;
  std::vector<Candidate> kept;
  std::set<std::string> sessions;
  std::vector<uint64_t> first_line(scope.transcripts.size(), 0);
  for (size_t ti = 0; ti < content.per_transcript.size(); ++ti) {
    const TranscriptContent& tc = content.per_transcript[ti];
    std::string running;
    for (size_t k = 0; k < tc.events.size(); ++k) {
      const ContentEvent& e = tc.events[k];
      if (e.timestamp > running) running = e.timestamp;
      if (e.target != target) continue;
      ++fr.events_in_scope;
      if (!in_window(e, tc.turns, req)) {
        ++fr.events_outside;
        continue;
      }
      if (!first_line[ti]) first_line[ti] = e.line;
      kept.push_back({running, ti, k, &e});
      sessions.insert(scope.transcripts[ti].parent_session_id());
    }
  }
  std::stable_sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) {
    if (a.order_ts != b.order_ts) return a.order_ts < b.order_ts;
    if (a.transcript != b.transcript) return a.transcript < b.transcript;
    return a.seq < b.seq;
  });
  std::vector<OrderedEvent> ordered;
  for (const Candidate& c : kept)
    ordered.push_back({c.event, &scope.transcripts[c.transcript]});
  fr.replay = replay_events(ordered);
  if (!kept.empty()) fr.first_timestamp = kept.front().event->timestamp;
  fr.sessions.assign(sessions.begin(), sessions.end());
  for (size_t ti = 0; ti < content.per_transcript.size(); ++ti) {
    if (!first_line[ti]) continue;
    for (const OpaqueCommand& o : content.per_transcript[ti].opaque) {
      if (o.line < first_line[ti]) continue;
      ContentEvent probe;
      probe.turn = o.turn;
      probe.timestamp = o.timestamp;
      probe.line = o.line;
      if (!in_window(probe, content.per_transcript[ti].turns, req)) continue;
      fr.opaque.push_back({&o, &scope.transcripts[ti]});
    }
  }
  return fr;
}

}  // namespace csift
