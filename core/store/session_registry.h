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

// The owner of a registry row, as far as this machine can tell.
enum class OwnerState {
  alive,           // the pid runs and its start time matches the row's (or could not be compared: see check)
  dead,            // no such process
  reused,          // the pid runs but started at another instant: a different process holds it now
  foreign_domain,  // the row's pidDomain names another machine, OS or pid namespace; never probed
  unprobed,        // no /proc on this platform: liveness was not probed
};
const char* owner_state_name(OwnerState s);

// One registry row naming a session (status's and wait's query: by session id, not by ancestry).
struct RegistryRow {
  int pid = 0;
  std::string row_path;
  std::string status;             // busy | shell | idle | waiting; "" when the row's status is null
  std::string status_updated_at;  // as written (an instant of the last TRANSITION, never a heartbeat)
  std::string waiting_for;        // the row's waitingFor when present
  std::string pid_domain;         // "" when the row names none
  OwnerState owner = OwnerState::unprobed;
  std::string owner_check;  // what the liveness probe and the start-time guard found, in words
  bool start_guarded =
      false;  // false: the reuse guard could not run (pid-only probe), and owner_check says why
};

// Every row of `<claude_home>/sessions/*.json` whose sessionId is `session_id`, probed for liveness (Linux
// /proc, guarded against pid reuse by the start time). Never throws; unreadable rows are skipped and counted.
struct RegistryRowsForSession {
  std::vector<RegistryRow> rows;
  bool registry_dir_present = false;
  size_t unreadable_rows = 0;
};
RegistryRowsForSession registry_rows_for_session(const std::string& claude_home,
                                                 const std::string& session_id);

// Where a row's pid means a process here. Claude Code writes `pidDomain` as
// `linux:<machine-id>:pid:[<pid-namespace inode>]` (older rows: `linux`, or none): the machine id is
// /etc/machine-id, the namespace what /proc/self/ns/pid links to.
struct LocalPidDomain {
  std::string machine_id;     // "" when it cannot be read
  std::string pid_namespace;  // e.g. "pid:[4026531836]"; "" when it cannot be read
};
LocalPidDomain local_pid_domain();
// "" when a row of `domain` names a process of this machine and pid namespace (an empty or bare `linux`
// domain included); else the words saying whose it is ("names pid domain '…': another machine (…)").
std::string pid_domain_refusal(const std::string& domain, const LocalPidDomain& here);
std::string pid_domain_refusal(const std::string& domain);  // against this process's domain

// The current form of procStart: the owner's starttime (/proc/<pid>/stat field 22) in clock ticks after boot,
// written as a decimal string of fewer than 15 digits. nullopt for any other form.
std::optional<unsigned long long> parse_registry_start_ticks(const std::string& text);

// A registry start-time field as seconds since the epoch: the unix form (asctime rendered in UTC, e.g.
// "Tue Dec  1 17:02:03 2026") or the Windows FILETIME tick count (100 ns since 1601). nullopt when neither.
std::optional<double> parse_registry_start(const std::string& text);

}  // namespace csift
