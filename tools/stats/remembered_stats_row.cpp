#include "tools/stats/remembered_stats_row.h"

#include "core/cache/derived_row_memo.h"
#include "core/harness/claude_code/claude_code_reader.h"

namespace csift {

std::string stats_row_inputs(const Transcript& t) {
  std::string v;
  for (const std::string_view f :
       {std::string_view(t.id), harness_name(t.harness), std::string_view(t.parent_session_id()),
        std::string_view(t.agent_type()), std::string_view(t.is_subagent ? "subagent" : "session"),
        std::string_view(shape_name(t.shape))})
    append_variant_field(v, f);
  return v;
}

json remembered_stats_row(const Transcript& t, const std::shared_ptr<const TranscriptTally>& tally,
                          ResultMemo* memo, ResultMemoUse& use) {
  // A tally the memo does not keep (another harness's, or one with a read error) is a new object on every
  // call: a row built from it could never be found again.
  if (t.harness != HarnessId::claude_code || !tally->error.empty()) memo = nullptr;
  if (memo == nullptr) return stats_row(t, *tally);
  return remembered_derived_row(memo, use, "stats-row", t.path, stats_row_inputs(t), tally,
                                [&] { return stats_row(t, *tally); });
}

}  // namespace csift
