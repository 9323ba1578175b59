// core/base/text.h: the one trim and the one comma splitter.
#include "core/base/text.h"

#include <doctest/doctest.h>

namespace text_unit {

using namespace csift;

TEST_CASE("trim: the default set is C isspace; a named set trims only its characters") {
  CHECK(trim("  a b \t\n") == "a b");
  CHECK(trim("\v\f\r a\v\f\r") == "a");
  CHECK(trim_start(" \n x ") == "x ");
  CHECK(trim_end(" x \n") == " x");
  CHECK(trim("").empty());
  CHECK(trim(" \t\n\v\f\r").empty());
  CHECK(trim_start("   ").empty());
  CHECK(trim_end("   ").empty());
  CHECK(trim("x") == "x");

  // JSON whitespace: \v and \f are content (a raw JSON token keeps them).
  CHECK(trim("\r\n {\"a\":1} \t", kJsonSpace) == "{\"a\":1}");
  CHECK(trim("\v1\f", kJsonSpace) == "\v1\f");
  // Blanks: a one-line value keeps its line breaks.
  CHECK(trim(" \t2026-07-13 \t", kBlanks) == "2026-07-13");
  CHECK(trim("\n2h\n", kBlanks) == "\n2h\n");

  // The result is a view into the argument, also when nothing is left.
  const std::string_view s = "  ";
  CHECK(trim_start(s).data() == s.data() + 2);
}

TEST_CASE("split_commas: non-empty pieces in order, untrimmed") {
  using V = std::vector<std::string>;
  CHECK(split_commas("5,7..9") == V{"5", "7..9"});
  CHECK(split_commas("a") == V{"a"});
  CHECK(split_commas("").empty());
  CHECK(split_commas(",").empty());
  CHECK(split_commas(",,a,,b,") == V{"a", "b"});
  CHECK(split_commas(" a , b") == V{" a ", " b"});
}

TEST_CASE("contains: a substring anywhere, the empty needle always") {
  CHECK(contains("a \"text\" b", "\"text\""));
  CHECK(contains("abc", ""));
  CHECK(contains("", ""));
  CHECK_FALSE(contains("", "a"));
  CHECK_FALSE(contains("ab", "abc"));
}

TEST_CASE("join: separators only between items") {
  using V = std::vector<std::string>;
  CHECK(join(V{}, ", ").empty());
  CHECK(join(V{"a"}, ", ") == "a");
  CHECK(join(V{"a", "b", "c"}, " \xC2\xB7 ") == "a \xC2\xB7 b \xC2\xB7 c");
  CHECK(join(V{"-t", "user"}, "") == "-tuser");
}

TEST_CASE("ASCII byte classes") {
  CHECK(is_ascii_digit('0'));
  CHECK(is_ascii_digit('9'));
  CHECK_FALSE(is_ascii_digit('a'));
  CHECK_FALSE(is_ascii_digit('\xD9'));  // a UTF-8 byte, not a digit
  for (const char c : std::string_view("09afAF"))
    CHECK(is_ascii_hex(c));
  for (const char c : std::string_view("gG:/@`\x80"))
    CHECK_FALSE(is_ascii_hex(c));
  CHECK(hex_digit_value('0') == 0);
  CHECK(hex_digit_value('9') == 9);
  CHECK(hex_digit_value('a') == 10);
  CHECK(hex_digit_value('F') == 15);
  CHECK(hex_digit_value('g') == -1);
  CHECK(hex_digit_value('\xC3') == -1);
  for (const char c : std::string_view("0Zaz9A"))
    CHECK(is_ascii_alnum(c));
  for (const char c : std::string_view("-_/.@[`{\xC3"))
    CHECK_FALSE(is_ascii_alnum(c));
  CHECK(is_ascii_alnum(int32_t{'q'}));
  CHECK_FALSE(is_ascii_alnum(int32_t{0xE9}));  // é as a code point
  CHECK(lower_ascii('Q') == 'q');
  CHECK(lower_ascii('q') == 'q');
  CHECK(lower_ascii('@') == '@');
  CHECK(lower_ascii('\xC3') == '\xC3');
  for (const char c : kAsciiSpace)
    CHECK(is_ascii_space(c));
  for (const char c : kJsonSpace)
    CHECK(is_json_space(c));
  CHECK_FALSE(is_json_space('\v'));
  CHECK_FALSE(is_json_space('\f'));
  CHECK_FALSE(is_ascii_space('x'));
  CHECK_FALSE(is_ascii_space('\0'));
}

TEST_CASE("lower_ascii on a string and starts_with_ignoring_case: ASCII letters only") {
  CHECK(lower_ascii(std::string_view("Content-Type: Bearer X")) == "content-type: bearer x");
  CHECK(lower_ascii(std::string_view("\xC3\x89t\xC3\xA9")) == "\xC3\x89t\xC3\xA9");  // É stays: not ASCII
  CHECK(starts_with_ignoring_case("Background command done", "background command"));
  CHECK(starts_with_ignoring_case("0A1B2C", "0a1b"));
  CHECK_FALSE(starts_with_ignoring_case("0a", "0a1b"));  // a prefix longer than the text
  CHECK_FALSE(starts_with_ignoring_case("workflow", "monitor"));
}

}  // namespace text_unit
