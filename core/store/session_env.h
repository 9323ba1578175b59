// The calling session as the environment names it (SPEC.md §9.5): CLAUDE_CODE_SESSION_ID, exact name, with
// CODEX_COMPANION_SESSION_ID as a secondary alias. Never a process walk, never most-recent-mtime.
#pragma once
#include <optional>
#include <string>

#include "core/store/store.h"

namespace csift {

struct EnvSessionId {
  std::string var;  // the variable that named it
  std::string id;
};

std::optional<EnvSessionId> env_session_id(const Environment& env);

// The error text when neither variable is set: what to do instead, and what never to trust.
std::string whoami_guidance();

// The stderr-class note every env-resolved identity carries: the env names the TOP-LEVEL session in every
// lane.
std::string env_lane_note(const EnvSessionId& who);

// Finds <id>.jsonl: first in the project dir `cwd` encodes to, then by scanning every project dir.
std::optional<Transcript> find_session_file(const std::string& projects_root, const std::string& id,
                                            const std::string& cwd);

}  // namespace csift
