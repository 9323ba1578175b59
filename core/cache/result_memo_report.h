// How a tool reports its use of a server's result memo (core/cache/result_memo.h) and of the disk cache
// behind it (core/cache/disk_cache.h) in its summary.
#pragma once
#include "core/base/envelope.h"
#include "core/cache/result_memo.h"

namespace csift {

// Sets summary.result_memo (this call's hits and misses; the memo's entries, bytes held, budget and
// evictions) when a server installed a result memo; the CLI's summary never carries it. Then
// report_disk_cache(env, use.disk).
void report_result_memo(Envelope& env, const ResultMemoUse& use);

// Sets summary.disk_cache when a server's call looked the disk cache up or wrote to it: this call's hits,
// misses and queued writes, and the process's skipped writes, evictions and errors, the file's bytes and
// budget. The CLI uses the cache too but its output stays as it was.
void report_disk_cache(Envelope& env, const DiskCacheUse& use);
// report_result_memo without the disk cache's part: for a call that reports its disk use summed over several
// uses itself (a search's screens and censuses).
void report_result_memo_usage(Envelope& env, const ResultMemoUse& use);
// The same for counts summed over several uses (a search's screens and its label censuses).
struct DiskCacheCounts {
  uint64_t hits = 0, misses = 0, writes = 0;
  DiskCacheCounts& operator+=(const DiskCacheUse& use);
};
void report_disk_cache(Envelope& env, const DiskCacheCounts& counts);

}  // namespace csift
