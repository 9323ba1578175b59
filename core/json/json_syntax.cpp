#include "core/json/json_syntax.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "core/base/text.h"

namespace csift {
namespace {

const char* skip_ws(const char* p, const char* end) {
  while (p < end && is_json_space(*p))
    ++p;
  return p;
}

// Whitespace inside one line of a block: a '\n' ends the line, so it is never skipped.
const char* skip_line_ws(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    ++p;
  return p;
}

// How the validator skips whitespace: within a line it was given (the JSON set), or within a line of a block
// (the JSON set but the newline, which nothing else in the grammar consumes either, so validation stops at
// it).
struct LineSpace {
  static const char* skip(const char* p, const char* end) { return skip_ws(p, end); }
};
struct BlockSpace {
  static const char* skip(const char* p, const char* end) { return skip_line_ws(p, end); }
};

// One escape after its backslash; returns the byte after it, or nullptr.
const char* skip_escape(const char* p, const char* end) {
  if (p >= end) return nullptr;
  switch (*p) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
      return p + 1;
    case 'u':
      if (end - p < 5 || !is_ascii_hex(p[1]) || !is_ascii_hex(p[2]) || !is_ascii_hex(p[3]) ||
          !is_ascii_hex(p[4]))
        return nullptr;
      return p + 5;
    default:
      return nullptr;
  }
}

// A string body after its opening quote; returns the byte after the closing quote, or nullptr. A string
// must not hold a raw control character (< 0x20) and every backslash must start a valid escape.
const char* skip_string_scalar(const char* p, const char* end) {
  while (p < end) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') return p + 1;
    if (c < 0x20) return nullptr;
    if (c == '\\') {
      p = skip_escape(p + 1, end);
      if (!p) return nullptr;
      continue;
    }
    ++p;
  }
  return nullptr;
}

// The control bytes (< 0x20) of v: x < 0x20 unsigned  <=>  (x ^ 0x80) < (0x20 ^ 0x80) signed.
__attribute__((target("avx2"))) inline __m256i control_bytes(__m256i v) {
  return _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(0xA0)),
                           _mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(0x80))));
}

// The bytes a string skim must stop at in the 32 bytes at p: quotes, backslashes and control bytes.
__attribute__((target("avx2"))) inline uint32_t string_stops32(const char* p) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i stops = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                                                        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
                                        control_bytes(v));
  return static_cast<uint32_t>(_mm256_movemask_epi8(stops));
}

// The same, 32 bytes at a time: one mask of quote, backslash and control bytes per load, and escapes are
// consumed from that mask without reloading. It finishes what the 64-byte skim below leaves (fewer than 64
// bytes) when that skim stopped outside an escape.
__attribute__((target("avx2"))) const char* skip_string_avx2_32(const char* p, const char* end) {
  while (end - p >= 32) {
    uint32_t mask = string_stops32(p);
    const char* next = p + 32;
    while (mask != 0) {
      const char* at = p + __builtin_ctz(mask);
      if (*at == '"') return at + 1;
      if (*at != '\\') return nullptr;  // a raw control character
      const char* after = skip_escape(at + 1, end);
      if (!after) return nullptr;
      const ptrdiff_t consumed = after - p;
      if (consumed >= 32) {
        next = after;
        break;
      }
      mask &= ~((uint32_t{1} << consumed) - 1);  // the escaped byte (a quote or backslash) is not special
    }
    p = next;
  }
  return skip_string_scalar(p, end);
}

// The bytes of a 64-byte chunk preceded by an odd run of backslashes (the escaped bytes), without a branch
// per escape: tool output escapes a byte every few dozen, and deciding each one alone was most of the
// validator's time (bench/README.md, seventh pass). `carry` says on entry whether byte 0 is escaped (the
// previous chunk ended inside a run), and on exit whether the next chunk's byte 0 is. The rule is simdjson's
// stage-1 escape finder: a run starting on an even bit escapes the odd bits after it, and vice versa.
inline uint64_t escaped_bytes(uint64_t backslashes, uint64_t& carry) {
  constexpr uint64_t kEven = 0x5555555555555555ULL;
  backslashes &= ~carry;  // an escaped backslash starts no escape
  const uint64_t follows_backslash = (backslashes << 1) | carry;
  const uint64_t odd_starts = backslashes & ~kEven & ~follows_backslash;
  uint64_t even_starts_end = 0;
  carry = __builtin_add_overflow(odd_starts, backslashes, &even_starts_end) ? 1 : 0;
  return (kEven ^ (even_starts_end << 1)) & follows_backslash;
}

