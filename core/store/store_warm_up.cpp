#include "core/store/store_warm_up.h"

#include <chrono>

#include "core/base/call_activity.h"
#include "core/cache/byte_budget_lru.h"
#include "core/cache/scan_memo.h"
#include "core/store/discovery_memo.h"
#include "core/store/remembered_probe.h"
#include "core/store/targets.h"

namespace csift {

StoreWarmUp::StoreWarmUp(Environment env, bool on, TranscriptStep also) {
  if (!on || process_discovery_memo() == nullptr) return;
  thread_ = std::thread([this, env = std::move(env), also = std::move(also)] {
    // No call has begun: none under way, and none has ended.
    const auto uncalled = [] { return calls_under_way() == 0 && last_call_end_ns() == 0; };
    const int64_t start = steady_clock_ns();
    while (steady_clock_ns() - start < kStartQuietNs) {
      if (stop_.load() || !uncalled()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    (void)run(
        env, [&] { return !stop_.load() && uncalled(); }, also);
  });
}

StoreWarmUp::~StoreWarmUp() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

StoreWarmUp::Report StoreWarmUp::run(const Environment& env, const std::function<bool()>& go_on,
                                     const TranscriptStep& also) {
  Report out;
  if (!go_on()) return out;
  Scope scope;
  try {
    scope = TargetResolver(env, std::nullopt).resolve(TargetRequest{});
  } catch (...) {
    return out;  // no store, or one that cannot be read: the first call says why
  }
  out.walked = true;
  out.transcripts = scope.transcripts.size();
  ScanMemo* memo = process_scan_memo();
  const uint64_t call = new_lru_call();  // one call's entries: none evicts another of them
  ResultMemoUse probes;
  for (const Transcript& t : scope.transcripts) {
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
