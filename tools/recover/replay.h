// The replay behind `recover` (SPEC.md §9.13): a file's content events, in transcript order, applied to a
// sparse line buffer. A full read or a write sets every line; a windowed read sets its lines and nothing
// else; an edit on a complete buffer applies its own old/new strings (its structured patch only cross-checks
// them), elsewhere it moves lines by its structured patch. A line no event showed stays unknown, and an edit
// that cannot be placed on known lines leaves its region unknown (a counted hole) instead of guessing. Lines
// are the text split at every '\n', so a file ending in a newline has an empty last line and the joined lines
// are the file's bytes exactly.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/mutations/content_events.h"

namespace csift {

struct FileBuffer {
  std::map<int64_t, std::string> lines;  // 1-based line -> text (no '\n')
  std::optional<int64_t> total;          // the file's line count, when an event said it
  bool complete() const { return total && static_cast<int64_t>(lines.size()) == *total && *total > 0; }
  std::string text() const;  // the known lines joined by '\n' (the file's bytes when complete)
  void clear() {
    lines.clear();
    total.reset();
  }
};

// `text` split at every '\n' ("a\n" is {"a", ""}).
std::vector<std::string> split_file_lines(const std::string& text);

// One event as the replay orders it: which transcript it came from.
struct OrderedEvent {
  const ContentEvent* event = nullptr;
  const Transcript* transcript = nullptr;
};

struct ReplayBoundary {
  std::string cause;
  bool hard = false;  // invalidates what was known before it
  const ContentEvent* event = nullptr;
  const Transcript* transcript = nullptr;
  std::string detail;
  size_t order = 0;  // position in the replay (boundaries and changes interleave by it)
};

// One change as a unified diff (patches mode), in the segment between two hard boundaries it falls in.
struct ReplayChange {
  size_t segment = 0;
  const ContentEvent* event = nullptr;
  const Transcript* transcript = nullptr;
  std::string diff;
  size_t order = 0;
};

// An edit applied by its own old/new strings whose structuredPatch gave other lines: named, not a hole.
struct PatchDisagreement {
  const ContentEvent* event = nullptr;
  const Transcript* transcript = nullptr;
  std::string detail;
  size_t order = 0;
};

struct ReplayResult {
  FileBuffer buffer;
  std::vector<ReplayBoundary> boundaries;
  std::vector<ReplayChange> changes;
  std::vector<PatchDisagreement> patch_disagreements;
  std::map<std::string, uint64_t> counts;  // read-full, read-window, write, edit, multi-edit, hole, ...
  uint64_t holes = 0;
  uint64_t content_events = 0;  // reads, writes and edits replayed
  bool ever_known = false;      // some line was known at some point
  size_t hard_boundaries() const;
};

ReplayResult replay_events(const std::vector<OrderedEvent>& events);

// [lo, hi] runs of known lines, and the unknown runs within 1..total (hi = -1: to an unknown end).
std::vector<std::pair<int64_t, int64_t>> known_ranges(const FileBuffer& b);
std::vector<std::pair<int64_t, int64_t>> missing_ranges(const FileBuffer& b);
std::string ranges_text(const std::vector<std::pair<int64_t, int64_t>>& ranges);

bool is_hard_cause(const std::string& cause);

// An apply_patch update (core/harness/apply_patch.h) on a file's lines in the split-line model, as Codex
// applies it (codex-rs/apply-patch/src/lib.rs): each chunk sought after its `@@` context line and after the
// chunk before it (exactly, then ignoring trailing, then surrounding whitespace), a chunk without old lines
// appended at the end, the result always ending in a newline. nullopt when a chunk's lines are not there.
std::optional<std::vector<std::string>> apply_patch_chunks(const std::vector<std::string>& lines,
                                                           const std::vector<PatchChunk>& chunks);

}  // namespace csift
