// Fuzzes the counted-repeat automaton (core/regex/class_sequence.h) differentially against PCRE2's
// backtracking matcher (tests/fuzz/regex_reference.h). The input is read as a recipe rather than as text,
// so nearly every run is a pattern of the automaton's shape: a flag byte (ignore case, multiline), then
// pairs of bytes, each an item (a literal, `.`, a class, \w \d \s \p{L}, or an anchor ^ $ \b \B \A \z) and
// its count ({m}, {m,n}, {m,}, ?, *, +, with m and n small or in the hundreds), up to a 0xFF byte; the rest
// is the subject, its bytes mapped onto a small alphabet (ASCII letters and digits, space, newline, é, ß, Σ)
// so items meet members. A failure is a verdict different from PCRE2's, or a sanitizer report.
#include "tests/fuzz/regex_reference.h"

namespace {

const char* const kItems[] = {"a",      "b", ".",   "[ab]", "[^a]", "\\w", "\\d", "\\s", "\\p{L}", "é",
                              "[a-zé]", "Σ", "\\W", "x",    "^",    "$",   "\\b", "\\B", "\\A",    "\\z"};
constexpr size_t kAnchors = 6;  // the last six items take no count
const char* const kAlphabet[] = {"a", "b", "x", "A", "1", " ", "\n", "é", "ß", "Σ", "σ", "_", "-", "B"};

std::string count_of(uint8_t c) {
  const unsigned m = c & 7, n = m + ((c >> 3) & 3);
  switch (c >> 5) {
    case 0:
      return "{" + std::to_string(m) + "}";
    case 1:
      return "{" + std::to_string(m) + "," + std::to_string(n) + "}";
    case 2:
      return "{" + std::to_string(m) + ",}";
    case 3:
      return "?";
    case 4:
      return "*";
    case 5:
      return "+";
    case 6:
      return "{" + std::to_string(100 + m * 37) + "}";
    default:
      return "";
  }
}

}  // namespace

CSIFT_FUZZ_TARGET(counted_repeat) {
  if (size < 1) return 0;
  csift::RegexOptions opts;
  opts.ignore_case = data[0] & 1;
  opts.multiline = data[0] & 2;
  std::string pattern;
  size_t at = 1;
  for (int items = 0; at + 1 < size && data[at] != 0xFF && items < 8; at += 2, ++items) {
    const size_t item = data[at] % std::size(kItems);
    pattern += kItems[item];
    if (item < std::size(kItems) - kAnchors) pattern += count_of(data[at + 1]);
  }
  std::string subject;
  for (++at; at < size && subject.size() < 2048; ++at)
    subject += kAlphabet[data[at] % std::size(kAlphabet)];
  csift_fuzz::differential(pattern, subject, opts);
  return 0;
}
