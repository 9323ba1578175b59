#include "core/cache/gram_sketch.h"

#include <emmintrin.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace csift {
namespace {

constexpr int kSketchMinBitsLog2 = 12;
constexpr int kSketchMaxBitsLog2 = 21;

// ASCII letters to lower case, every other byte unchanged: the fold SubstringFinder applies caselessly.
const std::array<uint8_t, 256>& sketch_fold_table() {
  static const std::array<uint8_t, 256> table = [] {
    std::array<uint8_t, 256> t{};
    for (int b = 0; b < 256; ++b)
      t[b] = static_cast<uint8_t>(b >= 'A' && b <= 'Z' ? b + 32 : b);
    return t;
  }();
  return table;
}

size_t wide_pair_bit(unsigned char lead, unsigned char next) {
  return (static_cast<size_t>(lead - 0xC0) << 8) | next;
}

size_t wide_triple_bit(unsigned char lead, unsigned char b1, unsigned char b2) {
  const uint32_t key = (uint32_t{lead} << 16) | (uint32_t{b1} << 8) | b2;
  return (uint64_t{key} * 0x9E3779B97F4A7C15ull) >> 50;  // 14 bits
}

// The code point of 4 hex digits, or -1.
int32_t escape_code(const unsigned char* h) {
  int32_t code = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned char c = h[k];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) return -1;
    code = code * 16 + v;
  }
  return code;
}

size_t escape_bit(int32_t code) {
  return (uint64_t(code) * 0x9E3779B97F4A7C15ull) >> 50;  // 14 bits
}

}  // namespace

LazyBitTable& LazyBitTable::operator=(const LazyBitTable& other) {
  if (this == &other) return *this;
  dense_ = other.dense_ ? std::make_unique<Words>(*other.dense_) : nullptr;
  present_ = other.present_;
  packed_ = other.packed_;
  return *this;
}

size_t LazyBitTable::rank(size_t i) const {
  size_t before = 0;
  for (size_t k = 0; k < (i >> 6); ++k)
    before += static_cast<size_t>(__builtin_popcountll(present_[k]));
  const uint64_t below = (uint64_t{1} << (i & 63)) - 1;
  return before + static_cast<size_t>(__builtin_popcountll(present_[i >> 6] & below));
}

void LazyBitTable::set_word(size_t i, uint64_t v) {
  if (!dense_) {
    const bool present = present_[i >> 6] >> (i & 63) & 1;
    if (present && v != 0) {
      packed_[rank(i)] = v;
      return;
    }
    if (!present && v == 0) return;
    auto words = std::make_unique<Words>();
    for (size_t k = 0; k < kWords; ++k)
      (*words)[k] = word(k);
    dense_ = std::move(words);
    present_ = {};
    packed_.clear();
    packed_.shrink_to_fit();
  }
  (*dense_)[i] = v;
}

void LazyBitTable::merge(const LazyBitTable& other) {
  for (size_t i = 0; i < kWords; ++i)
    if (const uint64_t w = other.word(i); w & ~word(i)) set_word(i, word(i) | w);
}

void LazyBitTable::pack() {
  if (!dense_) return;
  std::unique_ptr<Words> words = std::move(dense_);
  for (size_t i = 0; i < kWords; ++i)
    append_packed(i, (*words)[i]);
  packed_.shrink_to_fit();
}

bool LazyBitTable::append_packed(size_t i, uint64_t v) {
  if (dense_ || v == 0 || i >= kWords) return false;
  for (size_t k = i >> 6; k < present_.size(); ++k)  // no word at or after `i` yet
    if (present_[k] >> ((k == (i >> 6)) ? (i & 63) : 0) != 0) return false;
  present_[i >> 6] |= uint64_t{1} << (i & 63);
  packed_.push_back(v);
  return true;
}

bool LazyBitTable::operator==(const LazyBitTable& other) const {
  for (size_t i = 0; i < kWords; ++i)
    if (word(i) != other.word(i)) return false;
  return true;
}

void GramSketch::pack_tables() {
  wide_pairs_.pack();
  wide_triples_.pack();
  escapes_.pack();
}

void GramSketch::add_escape(const unsigned char* p, size_t left) {
  if (left < 6 || p[1] != 'u') return;
  const int32_t code = escape_code(p + 2);
  if (code < 0x80) return;
  const size_t bit = escape_bit(code);
  escapes_.set(bit);
}

bool GramSketch::may_hold_escape(std::string_view hex4) const {
  if (hex4.size() != 4) return true;
  const int32_t code = escape_code(reinterpret_cast<const unsigned char*>(hex4.data()));
  if (code < 0x80) return true;
  const size_t bit = escape_bit(code);
  return escapes_.test(bit);
}

void GramSketch::add_wide(const unsigned char* p, size_t left) {
  if (left < 2) return;
  const size_t pair = wide_pair_bit(p[0], p[1]);
  wide_pairs_.set(pair);
  if (left < 3) return;
  const size_t triple = wide_triple_bit(p[0], p[1], p[2]);
  wide_triples_.set(triple);
}

