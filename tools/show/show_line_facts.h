// What `show --raw` needs to know of a transcript's lines before it reads any: how many there are (a line
// address may count from the end), where a line starts (the read seeks there), and on which lines its
// turns open (a turn address). A server remembers them per file and extends both over an append (an
// appended resend that supersedes a remembered opener takes that opener out of the turn list).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cache/result_memo.h"
#include "core/scan/line_index.h"
#include "core/store/store.h"

namespace csift {

// The transcript's line index (remembered and extended in `memo`, the call's result memo when a server has
// one (ToolContext::result_memo), for a harness whose raw lines are its file's lines), or nullptr when its
// raw lines are synthesized (a database-backed store): count those.
std::shared_ptr<const LineIndex> show_line_index(const Transcript& t, ResultMemo* memo,
                                                 const CancelToken* cancel, ResultMemoUse& use);

struct TurnOpeners {
  std::vector<uint64_t> lines;  // the opener line of each turn, in turn order
  uint64_t physical_lines = 0;  // the file's lines when read (the last turn runs to its end)
};
// The turn openers of the transcript (remembered in `memo` per file stamp, extended over appends): the
// records that may open a turn, parsed sparsely and numbered as a classified read numbers them.
std::shared_ptr<const TurnOpeners> show_turn_openers(const Transcript& t, ResultMemo* memo,
                                                     const CancelToken* cancel, ResultMemoUse& use);

}  // namespace csift
