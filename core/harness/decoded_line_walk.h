// The per-line accounting of a reader that decodes one line at a time with a harness's own decoder (Cursor's
// transcript lines, OpenCode's rendered rows): records + skipped + blank + declined == lines, the line-type
// census, and `want` declining a line only after the shared well-formedness check, so skipped_lines is the
// same whatever `want` declines.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/record/transcript_reader.h"

namespace csift {

struct DecodedLineWalk {
  using Decode = bool (*)(std::string_view line, Record& r, std::string& error);

  const ReadOptions& opts;
  RecordSink& sink;
  Decode decode;
  std::string_view not_an_object;  // the reason a declined line that is not a JSON object is skipped with
  ReadStats stats = {};

  void census(const std::string& type);
  void skip(uint64_t line, std::string reason);
  // One non-blank line (its physical count already taken); false when the sink asks to stop.
  bool line(std::string_view bytes, uint64_t number, uint64_t offset);
};

// `read_raw_lines` over a log a reader lays out in memory (OpenCode's rendered rows, a legacy Gemini CLI
// document's migrated lines): each line with its number and its offset in that log, newline counted.
ScanStats walk_laid_out_lines(const std::vector<std::string>& lines, const std::string& error,
                              const RawLineFn& fn, const CancelToken* cancel);

}  // namespace csift
