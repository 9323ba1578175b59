// What list, status, sessions_status and the session resources say about Claude Code's cleanup (SPEC.md §2
// "Retention"): one wording for a session's days left and one summary object for the count at risk, so the
// four answers name the same period, the same horizon and the same remedy (export).
#pragma once
#include <cstdint>
#include <string>

#include "core/base/envelope.h"
#include "core/store/retention.h"

namespace csift {

// "Claude Code's cleanup deletes it at its next start" / "... in 3 day(s)".
std::string expiry_phrase(int64_t days_left);

// The period as JSON: a whole number of days as an integer.
json cleanup_days_json(const CleanupPeriod& period);

// The summary's `expiring` object: the sessions at risk, the horizon, the period and where it was read.
json expiring_summary(size_t sessions, const CleanupPeriod& period);

// One text line for a summary's `expiring` object ("" without one), naming export as the way to keep them.
std::string expiring_line(const json& summary);

}  // namespace csift
