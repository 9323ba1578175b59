// Turn grouping (SPEC.md §4) with superseded drafts (v0.9.2 ④): when the human esc-recalls a sent message,
// edits it and re-sends, both openers hang off the same parentUuid; the EARLIER one is the draft. Drafts sit
// outside turn numbering, so the resend opens the turn and the draft's records stay with the previous turn.
#include "core/record/turns.h"

#include <unordered_map>

namespace csift {

TurnAssignment assign_turns(const std::vector<Record>& records, bool (*opens_turn)(const Record&),
                            bool (*foreign)(const Record&)) {
  TurnAssignment t;
  size_t n = records.size();
  t.turn_of.assign(n, -1);
  t.is_opener.assign(n, false);
  t.is_draft.assign(n, false);
  t.is_foreign.assign(n, false);

  std::vector<bool> candidate(n, false);
  std::unordered_map<std::string, size_t> last_opener_for_parent;
  for (size_t i = 0; i < n; ++i) {
    candidate[i] = !(foreign && foreign(records[i])) && opens_turn(records[i]);
    if (candidate[i] && !records[i].parent_uuid.empty()) last_opener_for_parent[records[i].parent_uuid] = i;
  }
  int current = -1;
  for (size_t i = 0; i < n; ++i) {
    if (candidate[i] && !records[i].parent_uuid.empty() &&
        last_opener_for_parent[records[i].parent_uuid] != i) {
      t.is_draft[i] = true;  // a later opener shares this parent: superseded
      continue;
    }
    if (candidate[i]) {
      t.is_opener[i] = true;
      current = t.turn_count++;
      t.opener_index.push_back(i);
    }
    t.is_foreign[i] = foreign && foreign(records[i]);
    t.turn_of[i] = t.is_foreign[i] ? -1 : current;
  }
  return t;
}

}  // namespace csift
