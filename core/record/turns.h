// Turn grouping (SPEC.md §4): turns open on opens_turn records, 0-based in boundary order; records before the
// first opener belong to no turn. A superseded draft (an opener whose parentUuid a LATER opener shares — the
// esc-recall-and-resend shape) sits outside turn numbering and classifies user.unsent.
#pragma once
#include <cstdint>
#include <vector>

#include "core/record/record.h"

namespace csift {

struct TurnAssignment {
  std::vector<int> turn_of;      // per record: turn index, or -1 (before the first opener / a draft)
  std::vector<bool> is_opener;   // per record: opens a turn
  std::vector<bool> is_draft;    // per record: superseded draft (user.unsent)
  std::vector<bool> is_foreign;  // per record: another lane's record written inline (outside every turn)
  int turn_count = 0;
  std::vector<size_t> opener_index;  // record index of each turn's opener
};

// `records` must be in file order and include every record that may open a turn (see may_open_turn);
// `opens_turn` is the harness's rule (TranscriptReader::turn_opener). Records `foreign` accepts (another
// lane's records written inline, TranscriptReader::foreign_lane) never open a turn and belong to none.
TurnAssignment assign_turns(const std::vector<Record>& records, bool (*opens_turn)(const Record&),
                            bool (*foreign)(const Record&) = nullptr);

}  // namespace csift
