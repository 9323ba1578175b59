// The collection policy: which sessions csift-mcp's triage tools may read at all. The user's TOML file
// (`[collect]` disabled, deny_paths, opt_in_paths, opt_in_only) and a repository's own `.csift-mcp.toml`
// (`[collect] disabled = true` switches its sessions off) decide, by the session's working directories.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/store/store.h"

namespace csift {

struct CollectPolicy {
  std::string file;  // the config file read ("" when none exists)
  bool disabled = false;
  std::vector<std::string> deny_paths;    // absolute, as written (a leading ~ expanded)
  std::vector<std::string> opt_in_paths;  // absolute, as written (a leading ~ expanded)
  bool opt_in_only = false;
  // deny_paths or opt_in_only: a session whose directory cannot be checked is refused.
  bool restricts_paths() const { return !deny_paths.empty() || opt_in_only; }
};

// `$CSIFT_CONFIG` (absolute) else `${XDG_CONFIG_HOME:-~/.config}/csift-mcp/config.toml`.
std::string policy_file_path(const Environment& env);
// The policy from that file; no file is the empty policy. Throws ToolError(usage) naming the file, the line
// and what was expected when it does not parse or a member has the wrong type.
CollectPolicy load_collect_policy(const Environment& env);
// The same from text (tests); `file` names it in messages.
CollectPolicy parse_collect_policy(std::string_view text, const std::string& file, const Environment& env);

// What the policy says of a directory: allowed (state ""), `disabled` or `denied`, with the reason.
struct PolicyVerdict {
  std::string state;
  std::string reason;
  bool allowed() const { return state.empty(); }
};

// `dir` within `entry`: equal, or below it; a filesystem root holds every directory.
bool path_within(std::string_view dir, std::string_view entry);
// The user's rules and the repository file of `dir`, matched as written and with symbolic links resolved.
PolicyVerdict check_directory(const CollectPolicy& policy, const std::string& dir);
// Every directory in turn; the first refusal wins.
PolicyVerdict check_directories(const CollectPolicy& policy, const std::vector<std::string>& dirs);
// Claude Code's gate before the open, by the encoded project directory name (every byte outside
// [A-Za-z0-9] became '-'): exact for deny_paths, but a sibling whose encoded name shares an entry's prefix
// (`/a/b-c` under `/a/b`) is refused too. opt_in_paths cannot be checked this way (checked after the read).
PolicyVerdict check_claude_encoded_dir(const CollectPolicy& policy, std::string_view encoded_name);

}  // namespace csift
