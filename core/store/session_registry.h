// Claude Code's session registry (SPEC.md §9.5): `<claude-home>/sessions/<pid>.json`, one row per running
// interactive Claude Code process, naming the session that process is in now (it follows /clear and
// --resume, which an environment variable fixed at spawn time does not). A stdio server finds its caller by
// walking its own ancestor processes and taking the first with a row, guarded against a reused pid by the
// process start time the row records.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace csift {

// How many ancestors are looked at: the server's parent, its parent, ... (Claude Code may spawn a server
// through a shell or a package runner).
inline constexpr int kRegistryWalkLevels = 4;
// The largest difference between the row's start time and the process's that still names the same process.
inline constexpr double kStartTimeToleranceSeconds = 2.0;

struct RegistryCaller {
  int pid = 0;
  int level = 0;            // 1 = the server's parent
  std::string row_path;     // <claude-home>/sessions/<pid>.json
  std::string session_id;   // the row's sessionId
  std::string start_check;  // how the pid-reuse guard went, in words
};

struct RegistryLookup {
  std::optional<RegistryCaller> caller;
  std::vector<std::string> evidence;  // one line per ancestor looked at: its row, or why it was passed over
};

// Walks from `first_pid` up at most `levels` ancestors and returns the first whose registry row names a
// session and passes the start-time guard. Never throws; a missing /proc or registry is evidence, not an
// error.
RegistryLookup find_registry_caller(const std::string& claude_home, int first_pid,
                                    int levels = kRegistryWalkLevels);

// A registry start-time field as seconds since the epoch: the unix form (asctime rendered in UTC, e.g.
// "Tue Dec  1 17:02:03 2026") or the Windows FILETIME tick count (100 ns since 1601). nullopt when neither.
std::optional<double> parse_registry_start(const std::string& text);

}  // namespace csift
