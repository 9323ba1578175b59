// Small string helpers shared by core, tools and server: ASCII byte classes, trimming by a named character
// set, substring test, join, and splitting comma-joined values. One definition each; a trim names the
// whitespace it means at the call.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// C isspace() in the "C" locale: space, \t, \n, \v, \f, \r.
inline constexpr std::string_view kAsciiSpace = " \t\n\v\f\r";
// JSON's insignificant whitespace (RFC 8259): space, \t, \n, \r.
inline constexpr std::string_view kJsonSpace = " \t\n\r";
// Spaces and tabs only (a one-line value: a flag's argument, an HTTP header's optional whitespace).
inline constexpr std::string_view kBlanks = " \t";

// ASCII byte classes (a byte >= 0x80 is in none of them). The two whitespace classes are the sets above.
constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
constexpr bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
// The index of the first non-whitespace byte of `s` at or after `i` (s.size() when none).
inline size_t skip_json_space(std::string_view s, size_t i) {
  while (i < s.size() && is_json_space(s[i]))
    ++i;
  return i;
}
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_ascii_hex(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// The value of a hex digit, or -1 when `c` is not one.
constexpr int hex_digit_value(char c) {
  if (is_ascii_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// Takes a code point too (path encoding asks it of UTF-16 units).
constexpr bool is_ascii_alnum(int32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
// A UTF-8 continuation byte (10xxxxxx): never the first byte of a character.
constexpr bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
constexpr char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c;
}

// `s` with A-Z turned to a-z (other bytes kept): HTTP header names, case-blind prefixes.
std::string lower_ascii(std::string_view s);
// Whether `s` begins with `prefix`, ASCII letters compared without case.
bool starts_with_ignoring_case(std::string_view s, std::string_view prefix);

// `s` without leading / trailing / both runs of characters from `chars`; all-`chars` input yields "".
std::string_view trim_start(std::string_view s, std::string_view chars = kAsciiSpace);
std::string_view trim_end(std::string_view s, std::string_view chars = kAsciiSpace);
std::string_view trim(std::string_view s, std::string_view chars = kAsciiSpace);

// Whether `needle` occurs in `s` (std::string_view::contains arrives only in C++23).
inline bool contains(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

// `items` joined by `sep`: {"a", "b"}, ", " -> "a, b"; no items -> "".
std::string join(const std::vector<std::string>& items, std::string_view sep);

// The non-empty pieces of a comma-joined value, in order: "5,7..9" -> {"5", "7..9"}; empty pieces (",",
// "a,,b", a trailing comma) are dropped, and pieces are not trimmed.
std::vector<std::string> split_commas(std::string_view joined);

}  // namespace csift
