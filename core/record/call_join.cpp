#include "core/record/call_join.h"

#include <algorithm>

#include "core/scan/substring_finder.h"

namespace csift {

namespace {

const SubstringFinder& tool_result_needle() {
  static const SubstringFinder kToolResult({"tool_result"}, false);
  return kToolResult;
}

}  // namespace

void CallJoin::open(const std::string& id, uint64_t line, size_t at) {
  if (id.empty()) return;
  waiting_ids_.insert(id);
  waiting_[id] = Waiting{line, at};
}

bool CallJoin::result(const Record& r, const Block& b, size_t at) {
  if (!waiting_ids_.count(b.tool_use_id)) return false;
  waiting_ids_.erase(b.tool_use_id);
  waiting_.erase(b.tool_use_id);
  close_(r, b, at);
  return true;
}

void CallJoin::join_results_before_calls(const Transcript& t, const CancelToken* cancel) {
  if (waiting_.empty()) return;
  uint64_t last = 0;
  for (const auto& [id, w] : waiting_)
    last = std::max(last, w.line);
  // Only a line before its call can hold a result the pass missed: a later one was admitted by the screen.
  ReadOptions opts;
  opts.sequential = true;
  opts.cancel = cancel;
  opts.max_lines = last;
  if (const RawLineProbes* probes = reader_for(t).raw_probes()) {
    opts.want = [this, probes](std::string_view line) {
      return !waiting_ids_.empty() && tool_result_needle().contains(line) &&
             probes->mentions_tool_id(line, waiting_ids_);
    };
  }
  for_each_record(t, opts, [&](Record&& r) {
    if (r.line >= last) return false;
    for (const Block& b : r.message.blocks) {
      if (b.kind != BlockKind::tool_result) continue;
      const auto it = waiting_.find(b.tool_use_id);
      if (it == waiting_.end() || r.line >= it->second.line) continue;
      const size_t at = it->second.at;
      waiting_.erase(it);
      waiting_ids_.erase(b.tool_use_id);
      close_(r, b, at);
    }
    return !waiting_.empty();
  });
}

ReadStats read_joined(const Transcript& t, const std::function<bool(std::string_view)>& admits,
                      CallJoin& join, const std::function<void(Record&&)>& take, const CancelToken* cancel) {
  ReadOptions opts;
  opts.sequential = true;
  opts.cancel = cancel;
  if (const RawLineProbes* probes = reader_for(t).raw_probes()) {
    opts.want = [&admits, &join, probes](std::string_view line) {
      const std::unordered_set<std::string>& waiting = join.waiting();
      return admits(line) || probes->may_open_turn(line) ||
             (!waiting.empty() && tool_result_needle().contains(line) &&
              probes->mentions_tool_id(line, waiting));
    };
  }
  return for_each_record(t, opts, [&take](Record&& r) {
    take(std::move(r));
    return true;
  });
}

}  // namespace csift
