#include "core/triage/session_state.h"

namespace csift {

SessionState decide_session_state(const SessionFacts& f) {
  if (f.policy_state == "disabled") return {"disabled", f.policy_reason, 0};
  if (f.policy_state == "denied") return {"denied", f.policy_reason, 0};
  if (!f.read_error.empty()) return {"unreadable", f.read_error, 0};
  if (!f.unsupported.empty()) return {"unsupported-format", f.unsupported, 0};
  if (!f.project_known)
    return {"unknown-project", "the log records no working directory, so no policy can be checked", 0};
  if (!f.exists) return {"absent", "the log recorded by the watermark is gone", 0};
  if (!f.marked) return {"new", "never marked", 0};
  const Watermark& m = *f.marked;
  if (f.current.size < m.size) return {"changed", "truncated", 0};
  if (f.current.first_line_sha256 != m.first_line_sha256) return {"changed", "rotated", 0};
  if (f.current.size > m.size) return {"changed", "appended", m.size};
  return {"processed", "", 0};
}

}  // namespace csift
