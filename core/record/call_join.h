// Tool calls joined to their results by tool_use id, in either file order (SPEC.md §4 "Calls and results").
// Claude Code streams a parallel batch of calls and at times writes a call's result BEFORE the call itself
// (the result's parentUuid then names the batch's last call). A scan that looked only for results of calls it
// had already seen lost such a result: the file a Write created went missing and the call counted as having
// no result. Every scan that needs a call's result record — files' and recover's mutation scans, agents'
// spawn index — joins through CallJoin, so the rule lives here once: a result that follows its call closes it
// during the forward pass; a call still waiting at the end of the pass has its result looked for again among
// the lines before it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/base/cancel.h"
#include "core/record/transcript_reader.h"

namespace csift {

class CallJoin {
 public:
  // Closes a call with its result: the record that holds the result, its tool_result block, and `at`, the
  // scan's index of the record that places the join in the transcript's turns — the result's own record when
  // the result follows its call, the call's record when the result came first (fetched after the pass).
  using CloseFn = std::function<void(const Record& result, const Block& block, size_t at)>;
  explicit CallJoin(CloseFn close) : close_(std::move(close)) {}

  // A call the scan follows: `id` opened by the record at `line`, which the scan indexes `at`.
  void open(const std::string& id, uint64_t line, size_t at);
  // A tool_result block of the forward pass: closes its call and returns true when that call waits.
  bool result(const Record& r, const Block& b, size_t at);
  // The ids of the calls waiting for their result (a byte screen admits a result line that names one).
  const std::unordered_set<std::string>& waiting() const { return waiting_ids_; }
  // After the forward pass: the results written before their own call, read again from the lines before
  // the last waiting call and closed. What still waits afterwards has no result in the transcript.
  void join_results_before_calls(const Transcript& t, const CancelToken* cancel);

 private:
  struct Waiting {
    uint64_t line = 0;
    size_t at = 0;
  };
  CloseFn close_;
  std::unordered_set<std::string> waiting_ids_;
  std::unordered_map<std::string, Waiting> waiting_;
};

// The forward read of a scan that follows calls to their results and numbers turns (files' and recover's
// scans): `t` front to back on the calling thread, each parsed record handed to `take`. Where the harness
// offers raw-line probes, a line is parsed only when `admits` accepts its bytes, when it may open a turn, or
// when it is the result of a call `join` waits for (the set is read as the scan fills it, which is why the
// read is sequential). The caller then asks the join for the results written before their calls
// (join_results_before_calls), once it has marked where the pass ended.
ReadStats read_joined(const Transcript& t, const std::function<bool(std::string_view)>& admits,
                      CallJoin& join, const std::function<void(Record&&)>& take, const CancelToken* cancel);

}  // namespace csift
