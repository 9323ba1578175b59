// Transcripts in scope that were not read — entries that are not regular files (store.h, never opened) and
// files whose read failed (permission denied, an I/O error, a second read that no longer parses). An answer
// is complete only over what was read, so every multi-transcript tool reports them the same way: the
// summary's `unread_transcripts` (path and reason, at most kMaxListedUnread listed) and
// `unread_transcripts_total`, and a note naming them.
#pragma once
#include <vector>

#include "core/base/envelope.h"
#include "core/store/store.h"

namespace csift {

inline constexpr size_t kMaxListedUnread = 100;

// Writes the two summary fields (an empty list and 0 when everything was read) and, when any, a note.
void report_unread(Envelope& env, const std::vector<StoreProblem>& unread);

}  // namespace csift
