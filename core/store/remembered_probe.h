// The head/tail identity probe through a server's result memo (core/cache/result_memo.h): `list` and the
// capped `stats` selection probe every transcript in scope, and a Claude Code probe is a function of the
// file's bytes alone, so a warm server answers an unchanged file's probe from memory. In core/store, not
// core/cache: it needs the Claude Code probe and reader, which sit above the cache.
#pragma once
#include <memory>

#include "core/cache/result_memo.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/store.h"

namespace csift {

// probe_transcript(t), remembered per path while the file is unchanged. Only Claude Code transcripts are
// remembered: another harness's probe reads through its reader, whose transcript may be one session of a
// shared database file. A probe that could not read the file is never remembered.
std::shared_ptr<const SessionProbe> remembered_probe(const Transcript& t, ResultMemoUse& use);

// What a remembered probe costs (its anchor texts dominate).
size_t probe_memo_cost(const SessionProbe& p);

}  // namespace csift
