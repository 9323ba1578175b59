#include "core/store/store_warm_up.h"

#include <chrono>
#include <optional>

#include "core/base/call_activity.h"
#include "core/cache/byte_budget_lru.h"
#include "core/cache/scan_memo.h"
#include "core/store/discovery_memo.h"
#include "core/store/remembered_probe.h"
#include "core/store/targets.h"
#include "core/store/watched_stamps.h"

namespace csift {

namespace {

// The walk an unscoped call makes; nullopt when there is no store to walk (the first call says why).
std::optional<Scope> walk_store(const Environment& env) {
  try {
    return TargetResolver(env, std::nullopt).resolve(TargetRequest{});
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

StoreWarmUp::StoreWarmUp(Environment env, bool on, TranscriptStep also, int64_t uncalled_watches_ns) {
  if (!on || process_discovery_memo() == nullptr) return;
  watched_ = process_watched_stamps();
  if (watched_) {
    // Kept: every answer of this walk comes from a watch.
    watched_->set_after_watching([env] { (void)walk_store(env); });
  }
  thread_ = std::thread([this, env = std::move(env), also = std::move(also), uncalled_watches_ns] {
    // No call has begun: none under way, and none has ended.
    const auto uncalled = [] { return calls_under_way() == 0 && last_call_end_ns() == 0; };
    const int64_t start = steady_clock_ns();
    while (steady_clock_ns() - start < kStartQuietNs) {
      if (stop_.load() || !uncalled()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const Report done = run(
        env, [&] { return !stop_.load() && uncalled(); }, also);
    // The walk's looks were noted, not watched (a call's are watched after its reply): watched now, on the
    // stamps' thread while no call is under way, and the walk made again, so the first call answers it
    // from memory as a warm server's repeat does. Only when the whole store fits in the server's share of
    // watches: past it no walk is kept, and an uncalled server would hold watches for a few stats saved.
    if (!watched_ || uncalled_watches_ns <= 0 || !done.walked || done.stopped || !uncalled() ||
        !watched_->has_noted() || !watched_->noted_fit_share())
      return;
    watched_->watch_noted_later();
    const int64_t watched_at = steady_clock_ns();
    while (!stop_.load() && uncalled()) {
      if (steady_clock_ns() - watched_at >= uncalled_watches_ns) {
        (void)watched_->unwatch_all();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

StoreWarmUp::~StoreWarmUp() {
  if (watched_) watched_->set_after_watching({});
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

StoreWarmUp::Report StoreWarmUp::run(const Environment& env, const std::function<bool()>& go_on,
                                     const TranscriptStep& also) {
  Report out;
  if (!go_on()) return out;
  const std::optional<Scope> scope = walk_store(env);
  if (!scope) return out;
  out.walked = true;
  out.transcripts = scope->transcripts.size();
  ScanMemo* memo = process_scan_memo();
  const uint64_t call = new_lru_call();  // one call's entries: none evicts another of them
  ResultMemoUse probes;
  for (const Transcript& t : scope->transcripts) {
    if (!go_on()) {
      out.stopped = true;
      break;
    }
    const std::optional<FileStamp> stamp = discovered_stamp(t);
    if (memo && stamp && memo->find(t.path, *stamp, call)) ++out.screens;
    if (recall_stored_probe(t, probes)) ++out.probes;
    if (also && also(t)) ++out.also;
  }
  return out;
}

}  // namespace csift
