// Turn grouping (SPEC.md §4): turns open on opener records, 0-based in boundary order; records before the
// first opener belong to no turn. A superseded draft (an opener whose parentUuid a LATER opener shares — the
// esc-recall-and-resend shape) sits outside turn numbering and classifies user.unsent. Every tool numbers
// turns here, through one TurnRule (turn_rule_of, core/record/transcript_reader.h), so the opener rule and
// the foreign-lane rule are never paired by hand and every tool gives a record the same turn.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/record/record.h"

namespace csift {

// Does this record open a turn (a genuine human prompt, by the harness's own rules)?
using TurnOpener = bool (*)(const Record&);

// A transcript's turn rule: its harness's opener (TranscriptReader::turn_opener), and the records of another
// lane it holds inline (TranscriptReader::foreign_lane; nullptr: none), which never open a turn and belong to
// none.
struct TurnRule {
  TurnOpener opens = nullptr;
  TurnOpener foreign = nullptr;
  bool is_foreign(const Record& r) const { return foreign && foreign(r); }
  bool opens_turn(const Record& r) const { return !is_foreign(r) && opens(r); }
};

struct TurnAssignment {
  std::vector<int> turn_of;      // per record: turn index, or -1 (before the first opener / a draft)
  std::vector<bool> is_opener;   // per record: opens a turn
  std::vector<bool> is_draft;    // per record: superseded draft (user.unsent)
  std::vector<bool> is_foreign;  // per record: another lane's record written inline (outside every turn)
  int turn_count = 0;
  std::vector<size_t> opener_index;  // record index of each turn's opener
};

// `records` must be in file order and include every record that may open a turn (see may_open_turn).
TurnAssignment assign_turns(const std::vector<Record>& records, const TurnRule& rule);

// What numbering the records appended to a file needs of the records before them: the turn the last of them
// belongs to, how many turns they opened, and which opener is the latest under each parent (an appended
// opener under the same parent makes it a draft).
struct TurnState {
  size_t records = 0;  // records numbered so far (the index the next one gets)
  int turn_count = 0;
  int current = -1;
  std::unordered_map<std::string, size_t> opener_of_parent;  // parentUuid -> record index of its live opener
};

// The numbering of records appended after those `state` describes. `superseded` lists the earlier openers
// (record indices, ascending) the appended ones made drafts: each of them is now a draft outside every turn,
// and every record after it that had turn k >= 0 now has turn k - 1 (the resend opens the turn instead).
// `appended`'s indices (opener_index included) count from state.records. assign_turns is this with an
// empty state.
struct AppendedTurns {
  TurnAssignment appended;
  std::vector<size_t> superseded;
};
// The state after numbering all of `records` as `turns` (assign_turns' result for them).
TurnState turn_state_after(const std::vector<Record>& records, const TurnAssignment& turns);
AppendedTurns assign_appended_turns(TurnState& state, const std::vector<Record>& appended,
                                    const TurnRule& rule);

// Turn numbers for a reader that streams records and keeps none: it hands each record to keep() in file order
// (the index it returns is the record's) and numbers them all once the read is done. Only what numbering
// needs is kept: whether the record opens a turn, is another lane's, and its parent when it opens one.
class TurnSkeleton {
 public:
  explicit TurnSkeleton(TurnRule rule) : rule_(rule) {}
  size_t keep(const Record& r);
  TurnAssignment number() const;

 private:
  struct Kept {
    bool opens = false;
    bool foreign = false;
    std::string parent_uuid;  // an opener's
  };
  TurnRule rule_;
  std::vector<Kept> kept_;
};

}  // namespace csift
