// How a tool reports its use of a server's result memo (core/cache/result_memo.h) in its summary.
#pragma once
#include "core/base/envelope.h"
#include "core/cache/result_memo.h"

namespace csift {

// Sets summary.result_memo (this call's hits and misses; the memo's entries, bytes held, budget and
// evictions) when a server installed a result memo; the CLI's summary never carries it.
void report_result_memo(Envelope& env, const ResultMemoUse& use);

}  // namespace csift
