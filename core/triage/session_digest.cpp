// The per-session digest: see session_digest.h. (Seam first; the detector rules follow.)
#include "core/triage/session_digest.h"

#include "core/record/transcript_reader.h"
#include "core/scrub/scrubber.h"

namespace csift {

SessionDigestResult digest_session(const SessionDigestInput& in) {
  SessionDigestResult out;
  if (!in.transcript) {
    out.error = "no transcript given";
    return out;
  }
  out.covered_size = in.complete_size;
  out.session = nlohmann::ordered_json::object();
  out.session["ref"] = in.transcript->harness + ":" + in.transcript->id;
  out.session["harness"] = in.transcript->harness;
  out.session["session_id"] = in.transcript->id;
  return out;
}

}  // namespace csift
