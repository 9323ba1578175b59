// A UTF-8-valid view of arbitrary bytes for matchers that require valid UTF-8 (PCRE2's DFA refuses
// PCRE2_MATCH_INVALID_UTF). Invalid bytes become U+FFFD one byte at a time; offsets map both ways so matches
// are reported against the original bytes.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

class Utf8Repair {
 public:
  // Returns the text to match: `bytes` itself when valid (no copy), else the repaired copy held by this
  // object.
  std::string_view prepare(std::string_view bytes);
  bool repaired() const { return repaired_; }
  // Offset in the matched text -> offset in the original bytes (identity when not repaired).
  size_t to_original(size_t pos) const;
  // Offset in the original bytes -> offset in the matched text (a byte inside a replaced sequence maps to its
  // start).
  size_t to_repaired(size_t pos) const;

 private:
  struct Segment {
    size_t repaired;  // start of the segment in the repaired text
    size_t original;  // start of the segment in the original bytes
  };
  bool repaired_ = false;
  std::string text_;
  std::vector<Segment> segments_;  // sorted; the offset delta changes only at segment starts
};

// Length of the valid UTF-8 sequence at p[0] (1-4), or 0 when p[0] does not start one.
size_t valid_utf8_sequence(const unsigned char* p, size_t avail);

}  // namespace csift
