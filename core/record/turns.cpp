// Turn grouping (SPEC.md §4) with superseded drafts (v0.9.2 ④): when the human esc-recalls a sent message,
// edits it and re-sends, both openers hang off the same parentUuid; the EARLIER one is the draft. Drafts sit
// outside turn numbering, so the resend opens the turn and the draft's records stay with the previous turn.
#include "core/record/turns.h"

#include <algorithm>

namespace csift {

namespace {

// The numbering itself, over n records described by index: `opens(i)` (a candidate opener: the harness's rule
// said yes and the record is of this lane), `foreign(i)` and `parent(i)` (an opener's parentUuid).
template <class Opens, class Foreign, class Parent>
AppendedTurns number_records(TurnState& state, size_t n, const Opens& opens, const Foreign& foreign,
                             const Parent& parent) {
  AppendedTurns out;
  TurnAssignment& t = out.appended;
  const size_t base = state.records;
  t.turn_of.assign(n, -1);
  t.is_opener.assign(n, false);
  t.is_draft.assign(n, false);
  t.is_foreign.assign(n, false);

  std::vector<bool> candidate(n, false);
  std::unordered_map<std::string, size_t> last_opener_for_parent;
  for (size_t i = 0; i < n; ++i) {
    candidate[i] = opens(i);
    if (candidate[i] && !parent(i).empty()) last_opener_for_parent[parent(i)] = i;
  }
  // An earlier opener whose parent an appended one shares is superseded: the turns after it close up.
  for (const auto& [p, i] : last_opener_for_parent) {
    auto it = state.opener_of_parent.find(p);
    if (it == state.opener_of_parent.end()) continue;
    out.superseded.push_back(it->second);
    --state.turn_count;
    --state.current;
  }
  std::sort(out.superseded.begin(), out.superseded.end());
  for (size_t i = 0; i < n; ++i) {
    if (candidate[i] && !parent(i).empty() && last_opener_for_parent[parent(i)] != i) {
      t.is_draft[i] = true;  // a later opener shares this parent: superseded
      continue;
    }
    if (candidate[i]) {
      t.is_opener[i] = true;
      state.current = state.turn_count++;
      t.opener_index.push_back(base + i);
      if (!parent(i).empty()) state.opener_of_parent[parent(i)] = base + i;
    }
    t.is_foreign[i] = foreign(i);
    t.turn_of[i] = t.is_foreign[i] ? -1 : state.current;
  }
  t.turn_count = state.turn_count;
  state.records = base + n;
  return out;
}

}  // namespace

AppendedTurns assign_appended_turns(TurnState& state, const std::vector<Record>& records,
                                    const TurnRule& rule) {
  return number_records(
      state, records.size(), [&](size_t i) { return rule.opens_turn(records[i]); },
      [&](size_t i) { return rule.is_foreign(records[i]); },
      [&](size_t i) -> const std::string& { return records[i].parent_uuid; });
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

TurnAssignment assign_turns(const std::vector<Record>& records, const TurnRule& rule) {
  TurnState fresh;
  return assign_appended_turns(fresh, records, rule).appended;
}

size_t TurnSkeleton::keep(const Record& r) {
  Kept k;
  k.foreign = rule_.is_foreign(r);
  k.opens = rule_.opens_turn(r);
  if (k.opens) k.parent_uuid = r.parent_uuid;
  kept_.push_back(std::move(k));
  return kept_.size() - 1;
}

TurnAssignment TurnSkeleton::number() const {
  TurnState fresh;
  return number_records(
             fresh, kept_.size(), [&](size_t i) { return kept_[i].opens; },
             [&](size_t i) { return kept_[i].foreign; },
             [&](size_t i) -> const std::string& { return kept_[i].parent_uuid; })
      .appended;
}

}  // namespace csift
