// Which top-level session is calling (`@main`, `whoami` without a marker; SPEC.md §9.5), decided by how the
// tools were reached: a stdio server asks Claude Code's session registry about its ancestor processes and
// falls back to the environment variable only when no row is found; an HTTP server has no relation to its
// caller and says that `@self:<marker>` is the way; the command line reads its own environment.
#pragma once
#include <string>
#include <vector>

#include "core/store/store.h"

namespace csift {

struct CallerSession {
  std::string id;                     // "" when nothing names the session
  std::string source;                 // registry:<row path> | env:<VAR>
  std::vector<std::string> evidence;  // what was looked at: registry rows, the environment
  std::string note;                   // the fallback or a disagreement, in words ("" when none)
  std::string guidance;               // when id is "": why, and what to do instead
};

// The command-line form is the caller's concern (its environment, SPEC §9.5): returns an empty id with no
// guidance for it, so the caller keeps its own message.
CallerSession resolve_caller_session(const Environment& env, const std::string& claude_home);

// How a caller without a process relation identifies itself (the @self:<marker> pattern).
std::string self_marker_guidance();

}  // namespace csift
