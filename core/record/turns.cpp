// Turn grouping (SPEC.md §4) with superseded drafts (v0.9.2 ④): when the human esc-recalls a sent message,
// edits it and re-sends, both openers hang off the same parentUuid; the EARLIER one is the draft. Drafts sit
// outside turn numbering, so the resend opens the turn and the draft's records stay with the previous turn.
#include "core/record/turns.h"

#include <algorithm>

namespace csift {

AppendedTurns assign_appended_turns(TurnState& state, const std::vector<Record>& records,
                                    bool (*opens_turn)(const Record&), bool (*foreign)(const Record&)) {
  AppendedTurns out;
  TurnAssignment& t = out.appended;
  const size_t n = records.size();
  const size_t base = state.records;
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
  // An earlier opener whose parent an appended one shares is superseded: the turns after it close up.
  for (const auto& [parent, i] : last_opener_for_parent) {
    auto it = state.opener_of_parent.find(parent);
    if (it == state.opener_of_parent.end()) continue;
    out.superseded.push_back(it->second);
    --state.turn_count;
    --state.current;
  }
  std::sort(out.superseded.begin(), out.superseded.end());
  for (size_t i = 0; i < n; ++i) {
    if (candidate[i] && !records[i].parent_uuid.empty() &&
        last_opener_for_parent[records[i].parent_uuid] != i) {
      t.is_draft[i] = true;  // a later opener shares this parent: superseded
      continue;
    }
    if (candidate[i]) {
      t.is_opener[i] = true;
      state.current = state.turn_count++;
      t.opener_index.push_back(base + i);
      if (!records[i].parent_uuid.empty()) state.opener_of_parent[records[i].parent_uuid] = base + i;
    }
    t.is_foreign[i] = foreign && foreign(records[i]);
    t.turn_of[i] = t.is_foreign[i] ? -1 : state.current;
  }
  t.turn_count = state.turn_count;
  state.records = base + n;
  return out;
}

TurnState turn_state_after(const std::vector<Record>& records, const TurnAssignment& turns) {
  TurnState state;
  state.records = records.size();
  state.turn_count = turns.turn_count;
  state.current = turns.turn_count - 1;  // turns are numbered in file order: the latest opener's is the last
  for (const size_t i : turns.opener_index)  // a live opener is the only one under its parent
    if (!records[i].parent_uuid.empty()) state.opener_of_parent[records[i].parent_uuid] = i;
  return state;
}

TurnAssignment assign_turns(const std::vector<Record>& records, bool (*opens_turn)(const Record&),
                            bool (*foreign)(const Record&)) {
  TurnState fresh;
  return assign_appended_turns(fresh, records, opens_turn, foreign).appended;
}

}  // namespace csift
