// required_bytes: the byte sets derived from patterns, and that the matcher's use of them never loses a
// match.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/regex/regex.h"
#include "core/regex/required_bytes.h"

namespace required_bytes_unit {

using namespace csift;

namespace {

std::optional<ByteSet> set_of(const std::string& pattern, bool ignore_case = false) {
  RegexOptions o;
  o.ignore_case = ignore_case;
  return required_bytes(parse_pattern(pattern, o));
}

std::string members(const ByteSet& s) {
  std::string out;
  for (size_t b = 0; b < 256; ++b)
    if (s.test(b)) out.push_back(static_cast<char>(b));
  return out;
}

}  // namespace

TEST_CASE("required_bytes: what each construct needs") {
  CHECK(members(*set_of("[a-z]*[0-9]")) == "0123456789");
  // Smart case: a pattern without uppercase matches caselessly, so letters bring both cases.
  CHECK(members(*set_of("(a|aa)*c")) == "Cc");
  CHECK(members(*set_of("a?b")) == "Bb");
  CHECK(members(*set_of("x|y")) == "XYxy");
  CHECK(members(*set_of("A+B")).size() == 1);  // case-sensitive; the rarer of the two screens
  CHECK(members(*set_of("c", true)) == "Cc");
  CHECK(members(*set_of("k")) == "Kk\xE2");       // U+212A KELVIN SIGN folds onto k
  CHECK(members(*set_of("\xC3\x89")) == "\xC3");  // É (case-sensitive by smart case): its UTF-8 lead byte
  const ByteSet digits = *set_of("\\d");          // Unicode digits under PCRE2_UCP
  CHECK(digits.test('7'));
  CHECK(digits.test(0xD9));  // Arabic-Indic digits start with 0xD9
  for (const char* none : {".", "a*", "[^a]", "\\w", "\\s", "(a|.)", "[[:alpha:]]", "\\p{L}", "^$"})
    CHECK_MESSAGE(!set_of(none), none);
  CHECK_FALSE(set_of("\xC3\xA9"));  // é, caseless by smart case: its other case may start with another byte
}

TEST_CASE("the matcher's byte and needle screens never lose a match") {
  struct Case {
    const char* pattern;
    std::string text;
    bool match;
  };
  const std::vector<Case> cases = {
      {"[a-z]*[0-9]", std::string(100000, 'a') + "7", true},
      {"[a-z]*[0-9]", std::string(100000, 'a'), false},
      {"(a|aa)*c", std::string(5000, 'a') + "c", true},
      {"(a|aa)*c", std::string(5000, 'a'), false},
      {"a+b", "xxab", true},
      {"K+elvin",
       "\xE2\x84\xAA"
       "elvin",
       false},  // case-sensitive: the Kelvin sign is not K
      {"k+elvin",
       "\xE2\x84\xAA"
       "elvin",
       true},                      // smart case folds it onto k
      {"\\d+", "\xD9\xA3", true},  // ARABIC-INDIC DIGIT THREE
      {"zan.*quux", "zanzibarquux", true},
      {"zan.*quux", "zanzibar", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.pattern);
    Matcher m(CompiledPattern::compile(c.pattern, RegexOptions{}));
    CHECK(m.find(c.text).matched() == c.match);
    CHECK((m.is_match(c.text) == MatchStatus::match) == c.match);
  }
}

}  // namespace required_bytes_unit
