// Which top-level session is calling (`@main`, `whoami` without a marker; SPEC.md §9.5), decided by how the
// tools were reached: a stdio server asks Claude Code's session registry about its ancestor processes and
// falls back to the environment variable only when no row is found; an HTTP server has no relation to its
// caller and says that `@self:<marker>` is the way; the command line reads its own environment. A call that
// names its tool_use (Claude Code's `_meta["claudecode/toolUseId"]`) is found exactly instead, on any
// transport: find_calling_transcript.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/store/call_landing.h"
#include "core/store/store.h"
#include "core/store/trap_resolve.h"

namespace csift {

struct CallerSession {
  std::string id;                     // "" when nothing names the session
  std::string source;                 // registry:<row path> | env:<VAR>
  std::vector<std::string> evidence;  // what was looked at: registry rows, the environment
  std::string note;                   // the fallback or a disagreement, in words ("" when none)
  std::string guidance;               // when id is "": why, and what to do instead
};

// The calling transcript named by the call's tool_use id (env.caller_tool_use_id, set when the client names
// it; SPEC §9.5): the one transcript — main session or subagent lane — whose assistant record holds that
// tool_use, after a bounded wait for it to land (call_landing.h). Works over every transport.
struct CallingTranscript {
  std::optional<TrapResolution> hit;  // the session, the lane when a subagent called, the session's lanes
  CallLanding landing;
  std::string evidence;  // one line: how long it waited, and where it was found or what was searched
};
// `named` is what the caller's process names (resolve_caller_session): its session is read first. Never
// throws for a miss (hit stays empty); the caller decides what to fall back to.
CallingTranscript find_calling_transcript(const Environment& env, const std::string& claude_home,
                                          const CallerSession& named);

// The command-line form is the caller's concern (its environment, SPEC §9.5): returns an empty id with no
// guidance for it, so the caller keeps its own message.
CallerSession resolve_caller_session(const Environment& env, const std::string& claude_home);

// How a caller without a process relation identifies itself (the @self:<marker> pattern).
std::string self_marker_guidance();

// Why a bare `@self` cannot be answered when the call named no tool_use, and what to do instead.
std::string bare_self_guidance();

}  // namespace csift
