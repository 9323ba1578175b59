#include "core/cache/result_memo_report.h"

namespace csift {

void report_result_memo(Envelope& env, const ResultMemoUse& use) {
  report_result_memo_usage(env, use);
  report_disk_cache(env, use.disk);
}

void report_result_memo_usage(Envelope& env, const ResultMemoUse& use) {
  if (const ResultMemo* memo = process_result_memo()) {
    const ResultMemo::Usage u = memo->usage();
    env.summary["result_memo"] =
        json{{"hits", use.hits.load()},  {"misses", use.misses.load()}, {"extended", use.extended.load()},
             {"entries", u.entries},     {"bytes_held", u.bytes},       {"budget_bytes", u.budget},
             {"evictions", u.evictions}, {"declined", u.declined}};
  }
}

DiskCacheCounts& DiskCacheCounts::operator+=(const DiskCacheUse& use) {
  hits += use.hits.load();
  misses += use.misses.load();
  writes += use.writes.load();
  return *this;
}

void report_disk_cache(Envelope& env, const DiskCacheUse& use) {
  DiskCacheCounts counts;
  report_disk_cache(env, counts += use);
}

void report_disk_cache(Envelope& env, const DiskCacheCounts& use) {
  if (!disk_cache_reported()) return;
  if (use.hits + use.misses + use.writes == 0) return;
  const DiskCacheTotals t = process_disk_cache()->totals();
  env.summary["disk_cache"] = json{{"hits", use.hits},     {"misses", use.misses},     {"writes", use.writes},
                                   {"skipped", t.skipped}, {"evictions", t.evictions}, {"errors", t.errors},
                                   {"bytes", t.bytes},     {"budget_bytes", t.budget}};
}

}  // namespace csift