GramSketch::GramSketch(uint64_t file_bytes) {
  int log2 = kSketchMinBitsLog2;
  while (log2 < kSketchMaxBitsLog2 && (uint64_t{1} << log2) < file_bytes / 2)
    ++log2;
  words_.assign((size_t{1} << log2) / 64, 0);
  shift_ = 64 - log2;
}

namespace {

// The even bits of `x` OR'ed with the odd ones, packed into the low 32 bits.
uint64_t fold_pairs(uint64_t x) {
  x = (x | (x >> 1)) & 0x5555555555555555ull;
  x = (x | (x >> 1)) & 0x3333333333333333ull;
  x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0Full;
  x = (x | (x >> 4)) & 0x00FF00FF00FF00FFull;
  x = (x | (x >> 8)) & 0x0000FFFF0000FFFFull;
  x = (x | (x >> 16)) & 0x00000000FFFFFFFFull;
  return x;
}

void encode_sparse_table(BlobWriter& w, const LazyBitTable& t) {
  uint64_t set = 0;
  for (size_t i = 0; i < LazyBitTable::kWords; ++i)
    set += t.word(i) != 0;
  w.u64(set);
  for (size_t i = 0; i < LazyBitTable::kWords; ++i)
    if (t.word(i) != 0) {
      w.u64(i);
      w.u64(t.word(i));
    }
}

bool decode_sparse_table(BlobReader& r, LazyBitTable& t) {
  const uint64_t set = r.count();
  for (uint64_t k = 0; k < set && r.ok(); ++k) {
    const uint64_t i = r.u64();
    const uint64_t v = r.u64();
    if (i >= LazyBitTable::kWords || !t.append_packed(static_cast<size_t>(i), v)) return false;
  }
  return r.ok();
}

}  // namespace

bool GramSketch::fold() {
  if (64 - shift_ <= kSketchMinBitsLog2) return false;
  // A slot is the top bits of the gram's hash: one bit fewer is the slot halved, so old bits 2i and 2i+1
  // become bit i.
  std::vector<uint64_t> half(words_.size() / 2);
  for (size_t k = 0; k < half.size(); ++k)
    half[k] = fold_pairs(words_[2 * k]) | (fold_pairs(words_[2 * k + 1]) << 32);
  words_ = std::move(half);
  ++shift_;
  return true;
}

namespace {

// The set bits of `words` (of each word folded in pairs, when `folded`). The baseline x86-64 target lacks
// the popcount instruction, so without a clone the builtin was a call into libgcc a word at a time (4 % of a
// fresh server's first search before recalled sketches stopped being measured); the loader picks the clone
// the CPU runs.
__attribute__((target_clones("popcnt", "default"))) uint64_t count_set_bits(
    const std::vector<uint64_t>& words, bool folded) {
  uint64_t set = 0;
  for (const uint64_t w : words)
    set += static_cast<uint64_t>(__builtin_popcountll(folded ? fold_pairs(w) : w));
  return set;
}

}  // namespace

std::optional<double> GramSketch::fill_after_fold() const {
  if (64 - shift_ <= kSketchMinBitsLog2) return std::nullopt;
  const uint64_t set = count_set_bits(words_, /*folded=*/true);
  return static_cast<double>(set) / static_cast<double>(words_.size() * 32);
}

void GramSketch::fold_while_fill_at_most(double max_fill) {
  for (auto after = fill_after_fold(); after && *after <= max_fill; after = fill_after_fold())
    fold();
}

double GramSketch::fill() const {
  const uint64_t set = count_set_bits(words_, /*folded=*/false);
  return words_.empty() ? 1.0 : static_cast<double>(set) / static_cast<double>(words_.size() * 64);
}

void GramSketch::encode(BlobWriter& w) const {
  w.u64(static_cast<uint64_t>(64 - shift_));
  w.raw(std::string_view(reinterpret_cast<const char*>(words_.data()), words_.size() * sizeof(uint64_t)));
  encode_sparse_table(w, wide_pairs_);
  encode_sparse_table(w, wide_triples_);
  encode_sparse_table(w, escapes_);
}

std::optional<GramSketch> GramSketch::decode(BlobReader& r) {
  const uint64_t log2 = r.u64();
  if (!r.ok() || log2 < kSketchMinBitsLog2 || log2 > kSketchMaxBitsLog2) return std::nullopt;
  const std::string_view bits = r.raw(((size_t{1} << log2) / 64) * sizeof(uint64_t));
  if (!r.ok()) return std::nullopt;
  GramSketch g;  // no array of its own: it takes the stored one's size
  g.words_.resize(bits.size() / sizeof(uint64_t));
  g.shift_ = 64 - static_cast<int>(log2);
  std::memcpy(g.words_.data(), bits.data(), bits.size());
  if (!decode_sparse_table(r, g.wide_pairs_) || !decode_sparse_table(r, g.wide_triples_) ||
      !decode_sparse_table(r, g.escapes_))
    return std::nullopt;
  return g;
}

