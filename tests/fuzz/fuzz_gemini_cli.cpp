// Fuzzes Gemini CLI's decoder (core/harness/gemini_cli/) through the reader seam: the input is written to a
// scratch file and read as a Gemini CLI log, densely and sparsely, each line read back and decoded alone,
// turns numbered and every record classified (tests/fuzz/fuzz_support.h). A failure is a sanitizer report, an
// exception, or a broken seam contract: records + skipped + blank != lines, or the two reads disagreeing.
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(gemini_cli) {
  csift_fuzz::read_through_seam(csift::HarnessId::gemini_cli, csift_fuzz::as_text(data, size));
  return 0;
}
