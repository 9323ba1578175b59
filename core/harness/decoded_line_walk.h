// The per-line accounting of a reader that decodes one line at a time with a harness's own decoder (Cursor's
// transcript lines, OpenCode's rendered rows): records + skipped + blank + declined == lines, the line-type
// census, and `want` declining a line only after the shared well-formedness check, so skipped_lines is the
// same whatever `want` declines.
#pragma once
#include <string>
#include <string_view>

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

}  // namespace csift