struct Chunk64 {
  __m256i lo, hi;
};

__attribute__((target("avx2"))) inline uint64_t byte_mask(const Chunk64& c, char byte) {
  const __m256i b = _mm256_set1_epi8(byte);
  const uint32_t lo = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(c.lo, b)));
  const uint32_t hi = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(c.hi, b)));
  return (uint64_t{hi} << 32) | lo;
}

__attribute__((target("avx2"))) inline uint64_t control_mask(const Chunk64& c) {
  const uint32_t lo = static_cast<uint32_t>(_mm256_movemask_epi8(control_bytes(c.lo)));
  const uint32_t hi = static_cast<uint32_t>(_mm256_movemask_epi8(control_bytes(c.hi)));
  return (uint64_t{hi} << 32) | lo;
}

// The bytes of 32 that may follow a backslash: " \ / b f n r t u. Each byte's two nibbles are looked up in
// two 16-entry tables and a byte is a letter when the lookups share a bit (simdjson's character classes):
// the letters' high nibbles are 2, 5, 6 and 7, one bit each, and a low nibble's entry holds the bits of the
// high nibbles it makes a letter with. Two shuffles instead of nine compares per 32 bytes: tool output
// escapes a byte every few dozen, so most chunks of a long string ask.
__attribute__((target("avx2"))) inline uint32_t escape_letters32(__m256i v) {
  constexpr char k2 = 1, k5 = 2, k6 = 4, k7 = 8;  // high nibble 2, 5, 6, 7
  const __m256i by_low = _mm256_setr_epi8(
      // low nibble: 0  1  2            3  4   5   6   7  8  9  A  B  C   D  E   F
      0, 0, k2 | k6 | k7, 0, k7, k7, k6, 0, 0, 0, 0, 0, k5, 0, k6, k2,  //
      0, 0, k2 | k6 | k7, 0, k7, k7, k6, 0, 0, 0, 0, 0, k5, 0, k6, k2);
  const __m256i by_high = _mm256_setr_epi8(0, 0, k2, 0, 0, k5, k6, k7, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                           0, 0, k2, 0, 0, k5, k6, k7, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i low = _mm256_shuffle_epi8(by_low, _mm256_and_si256(v, nibble));
  const __m256i high = _mm256_shuffle_epi8(by_high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
  const __m256i none = _mm256_cmpeq_epi8(_mm256_and_si256(low, high), _mm256_setzero_si256());
  return ~static_cast<uint32_t>(_mm256_movemask_epi8(none));
}

__attribute__((target("avx2"))) uint64_t escape_letter_mask(const Chunk64& c) {
  return (uint64_t{escape_letters32(c.hi)} << 32) | escape_letters32(c.lo);
}

// Every escaped byte in `escaped` (offsets into the chunk at p) is a valid escape letter, and each `u` has
// four hex digits after it before `end`.
__attribute__((target("avx2"))) bool escapes_valid(const Chunk64& c, const char* p, const char* end,
                                                   uint64_t escaped) {
  if (escaped & ~escape_letter_mask(c)) return false;
  for (uint64_t u = escaped & byte_mask(c, 'u'); u != 0; u &= u - 1) {
    const char* at = p + __builtin_ctzll(u);
    if (!skip_escape(at, end)) return false;
  }
  return true;
}

// A string body after its opening quote, 64 bytes at a time (see skip_string_scalar): the closing quote is
// the first quote not escaped; before it there must be no control byte and every escaped byte must be a
// valid escape.
__attribute__((target("avx2"))) const char* skip_string_avx2(const char* p, const char* end) {
  // Most strings are keys and short values that close before any escape: one 32-byte look settles them
  // (the 64-byte masks below cost more than that for a string of a few bytes).
  if (end - p >= 32) {
    const uint32_t mask = string_stops32(p);
    if (mask == 0) {
      p += 32;
    } else {
      const char* at = p + __builtin_ctz(mask);
      if (*at == '"') return at + 1;
      if (*at != '\\') return nullptr;  // a raw control character
      p = at;                           // the 64-byte skim starts at the first backslash
    }
  }
  uint64_t carry = 0;
  while (end - p >= 64) {
    Chunk64 c{_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))};
    const uint64_t backslashes = byte_mask(c, '\\');
    const uint64_t escaped = (backslashes | carry) != 0 ? escaped_bytes(backslashes, carry) : 0;
    const uint64_t quotes = byte_mask(c, '"') & ~escaped;
    const uint64_t before = quotes != 0 ? (quotes & (0 - quotes)) - 1 : ~uint64_t{0};
    if (control_mask(c) & before) return nullptr;
    if ((escaped & before) != 0 && !escapes_valid(c, p, end, escaped & before)) return nullptr;
    if (quotes != 0) return p + __builtin_ctzll(quotes) + 1;
    p += 64;
  }
  // Inside an escape: restart the rest at its backslash, which the scalar walk then reads as one.
  return carry != 0 ? skip_string_scalar(p - 1, end) : skip_string_avx2_32(p, end);
}

