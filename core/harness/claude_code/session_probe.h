// The head/tail identity probe (SPEC.md §9.1, §7): who a session is, read without scanning the whole file.
// The head is read forward until the first genuine user message; the tail is read backward, floored at the
// head's end so the two windows are disjoint, until the last genuine user message and the last agent text.
// Only a file missing those anchors is read end to end.
#pragma once
#include <cstdint>
#include <string>

namespace csift {

// The most characters of an anchor's text a probe keeps: `list` shows an excerpt this long. Keeping the whole
// text (a last agent answer runs to kilobytes) made a probe ~5 KB in a server's memo and on disk for the 200
// characters any answer shows.
inline constexpr size_t kProbeAnchorChars = 200;

// One anchor message: the start of its text and where it sits.
struct ProbedMessage {
  bool found = false;
  // The text on one line (one_line: whitespace runs folded to one space), cut to its first
  // kProbeAnchorChars characters.
  std::string text;
  std::string timestamp;  // ISO-8601 as on disk ("" when the record had none)
  // 1-based line; 0 when unknown: a tail anchor more than 1 MiB past the head window (numbering it would
  // mean reading the middle of the file).
  uint64_t line = 0;
  uint64_t offset = 0;  // byte offset of the line start
  uint64_t chars = 0;   // characters in the whole one-line text (what `text` leaves out is the rest)
};

struct Record;
// The anchor for `text`, the message `r` carries: folded, cut and counted as ProbedMessage says.
ProbedMessage probed_anchor(const Record& r, std::string_view text);

struct SessionProbe {
  ProbedMessage first_user;  // first genuine user message
  ProbedMessage last_user;   // last genuine user message (the first one when only one exists)
  ProbedMessage last_agent;  // last assistant record carrying text

  // cwd is kept FIRST-seen on purpose: the record cwd follows the shell, so a later one may be a transient
  // subdir.
  std::string cwd;
  std::string version_first, version_last;
  std::string git_branch_first, git_branch_last;

  // The first and the newest top-level timestamps read: the session's activity span.
  std::string first_timestamp, last_timestamp;

  // Clone lineage: the first timestamped record is a system/compact_boundary (a copy made at a compaction).
  bool is_clone = false;
  std::string clone_boundary_uuid;

  uint64_t skipped_lines = 0;    // malformed lines (and a torn final line) among the lines read, each once
  uint64_t head_end = 0;         // byte offset where the head window stopped: the tail's floor
  uint64_t head_lines = 0;       // physical lines in [0, head_end)
  uint64_t bytes_read = 0;       // head + tail bytes read from disk
  bool read_whole_file = false;  // the head found no genuine user, so it walked the whole file
  std::string error;             // the file could not be read
  std::string unreadable;        // a compressed log whose stream stopped decoding (ReadStats::unreadable)
};

// Probes one transcript file. Safe to call concurrently (each thread keeps its own parser).
SessionProbe probe_session(const std::string& path);

// The moment a session was last active for "most recently active" ranking: the latest of the first/last user
// and last agent timestamps, else the newest timestamp read; INT64_MIN when the session carries none.
int64_t most_recent_activity(const SessionProbe& probe);

// The text of an assistant record's text blocks joined by newlines ("" when it has none).
std::string agent_text(const Record& r);

}  // namespace csift
