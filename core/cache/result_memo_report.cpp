#include "core/cache/result_memo_report.h"

namespace csift {

void report_result_memo(Envelope& env, const ResultMemoUse& use) {
  const ResultMemo* memo = process_result_memo();
  if (memo == nullptr) return;
  const ResultMemo::Usage u = memo->usage();
  env.summary["result_memo"] =
      json{{"hits", use.hits.load()},  {"misses", use.misses.load()}, {"extended", use.extended.load()},
           {"entries", u.entries},     {"bytes_held", u.bytes},       {"budget_bytes", u.budget},
           {"evictions", u.evictions}, {"declined", u.declined}};
}

}  // namespace csift