// Each bit set where an odd number of the bits at or below it are set: the bytes from an opening quote up
// to (not including) its closing quote.
inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// One 64-byte step of json_container_end: updates `depth` (brackets still open) and the string and escape
// state carried between chunks; returns the offset just past the closing bracket (1 to 64), or 0 when it is
// not in this chunk.
struct ContainerWalk {
  uint64_t escape_carry = 0;
  uint64_t in_string = 0;  // all ones when the chunk starts inside a string
  uint64_t depth = 0;

  __attribute__((target("avx2"))) size_t step(const Chunk64& c) {
    const uint64_t backslashes = byte_mask(c, '\\');
    const uint64_t escaped = (backslashes | escape_carry) != 0 ? escaped_bytes(backslashes, escape_carry) : 0;
    const uint64_t strings = prefix_xor(byte_mask(c, '"') & ~escaped) ^ in_string;
    in_string = static_cast<uint64_t>(static_cast<int64_t>(strings) >> 63);
    const uint64_t opens = (byte_mask(c, '{') | byte_mask(c, '[')) & ~strings;
    const uint64_t closes = (byte_mask(c, '}') | byte_mask(c, ']')) & ~strings;
    if (depth > static_cast<uint64_t>(__builtin_popcountll(closes))) {  // cannot close in this chunk
      depth += static_cast<uint64_t>(__builtin_popcountll(opens) - __builtin_popcountll(closes));
      return 0;
    }
    for (uint64_t m = opens | closes; m != 0; m &= m - 1) {
      const uint64_t bit = m & (0 - m);
      if (opens & bit) {
        ++depth;
      } else if (--depth == 0) {
        return static_cast<size_t>(__builtin_ctzll(bit)) + 1;
      }
    }
    return 0;
  }
};

struct ScalarStrings {
  static const char* skip(const char* p, const char* end) { return skip_string_scalar(p, end); }
};
struct Avx2Strings {
  __attribute__((target("avx2"))) static const char* skip(const char* p, const char* end) {
    return skip_string_avx2(p, end);
  }
};

// Number tokens beyond a finite double met by the current validation (json_object_well_formed resets it).
thread_local size_t t_out_of_range = 0;

// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
const char* skip_number(const char* p, const char* end) {
  const char* start = p;
  if (p < end && *p == '-') ++p;
  if (p >= end || !is_ascii_digit(*p)) return nullptr;
  const char* int_start = p;
  if (*p == '0') {
    ++p;
  } else {
    while (p < end && is_ascii_digit(*p))
      ++p;
  }
  const ptrdiff_t int_digits = p - int_start;
  if (p < end && *p == '.') {
    ++p;
    if (p >= end || !is_ascii_digit(*p)) return nullptr;
    while (p < end && is_ascii_digit(*p))
      ++p;
  }
  ptrdiff_t exp_digits = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p >= end || !is_ascii_digit(*p)) return nullptr;
    const char* exp_start = p;
    while (p < end && is_ascii_digit(*p))
      ++p;
    exp_digits = p - exp_start;
  }
  // A value past 1.8e308 needs a 3-digit exponent or 200 integer digits: only those take the exact test.
  if ((exp_digits >= 3 || int_digits >= 200) &&
      json_number_overflows(std::string_view(start, static_cast<size_t>(p - start))))
    ++t_out_of_range;
  return p;
}

const char* skip_word(const char* p, const char* end, std::string_view word) {
  if (static_cast<size_t>(end - p) < word.size() || std::memcmp(p, word.data(), word.size()) != 0)
    return nullptr;
  return p + word.size();
}

// A scalar value (string, number, literal); nullptr when p does not start one.
template <class Strings>
const char* skip_scalar(const char* p, const char* end) {
  switch (*p) {
    case '"':
      return Strings::skip(p + 1, end);
    case 't':
      return skip_word(p, end, "true");
    case 'f':
      return skip_word(p, end, "false");
    case 'n':
      return skip_word(p, end, "null");
    default:
      return skip_number(p, end);
  }
}

// What a plain validation records of the keys it meets: nothing (every call inlines away).
struct NoKeys {
  void opened(size_t /*depth*/, bool /*object*/) {}
  void key(const char* /*name*/, const char* /*name_end*/, const char* /*value*/, size_t /*depth*/) {}
  void value_ended(size_t /*depth*/, const char* /*at*/) {}
};

// Records the keys of the objects at container depth <= max_depth (json_object_outer_keys): a key is pending
// at its depth until the value after it ends.
class KeyRecorder {
 public:
  KeyRecorder(size_t max_depth, std::vector<OuterKey>& out)
      : max_depth_(std::min(max_depth, kMaxOuterDepth)), out_(out) {
    out_.clear();
    pending_.fill(kNone);
    object_.fill(0);
  }
  void opened(size_t depth, bool object) {
    if (object && depth <= max_depth_) object_[depth] = ++objects_;
  }
  void key(const char* name, const char* name_end, const char* value, size_t depth) {
    if (depth > max_depth_) return;
    pending_[depth] = out_.size();
    out_.push_back(OuterKey{std::string_view(name, static_cast<size_t>(name_end - name)),
                            std::string_view(value, 0), static_cast<uint32_t>(depth), object_[depth]});
  }
  void value_ended(size_t depth, const char* at) {
    if (depth > max_depth_ || pending_[depth] == kNone) return;
    OuterKey& k = out_[pending_[depth]];
    k.value = std::string_view(k.value.data(), static_cast<size_t>(at - k.value.data()));
    pending_[depth] = kNone;
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;
  size_t max_depth_;
  std::vector<OuterKey>& out_;
  std::array<size_t, kMaxOuterDepth + 1> pending_;
  std::array<uint32_t, kMaxOuterDepth + 1> object_;
  uint32_t objects_ = 0;
};

// The grammar as a loop over an explicit container stack (bit set = object), so nesting costs no recursion.
// `Strings` skims string bodies; the AVX2 entry point below flattens the whole validator into one function,
// so the string skim is inlined at every call site rather than reached through a pointer per string (the
// transcripts hold a string every ~40 bytes). `Keys` sees each container opened, each key with where its
// value starts, and each value's end (NoKeys, or KeyRecorder).
template <class Strings, class Space = LineSpace, class Keys = NoKeys>
class Validator {
 public:
  Validator(const char* p, const char* end, Keys keys = Keys{}) : p_(p), end_(end), keys_(keys) {}

  // The byte after the object and the whitespace after it, or nullptr when no well-formed object starts at p.
  const char* run() {
    p_ = Space::skip(p_, end_);
    if (p_ >= end_ || *p_ != '{') return nullptr;
    if (!open(true)) return nullptr;
    while (depth_ > 0) {
      if (!step()) return nullptr;
    }
    return Space::skip(p_, end_);
  }

