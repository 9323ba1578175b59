#include "core/mutations/screened_read.h"

#include "core/scan/substring_finder.h"

namespace csift {

ReadStats read_screened(const Transcript& t, const std::function<bool(std::string_view)>& admits,
                        const std::unordered_set<std::string>& pending_ids,
                        const std::function<void(Record&&)>& take, const CancelToken* cancel) {
  ReadOptions opts;
  opts.sequential = true;
  opts.cancel = cancel;
  if (const RawLineProbes* probes = reader_for(t).raw_probes()) {
    static const SubstringFinder kToolResult({"tool_result"}, false);
    opts.want = [&admits, &pending_ids, probes](std::string_view line) {
      return admits(line) || probes->may_open_turn(line) ||
             (!pending_ids.empty() && kToolResult.contains(line) &&
              probes->mentions_tool_id(line, pending_ids));
    };
  }
  return for_each_record(t, opts, [&take](Record&& r) {
    take(std::move(r));
    return true;
  });
}

}  // namespace csift
