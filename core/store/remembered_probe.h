// The head/tail identity probe through a server's result memo (core/cache/result_memo.h): `list` and the
// capped `stats` selection probe every transcript in scope, and a Claude Code probe is a function of the
// file's bytes alone, so a warm server answers an unchanged file's probe from memory. In core/store, not
// core/cache: it needs the Claude Code probe and reader, which sit above the cache.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/cache/result_memo.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/store.h"

namespace csift {

// probe_transcript(t), remembered per path while the file is unchanged. Only Claude Code transcripts are
// remembered: another harness's probe reads through its reader, whose transcript may be one session of a
// shared database file. A probe that could not read the file is never remembered. Behind the memo (and in a
// process without one, the CLI) the disk cache is asked before the file is read, and told what was read.
std::shared_ptr<const SessionProbe> remembered_probe(const Transcript& t, ResultMemoUse& use);

// The probe the disk cache holds for `t`'s stamp, taken into the memo without reading the file (a server's
// warm-up, store_warm_up.h). True when the memo now holds it; false without a memo or disk cache, or when
// neither holds it.
bool recall_stored_probe(const Transcript& t, ResultMemoUse& use);

// What a remembered probe costs (its anchor texts dominate).
size_t probe_memo_cost(const SessionProbe& p);

// A probe as the disk cache keeps it (core/cache/disk_cache.h), and back: nullopt for bytes that are not
// one (a decode is bounds-checked: the blob is untrusted).
std::string encode_probe(const SessionProbe& p);
std::optional<SessionProbe> decode_probe(std::string_view blob);

}  // namespace csift
