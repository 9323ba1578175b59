// Fuzzes Cursor's decoder (core/harness/cursor/): each line of the input through decode_cursor_line and the
// turn rule, then the whole input through the reader seam as a Cursor agent transcript
// (tests/fuzz/fuzz_support.h). A failure is a sanitizer report, an exception, a line decoded without an
// error that is not a well-formed JSON object, or a broken seam contract (the accounting, dense vs sparse).
#include "core/harness/cursor/cursor_reader.h"
#include "core/json/json_syntax.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(cursor) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  for (size_t at = 0; at <= s.size();) {
    size_t nl = s.find('\n', at);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view line = s.substr(at, nl - at);
    at = nl + 1;
    Record r;
    std::string error;
    if (decode_cursor_line(line, r, error)) (void)cursor_opens_turn(r);
  }
  csift_fuzz::read_through_seam(HarnessId::cursor, s);
  return 0;
}
