// The reader seam: one harness's transcript file -> Records in file order, with exact line accounting.
// Claude Code is the first reader; other harnesses plug in beside it behind the same interface.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/record.h"
#include "core/scan/line_scanner.h"
#include "core/store/store.h"

namespace csift {

struct SkippedLine {
  uint64_t line = 0;
  std::string reason;  // "malformed JSON: <what>", "torn final line (no newline)", "line too large"
};

// Where one line of a file is: enough to read it again later without scanning for it.
struct LineRef {
  uint64_t line = 0;    // 1-based
  uint64_t offset = 0;  // byte offset of its first byte
  uint64_t length = 0;  // without the '\n'
};

struct ReadOptions {
  // Decides from the raw bytes whether a line is parsed. Empty = parse every non-blank line. A declined line
  // is still checked for well-formedness, so skipped_lines is the same whatever `want` declines.
  std::function<bool(std::string_view)> want;
  // Parse the file's first line whatever `want` says (a /fork clone is known by its line 1).
  bool parse_first_line = false;
  // Record where each well-formed declined line is (ReadResult::declined), for a later targeted read.
  bool keep_declined = false;
  // Count every physical line under its top-level `type` (stats' line_types census).
  bool census_types = false;
  const CancelToken* cancel = nullptr;
  // Called after each block with the bytes consumed so far (progress).
  std::function<void(uint64_t)> on_bytes;
};

struct ReadResult {
  std::vector<Record> records;  // file order
  uint64_t lines = 0;           // physical lines, the torn tail included
  uint64_t blank_lines = 0;
  uint64_t non_candidate_lines = 0;  // well-shaped lines opts.want declined (never parsed)
  uint64_t skipped_lines = 0;        // malformed + too large + torn tail
  std::vector<SkippedLine> skipped;  // each skipped line (line number and reason)
  std::vector<LineRef> declined;     // with keep_declined: the well-formed lines `want` declined, file order
  bool torn_tail = false;
  uint64_t bytes = 0;
  std::map<std::string, uint64_t> line_types;  // when census_types ("(malformed)" / "(blank)" keys included)
  bool cancelled = false;
  std::string error;  // the file could not be read
};

class TranscriptReader {
 public:
  virtual ~TranscriptReader() = default;
  virtual std::string_view harness() const = 0;
  virtual ReadResult read(const Transcript& t, const ReadOptions& opts) const = 0;
};

// The Claude Code reader (jsonl): oneTBB across newline-aligned chunks for large files, one RecordParser
// per thread, results in file order.
const TranscriptReader& claude_code_reader();

}  // namespace csift