 private:
  bool open(bool object) {
    if (depth_ >= kMaxJsonDepth) return false;
    is_object_[depth_++] = object;
    keys_.opened(depth_, object);
    ++p_;
    p_ = Space::skip(p_, end_);
    if (p_ >= end_) return false;
    if (*p_ == (object ? '}' : ']')) {  // empty container
      ++p_;
      return --depth_ == 0 || after_value();
    }
    return object ? key_and_colon() : true;
  }

  bool key_and_colon() {
    if (p_ >= end_ || *p_ != '"') return false;
    const char* name = p_ + 1;
    p_ = Strings::skip(name, end_);
    if (!p_) return false;
    const char* name_end = p_ - 1;
    p_ = Space::skip(p_, end_);
    if (p_ >= end_ || *p_ != ':') return false;
    p_ = Space::skip(p_ + 1, end_);
    keys_.key(name, name_end, p_, depth_);
    return true;
  }

  // One value at p_ (containers are opened, not finished), then the separator or closer after it.
  bool step() {
    if (p_ >= end_) return false;
    if (*p_ == '{' || *p_ == '[') return open(*p_ == '{');
    p_ = skip_scalar<Strings>(p_, end_);
    if (!p_) return false;
    return after_value();
  }

  bool after_value() {
    for (;;) {
      keys_.value_ended(depth_, p_);  // a value of the container at depth_ (a scalar, or one just closed)
      p_ = Space::skip(p_, end_);
      if (p_ >= end_) return false;
      const bool object = is_object_[depth_ - 1];
      if (*p_ == ',') {
        p_ = Space::skip(p_ + 1, end_);
        return object ? key_and_colon() : true;
      }
      if (*p_ != (object ? '}' : ']')) return false;
      ++p_;
      if (--depth_ == 0) return true;  // the top-level object closed
    }
  }

  const char* p_;
  const char* end_;
  size_t depth_ = 0;
  std::bitset<kMaxJsonDepth> is_object_;
  Keys keys_;
};

bool well_formed_scalar(const char* p, const char* end) {
  return Validator<ScalarStrings>(p, end).run() == end;
}

__attribute__((target("avx2"), flatten)) bool well_formed_avx2(const char* p, const char* end) {
  return Validator<Avx2Strings>(p, end).run() == end;
}

// A well-formed object line at the start of [p, end): its end (its '\n', or end), else nullptr.
const char* object_line_end(const char* p, const char* end) {
  const char* after = Validator<ScalarStrings, BlockSpace>(p, end).run();
  return after && (after == end || *after == '\n') ? after : nullptr;
}

__attribute__((target("avx2"), flatten)) const char* object_line_end_avx2(const char* p, const char* end) {
  const char* after = Validator<Avx2Strings, BlockSpace>(p, end).run();
  return after && (after == end || *after == '\n') ? after : nullptr;
}

__attribute__((target("avx2"), flatten)) bool outer_keys_avx2(const char* p, const char* end,
                                                              KeyRecorder& keys) {
  return Validator<Avx2Strings, LineSpace, KeyRecorder&>(p, end, keys).run() == end;
}

bool outer_keys_scalar(const char* p, const char* end, KeyRecorder& keys) {
  return Validator<ScalarStrings, LineSpace, KeyRecorder&>(p, end, keys).run() == end;
}

using WellFormedFn = bool (*)(const char*, const char*);
using LineEndFn = const char* (*)(const char*, const char*);

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

}  // namespace

bool json_object_well_formed(std::string_view line, size_t* out_of_range) {
  static const WellFormedFn fn = cpu_has_avx2() ? well_formed_avx2 : well_formed_scalar;
  t_out_of_range = 0;
  const bool ok = fn(line.data(), line.data() + line.size());
  if (out_of_range) *out_of_range = ok ? t_out_of_range : 0;
  return ok;
}

