// The per-session digest (SPEC.md §13): the bounded facts a triage run reads about one session — its prompts,
// the tool calls that did not succeed, retries, denials and flagged prompts — read through the harness reader
// seam, so it works for every registered harness. This is the seam the sessions_* tools call; it knows
// nothing of watermarks or policy (the caller passes the offsets) and never writes anything.
#pragma once
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/store.h"

namespace csift {

class Scrubber;   // core/scrub/scrubber.h: std::string scrub(std::string_view) const
struct LogFacts;  // core/triage/log_facts.h

// The size caps of one session's digest (bytes). A cut summary or excerpt says it was cut.
struct DigestCaps {
  size_t summary_bytes = 160;
  size_t excerpt_bytes = 240;
  size_t session_bytes = 64 * 1024;
};

struct SessionDigestInput {
  const Transcript* transcript = nullptr;  // any harness (reader_for(*transcript))
  uint64_t from_offset = 0;                // 0, or the marked size when `appended`
  uint64_t complete_size = 0;              // bytes of complete lines now (the torn tail excluded)
  const Scrubber* scrubber = nullptr;      // every string scrubbed before it is sized or cut
  DigestCaps caps;
  // When set, the same pass takes the facts the triage inventory reads from a log (every record, counted as
  // the inventory counts them: core/triage/log_facts.h), so a digested session's log is read once.
  LogFacts* facts = nullptr;
};

struct SessionDigestResult {
  nlohmann::ordered_json session;  // one sessions[] object of the digest format
  uint64_t covered_size = 0;       // the watermark size: complete_size, or when truncated the
                                   // offset that completes the first event left out
  std::string project;             // first recorded working directory ("" = none recorded)
  std::vector<std::string> cwds;   // every recorded working directory, first-seen order
  std::string error;               // non-empty: could not read (becomes an errors[] entry)
  std::string unreadable;          // a compressed log that stopped decoding part way (ReadStats::unreadable)
};

SessionDigestResult digest_session(const SessionDigestInput& in);

inline constexpr std::string_view kDetectorVersion = "csift-digest/2";

}  // namespace csift
