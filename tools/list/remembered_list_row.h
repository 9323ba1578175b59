// One `list` row through a server's result memo: with every probe from memory, building 1,501 rows (anchor
// excerpts of long messages, ~35 fields each) was the largest cost of a warm list left.
#pragma once
#include "core/cache/result_memo.h"
#include "tools/list/list_row.h"

namespace csift {

// list_row(entry), remembered in `memo` (the call's result memo, or null) while its inputs are the same: the
// very probe object it was built from (a probe recomputed since is another object) and the row's other
// inputs, spelled in the key (the transcript's discovered identity and size, its sidecar status, its clone
// origin).
json remembered_list_row(const ListEntry& entry, ResultMemo* memo, ResultMemoUse& use);

}  // namespace csift
