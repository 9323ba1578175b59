// A session's triage state from what is known of it, first match wins: disabled > denied > unreadable >
// unsupported-format > unknown-project > absent > new > changed (appended | truncated | rotated) > processed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/triage/watermark.h"

namespace csift {

struct SessionFacts {
  std::string policy_state;  // "disabled" or "denied" when the collection policy refuses it, else ""
  std::string policy_reason;
  std::string read_error;           // the log could not be opened or read
  std::string unsupported;          // why the reader does not read it ("" when it does)
  bool project_known = true;        // the log records a working directory
  bool exists = true;               // false: a watermark row whose file is gone
  Watermark current;                // the log's complete-line watermark now
  std::optional<Watermark> marked;  // the marked watermark (nullopt: never marked)
};

struct SessionState {
  std::string state;   // disabled, denied, unreadable, unsupported-format, unknown-project, absent, new,
                       // changed, processed
  std::string reason;  // why; for changed: appended, truncated or rotated
  uint64_t from_offset = 0;  // where a digest starts: the marked size when appended, else 0
  // New and changed sessions are what a triage run digests.
  bool unprocessed() const { return state == "new" || state == "changed"; }
};

SessionState decide_session_state(const SessionFacts& f);

}  // namespace csift
