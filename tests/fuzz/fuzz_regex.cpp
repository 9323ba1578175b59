// Fuzzes the search pattern parser (core/regex/pattern_ast.h) and the matcher behind it (core/regex/regex.h),
// differentially against PCRE2's backtracking matcher (tests/fuzz/regex_reference.h). Input: one flag byte
// (bit 0 ignore case, bit 1 multiline), then the pattern up to the first NUL, then the subject. A failure is
// a sanitizer report, an exception other than the dialect's usage refusal, a pattern the matcher accepts and
// PCRE2 refuses, or a match / no-match verdict that differs from PCRE2's on a subject both can judge (valid
// UTF-8, within PCRE2's limits; the matcher's `too complex` is not a verdict).
#include "tests/fuzz/regex_reference.h"

CSIFT_FUZZ_TARGET(regex) {
  if (size < 1) return 0;
  const std::string_view s = csift_fuzz::as_text(data + 1, size - 1);
  csift::RegexOptions opts;
  opts.ignore_case = data[0] & 1;
  opts.multiline = data[0] & 2;
  const size_t nul = s.find('\0');
  const std::string_view pattern = s.substr(0, nul);
  const std::string_view subject = nul == std::string_view::npos ? std::string_view{} : s.substr(nul + 1);
  if (pattern.size() > 256 || subject.size() > 4096) return 0;
  csift_fuzz::differential(pattern, subject, opts);
  return 0;
}
