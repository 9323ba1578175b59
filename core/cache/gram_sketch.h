// GramSketch: which 4-byte sequences a file's bytes hold, as a one-hash Bloom filter over ASCII-folded
// 4-grams. It answers "could this needle occur in the file?" without reading the file again: every 4-gram of
// a needle that occurs is in the sketch, so a needle with one 4-gram missing cannot occur (no false
// negatives; false positives from hash collisions and from needles whose 4-grams occur apart). 4-grams, not
// trigrams: base64 image data in a transcript holds nearly every alphanumeric trigram, which made a trigram
// sketch answer "maybe" for most absent words in files with a screenshot (measured on ../shared/corpus:
// 5-10 of 108 files per absent word with trigrams, 0-2 with 4-grams, at the same size).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace csift {

class GramSketch {
 public:
  // Sized from the file: half a bit per byte (a power of two), at least 4 Kib, at most 2 Mib (256 KiB).
  explicit GramSketch(uint64_t file_bytes);
  // Adds the 4-grams inside `bytes` (none spanning two calls: callers pass blocks of whole lines, and a
  // needle never spans two lines).
  void add(std::string_view bytes);
  // ORs another sketch of the same size into this one.
  void merge(const GramSketch& other);
  // False only when `needle` cannot occur in the bytes added (ASCII letters compared caselessly). A needle
  // shorter than 4 bytes, or holding a newline, is always a maybe.
  bool may_contain(std::string_view needle) const;
  size_t bytes() const { return words_.size() * sizeof(uint64_t); }

 private:
  uint64_t slot(uint32_t gram) const { return (uint64_t{gram} * 0x9E3779B97F4A7C15ull) >> shift_; }
  std::vector<uint64_t> words_;
  int shift_ = 0;
};

}  // namespace csift