bool json_object_outer_keys(std::string_view line, size_t max_depth, std::vector<OuterKey>& keys,
                            size_t* out_of_range) {
  static const bool avx2 = cpu_has_avx2();
  t_out_of_range = 0;
  KeyRecorder recorder(max_depth, keys);
  const char* p = line.data();
  const char* end = p + line.size();
  const bool ok = avx2 ? outer_keys_avx2(p, end, recorder) : outer_keys_scalar(p, end, recorder);
  if (out_of_range) *out_of_range = ok ? t_out_of_range : 0;
  if (!ok) keys.clear();
  return ok;
}

const char* json_object_line_end(const char* p, const char* end, size_t* out_of_range) {
  static const LineEndFn fn = cpu_has_avx2() ? object_line_end_avx2 : object_line_end;
  t_out_of_range = 0;
  const char* line_end = fn(p, end);
  if (out_of_range) *out_of_range = line_end ? t_out_of_range : 0;
  return line_end;
}

namespace {

__attribute__((target("avx2"))) size_t container_end_avx2(std::string_view s, size_t open) {
  ContainerWalk walk;
  size_t at = open;
  while (s.size() - at >= 64) {
    const char* p = s.data() + at;
    const size_t found = walk.step(Chunk64{_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))});
    if (found != 0) return at + found;
    at += 64;
  }
  if (at == s.size()) return std::string_view::npos;
  // The last piece, padded with spaces (no quote, backslash or bracket), so the masks see only its bytes.
  alignas(32) char tail[64];
  std::memset(tail, ' ', sizeof tail);
  std::memcpy(tail, s.data() + at, s.size() - at);
  const size_t found = walk.step(Chunk64{_mm256_load_si256(reinterpret_cast<const __m256i*>(tail)),
                                         _mm256_load_si256(reinterpret_cast<const __m256i*>(tail + 32))});
  return found != 0 ? at + found : std::string_view::npos;
}

}  // namespace

size_t json_container_end(std::string_view s, size_t open) {
  static const bool avx2 = cpu_has_avx2();
  return avx2 ? container_end_avx2(s, open) : json_container_end_bytewise(s, open);
}

size_t json_container_end_bytewise(std::string_view s, size_t open) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

size_t json_string_end(std::string_view s, size_t open) {
  static const bool avx2 = cpu_has_avx2();
  const char* end = s.data() + s.size();
  const char* body = s.data() + open + 1;
  const char* after = avx2 ? skip_string_avx2(body, end) : skip_string_scalar(body, end);
  return after ? static_cast<size_t>(after - s.data()) : std::string_view::npos;
}

bool json_number_overflows(std::string_view token) {
  // The decimal magnitude of the first significant digit: digits before the point, minus leading zeros
  // after it, plus the exponent (saturated: an exponent of a thousand digits is simply huge).
  size_t i = token.empty() || token[0] != '-' ? 0 : 1;
  int64_t magnitude = 0;
  bool seen_significant = false;
  int64_t int_digits = 0, leading_fraction_zeros = 0;
  for (; i < token.size() && is_ascii_digit(token[i]); ++i) {
    if (token[i] != '0') seen_significant = true;
    if (seen_significant) ++int_digits;
  }
  if (i < token.size() && token[i] == '.') {
    for (++i; i < token.size() && is_ascii_digit(token[i]); ++i) {
      if (seen_significant) continue;
      if (token[i] != '0') {
        seen_significant = true;
      } else {
        ++leading_fraction_zeros;
      }
    }
  }
  if (!seen_significant) return false;  // zero, however spelled
  magnitude = int_digits > 0 ? int_digits - 1 : -(leading_fraction_zeros + 1);
  int64_t exponent = 0;
  bool negative = false;
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) negative = token[i++] == '-';
    for (; i < token.size() && is_ascii_digit(token[i]); ++i)
      exponent = std::min<int64_t>(exponent * 10 + (token[i] - '0'), int64_t{1} << 40);
  }
  magnitude += negative ? -exponent : exponent;
  if (magnitude != 308) return magnitude > 308;
  double value = 0;
  const auto [ptr, ec] =
      std::from_chars(token.data() + (token[0] == '-'), token.data() + token.size(), value);
  (void)ptr;
  return ec == std::errc::result_out_of_range;
}

}  // namespace csift
