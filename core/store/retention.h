// Claude Code's transcript cleanup, read rather than guessed: at every start Claude Code deletes the
// transcripts (and the tool-result files, subagent lanes and plans beside them) whose modification time is
// older than `cleanupPeriodDays` in `<claude home>/settings.json` (30 days without one). What this file
// answers is how many days a transcript has left, so list, status, sessions_status and the session
// resources can name the sessions a cleanup will take before it does. No other harness's store has a
// cleanup this reads (SPEC.md §2 "Retention").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/base/timefmt.h"
#include "core/record/transcript.h"

namespace csift {

// The window the retention notes look ahead: a session the cleanup takes within this many days is flagged.
inline constexpr int64_t kRetentionHorizonDays = 7;

struct CleanupPeriod {
  double days = 30;  // Claude Code's default
  std::string from;  // the settings.json that set it, or "default"
  std::string note;  // set when settings.json holds a value Claude Code would refuse (then the default)
};

// The cleanup period of the Claude home `claude_home` (its settings.json, read on every call: a user who
// raises it sees the change at once).
CleanupPeriod claude_cleanup_period(const std::string& claude_home);

// Days until the cleanup may delete a file last modified at `mtime_ns`, rounded up (0: it is past its period,
// so Claude Code's next start deletes it), when that is within `horizon_days`; nullopt otherwise and for
// every other harness's transcript.
std::optional<int64_t> expires_in_days(const Transcript& t, const CleanupPeriod& period, EpochMs now,
                                       int64_t horizon_days = kRetentionHorizonDays);

}  // namespace csift