void GramSketch::add_bytewise(std::string_view bytes) {
  const auto& fold = sketch_fold_table();
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  uint32_t gram = 0;
  for (size_t i = 0; i < n; ++i) {
    gram = (gram << 8) | fold[p[i]];
    if (p[i] >= 0xC0) add_wide(p + i, n - i);
    if (p[i] == '\\') add_escape(p + i, n - i);
    if (i < 3) continue;
    set_gram(gram);
  }
}

// The UTF-8 lead bytes and `\u` escapes of p[from, to), 16 bytes at a time (SSE2, every x86-64 has it):
// they are rare, so each is found by its mask bit rather than by a test per byte. Only a backslash before a
// `u` can start an escape add_escape keeps (other escapes, `\"` and `\n`, are common in JSON text).
void GramSketch::add_specials(const unsigned char* p, size_t n, size_t from, size_t to) {
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i letter_u = _mm_set1_epi8('u');
  const __m128i below_lead = _mm_set1_epi8(static_cast<char>(0xBF));  // signed: leads are -64..-1
  const __m128i zero = _mm_setzero_si128();
  size_t i = from;
  for (; i + 17 <= to; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
    const __m128i lead = _mm_and_si128(_mm_cmpgt_epi8(v, below_lead), _mm_cmplt_epi8(v, zero));
    const __m128i escape = _mm_and_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(next, letter_u));
    auto mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(lead, escape)));
    for (; mask != 0; mask &= mask - 1) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (p[at] == '\\')
        add_escape(p + at, n - at);
      else
        add_wide(p + at, n - at);
    }
  }
  for (; i < to; ++i) {
    if (p[i] >= 0xC0) add_wide(p + i, n - i);
    if (p[i] == '\\') add_escape(p + i, n - i);
  }
}

// add_bytewise's grams without its loop-carried gram and per-byte branches: a piece of the input is folded
// into a buffer (a loop the compiler vectorizes), each gram is one unaligned load of it, and the rare bytes
// that feed the other tables are found by SIMD masks. Sketching was 43 % of a fresh server's first search
// on the real-shaped store (every line of 905 MB sketched), at a byte a step.
void GramSketch::add(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  if (n < 64) return add_bytewise(bytes);
  constexpr size_t kPiece = 8192;  // grams starting in one piece; its buffer stays in L1
  unsigned char folded[kPiece + 3];
  for (size_t start = 0; start + 3 < n; start += kPiece) {
    const size_t grams = std::min(kPiece, n - 3 - start);
    const size_t len = grams + 3;
    for (size_t k = 0; k < len; ++k) {
      const unsigned char c = p[start + k];
      folded[k] = static_cast<unsigned char>(c + (static_cast<unsigned char>(c - 'A') < 26 ? 32 : 0));
    }
    // Slots are computed eight at a time before their bits are set, so the multiplies do not wait on the
    // stores (the sketch is up to 256 KiB: each store is an L2 access).
    size_t k = 0;
    for (; k + 8 <= grams; k += 8) {
      uint64_t slots[8];
      for (size_t j = 0; j < 8; ++j) {
        uint32_t le;
        std::memcpy(&le, folded + k + j, 4);
        slots[j] = slot(__builtin_bswap32(le));  // add_bytewise's gram holds its first byte highest
      }
      for (const uint64_t s : slots)
        words_[s >> 6] |= uint64_t{1} << (s & 63);
    }
    for (; k < grams; ++k) {
      uint32_t le;
      std::memcpy(&le, folded + k, 4);
      set_gram(__builtin_bswap32(le));
    }
  }
  add_specials(p, n, 0, n);
}

void GramSketch::merge(const GramSketch& other) {
  const size_t n = std::min(words_.size(), other.words_.size());
  for (size_t i = 0; i < n; ++i)
    words_[i] |= other.words_[i];
  wide_pairs_.merge(other.wide_pairs_);
  wide_triples_.merge(other.wide_triples_);
  escapes_.merge(other.escapes_);
}

bool GramSketch::may_contain(std::string_view needle) const {
  if (needle.find('\n') != std::string_view::npos) return true;
  if (needle.size() < 4) {
    const auto* w = reinterpret_cast<const unsigned char*>(needle.data());
    if (needle.size() < 2 || w[0] < 0xC0) return true;
    if (needle.size() == 2) return wide_pairs_.test(wide_pair_bit(w[0], w[1]));
    const size_t bit = wide_triple_bit(w[0], w[1], w[2]);
    return wide_triples_.test(bit);
  }
  const auto& fold = sketch_fold_table();
  uint32_t gram = 0;
  for (size_t i = 0; i < needle.size(); ++i) {
    gram = (gram << 8) | fold[static_cast<unsigned char>(needle[i])];
    if (i < 3) continue;
    const uint64_t s = slot(gram);
    if (!(words_[s >> 6] >> (s & 63) & 1)) return false;
  }
  return true;
}

}  // namespace csift
