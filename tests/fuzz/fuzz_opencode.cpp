// Fuzzes OpenCode's row decoder (core/harness/opencode/): OpenCode sessions live in SQLite, and the reader
// renders each message row as one JSON line (opencode_log.h) that decode_opencode_line maps onto the record
// model; that in-memory entry point is what this drives, one input line per row, every decoded record then
// classified in order and turns numbered with OpenCode's rule. A failure is a sanitizer report or an
// exception escaping the decoder or the classifier.
#include "core/harness/opencode/opencode_fields.h"
#include "core/harness/opencode/opencode_reader.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(opencode) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  std::vector<Record> records;
  uint64_t number = 0;
  for (size_t at = 0; at <= s.size();) {
    size_t nl = s.find('\n', at);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view line = s.substr(at, nl - at);
    at = nl + 1;
    Record r;
    r.line = ++number;
    std::string error;
    if (decode_opencode_line(line, r, error)) records.push_back(std::move(r));
  }
  for (const TranscriptReader* reader : {&opencode_v1_reader(), &opencode_v2_reader()})
    (void)assign_turns(records, TurnRule{reader->turn_opener(), nullptr});
  ClassifyContext ctx;
  for (const Record& r : records)
    (void)classify_record(r, ctx);
  return 0;
}
