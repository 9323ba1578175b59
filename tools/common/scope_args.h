// Argument handling shared by the tools that read a scope of transcripts (list, stats, search, agents, files,
// image, plan, recover, verbatim; show, status and wait use its list arguments): the scope itself (positional
// targets, `sessions_from`, `no_subagents`, `claude_home`) and the header and summary that echo it, the
// since/until window, and the row cap of list and stats that keeps the N most recently active sessions.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/targets.h"
#include "tools/common/tool.h"

namespace csift {

// A string-or-array-of-strings argument as a list (a lone string is one element; non-string elements and a
// missing argument give nothing).
std::vector<std::string> string_array(const json& args, const char* name);

// Resolves the scope; `sessions_from: "-"` reads ctx.stdin_text. Throws ToolError naming what was tried.
Scope resolve_span_scope(const json& args, const ToolContext& ctx);

// Writes the scope's counts into a header: sessions_in_scope, top_level_sessions, subagent_sessions, and
// `stores` when other harnesses' stores were read.
void echo_scope_counts(const Scope& scope, json& header);
// Each store of another harness the scope read (harness, root, root_from, found, sessions, problems).
json stores_json(const Scope& scope);
// The summary's `stores` (per store; the files a store could not read are in unread_transcripts).
void report_stores(Envelope& env, const Scope& scope);
// The header of a spanning tool's envelope (`command` is the tool): the scope counts, then `unscoped` and
// `claude_home`.
json span_header(const std::string& command, const Scope& scope);

// SPEC.md §9.1: a probed session's [first activity, last activity] span meets the window; a session with no
// readable timestamp never matches a bounded window.
bool probe_span_meets(const SessionProbe& probe, const TimeWindow& window);

// Parses since/until (the WHEN grammar); throws ToolError(usage) on a bad value or since > until.
TimeWindow parse_time_window(const json& args);
// Echoes a bounded window into a header as since_utc/since_local/until_utc/until_local.
void echo_time_window(const TimeWindow& window, json& header);

// The effective row cap: an explicit max_count (0 = uncapped) wins; otherwise `unscoped_default` applies to
// an unscoped run and a scoped run is uncapped. nullopt = uncapped.
std::optional<size_t> effective_row_cap(const json& args, bool unscoped,
                                        std::optional<size_t> unscoped_default);

// Keeps the `cap` entries with the latest activity (ties keep the earlier entry), returned in their original
// order. `activity` is one value per entry (INT64_MIN = never active).
std::vector<size_t> keep_most_recent(const std::vector<int64_t>& activity, size_t cap);

}  // namespace csift
