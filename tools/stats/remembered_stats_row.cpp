#include "tools/stats/remembered_stats_row.h"

#include <string_view>

#include "core/harness/claude_code/claude_code_reader.h"
#include "tools/common/json_held_bytes.h"

namespace csift {
namespace {

// A row and the tally it was built from, held weakly: the memo never keeps a tally alive, and a tally freed
// since (its address possibly reused by a new one) no longer locks, so it cannot be mistaken.
struct StatsRowEntry {
  std::weak_ptr<const TranscriptTally> tally;
  json row;
};

}  // namespace

// Every input of stats_row besides the tally and the path (which the key holds), each field length-prefixed
// so no two different input sets spell the same variant.
std::string stats_row_inputs(const Transcript& t) {
  std::string v;
  for (const std::string_view f :
       {std::string_view(t.id), std::string_view(t.harness), std::string_view(t.parent_session_id()),
        std::string_view(t.agent_type), std::string_view(t.is_subagent ? "subagent" : "session"),
        std::string_view(shape_name(t.shape))}) {
    v += std::to_string(f.size());
    v += ':';
    v += f;
  }
  return v;
}

json remembered_stats_row(const Transcript& t, const std::shared_ptr<const TranscriptTally>& tally,
                          ResultMemoUse& use) {
  // A tally the memo does not keep (another harness's, or one with a read error) is a new object on every
  // call: a row built from it could never be found again.
  ResultMemo* memo =
      t.harness == kClaudeCodeHarness && tally->error.empty() ? process_result_memo() : nullptr;
  if (memo == nullptr) return stats_row(t, *tally);
  const std::string key = result_memo_key("stats-row", t.path, stats_row_inputs(t));
  const void* type = result_type_tag<StatsRowEntry>();
  if (auto hit = std::static_pointer_cast<const StatsRowEntry>(memo->find(key, type, FileStamp{}))) {
    if (hit->tally.lock() == tally) {
      ++use.hits;
      return hit->row;
    }
  }
  ++use.misses;
  auto made = std::make_shared<StatsRowEntry>();
  made->tally = tally;
  made->row = stats_row(t, *tally);
  memo->remember(key, type, FileStamp{}, made, sizeof(StatsRowEntry) + json_held_bytes(made->row));
  return made->row;
}

}  // namespace csift
