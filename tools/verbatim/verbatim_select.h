// Budgeted selection for one transcript (SPEC.md §9.8): walks turns from the newest back, across compaction
// boundaries; the round-trip floor (budget x round_trip_fraction) is spent only on turns with both a human
// side and an agent answer, the rest on single sides, human first; units the newest summary already quotes
// go last. Every row is charged the characters its document block renders (banners included), so the
// rows' rendered_chars add up to chars_used, which never exceeds the budget.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "tools/common/record_render.h"
#include "tools/verbatim/verbatim_request.h"
#include "tools/verbatim/verbatim_turns.h"

namespace csift {

struct SessionSelection {
  std::vector<json> rows;  // turn, collapsed_agents and compaction_boundary rows, ascending by line
  size_t chars_used = 0;
  size_t selected_user = 0, selected_assistant = 0, collapsed = 0;
  size_t candidate_user = 0, candidate_assistant = 0;
  size_t boundaries_spanned = 0;
  size_t also_in_summary = 0;
  int turns_in_window = 0;
};

SessionSelection select_verbatim(const SessionTurns& turns, const VerbatimRequest& req,
                                 const TranscriptIdentity& owner);

}  // namespace csift
