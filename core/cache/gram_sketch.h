// GramSketch: which 4-byte sequences a file's bytes hold, as a one-hash Bloom filter over ASCII-folded
// 4-grams. It answers "could this needle occur in the file?" without reading the file again: every 4-gram of
// a needle that occurs is in the sketch, so a needle with one 4-gram missing cannot occur (no false
// negatives; false positives from hash collisions and from needles whose 4-grams occur apart). 4-grams, not
// trigrams: base64 image data in a transcript holds nearly every alphanumeric trigram, which made a trigram
// sketch answer "maybe" for most absent words in files with a screenshot (measured on ../shared/corpus:
// 5-10 of 108 files per absent word with trigrams, 0-2 with 4-grams, at the same size).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/cache/disk_cache.h"

namespace csift {

// 16,384 bits in one of two forms. While a sketch is built: the words as one array, allocated at the first
// bit set (most transcripts are ASCII and set none of a sketch's three such tables, which held 6 KiB of every
// sketch when always present: 27 MB of a warmed server's 4,503 screens on the 3 GiB replica). Once kept
// (pack(), and what decode builds through append_packed): only the words holding a bit, found by a mask of
// which do. A non-ASCII transcript sets a few of the 256 words, and a fresh server's first search on the
// generated store spent a fifth of its time faulting in the 2 KiB arrays it decoded. A bit set in a packed
// table unpacks it.
class LazyBitTable {
 public:
  static constexpr size_t kWords = 256;
  LazyBitTable() = default;
  LazyBitTable(const LazyBitTable& other) { *this = other; }
  LazyBitTable& operator=(const LazyBitTable& other);
  LazyBitTable(LazyBitTable&&) noexcept = default;
  LazyBitTable& operator=(LazyBitTable&&) noexcept = default;
  void set(size_t bit) { set_word(bit >> 6, word(bit >> 6) | uint64_t{1} << (bit & 63)); }
  bool test(size_t bit) const { return word(bit >> 6) >> (bit & 63) & 1; }
  uint64_t word(size_t i) const {
    if (dense_) return (*dense_)[i];
    return present_[i >> 6] >> (i & 63) & 1 ? packed_[rank(i)] : 0;
  }
  void set_word(size_t i, uint64_t v);
  void merge(const LazyBitTable& other);
  // To the packed form (a no-op when packed).
  void pack();
  bool dense() const { return dense_ != nullptr; }
  // Appends word `i` to a packed table: false unless `i` follows the last word appended and `v` has a bit
  // (what encode writes; anything else is not a table it wrote).
  bool append_packed(size_t i, uint64_t v);
  bool operator==(const LazyBitTable& other) const;
  size_t bytes() const { return dense_ ? sizeof(Words) : packed_.capacity() * sizeof(uint64_t); }

 private:
  using Words = std::array<uint64_t, kWords>;
  // Where word `i` (present) sits in packed_.
  size_t rank(size_t i) const;
  std::unique_ptr<Words> dense_;
  std::array<uint64_t, kWords / 64> present_{};
  std::vector<uint64_t> packed_;
};

class GramSketch {
 public:
  // Sized from the file: half a bit per byte (a power of two), at least 4 Kib, at most 2 Mib (256 KiB).
  explicit GramSketch(uint64_t file_bytes);
  // Adds the 4-grams inside `bytes` (none spanning two calls: callers pass blocks of whole lines, and a
  // needle never spans two lines).
  void add(std::string_view bytes);
  // The same, a byte at a time: the definition add() must match (tests), and what short inputs take.
  void add_bytewise(std::string_view bytes);
  bool operator==(const GramSketch&) const = default;
  // ORs another sketch of the same size into this one.
  void merge(const GramSketch& other);
  // False only when `needle` cannot occur in the bytes added (ASCII letters compared caselessly). A needle
  // shorter than 4 bytes is a maybe, unless it is a 2- or 3-byte UTF-8 character (the caseless fold markers
  // `ſ` and `K` a lowercase `s` or `k` brings: kept exactly for pairs, hashed for triples); a needle holding
  // a newline is always a maybe.
  bool may_contain(std::string_view needle) const;
  // False only when no `\uXXXX` JSON escape of this code point (4 hex digits, either case) of at least U+0080
  // occurs in the bytes added (the escaped form of a fold marker).
  bool may_hold_escape(std::string_view hex4) const;
  // Half the bits, each the OR of the two it replaces (a gram's slot loses its last bit): whatever
  // may_contain answered maybe before it still does, and some no becomes a maybe. False at the smallest
  // size. What the disk cache does to a sparse sketch before keeping it (SPEC.md §7 "Persisted cache").
  bool fold();
  // The share of the bit array set.
  double fill() const;
  // The fill one fold() would leave, counted without folding (nullopt at the smallest size).
  std::optional<double> fill_after_fold() const;
  // Folds while a fold leaves the fill at most `max_fill`. Deciding by fill_after_fold() copies nothing: a
  // trial fold on a copy was most of the memory a fresh search touched (every sketch taken from the disk was
  // copied and folded once, only to find it could not fold).
  void fold_while_fill_at_most(double max_fill);
  // The sketch as the disk cache keeps it, and back (nullopt: bytes that are not one; bounds-checked).
  void encode(BlobWriter& w) const;
  static std::optional<GramSketch> decode(BlobReader& r);
  // The wide-character and escape tables in their packed form (what a sketch kept in a memo holds), and
  // whether one is not.
  void pack_tables();
  bool tables_dense() const { return wide_pairs_.dense() || wide_triples_.dense() || escapes_.dense(); }
  size_t bytes() const {
    return words_.size() * sizeof(uint64_t) + wide_pairs_.bytes() + wide_triples_.bytes() + escapes_.bytes();
  }

 private:
  GramSketch() = default;
  uint64_t slot(uint32_t gram) const { return (uint64_t{gram} * 0x9E3779B97F4A7C15ull) >> shift_; }
  void set_gram(uint32_t gram) {
    const uint64_t s = slot(gram);
    words_[s >> 6] |= uint64_t{1} << (s & 63);
  }
  void add_specials(const unsigned char* p, size_t n, size_t from, size_t to);
  void add_wide(const unsigned char* p, size_t left);
  void add_escape(const unsigned char* p, size_t left);
  std::vector<uint64_t> words_;
  int shift_ = 0;
  // Which UTF-8 lead byte (0xC0..0xFF) is followed by which byte, and (hashed) by which two bytes.
  LazyBitTable wide_pairs_;
  LazyBitTable wide_triples_;
  // Which code points (hashed) `\uXXXX` escapes of U+0080 and above name.
  LazyBitTable escapes_;
};

}  // namespace csift
