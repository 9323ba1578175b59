// The walk mirrors needles.cpp: a literal needs its first byte, a concatenation its rarest part, an
// alternation the union of its branches only when every branch needs something, a repeat what its body
// needs only when it occurs at least once. Anything whose matches cannot be bounded to a known byte set
// (dots, negations, \w, \s, \p{..}, POSIX classes, caseless non-ASCII) gives nothing, so the set is
// necessary, never a guess.
#include "core/regex/required_bytes.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "core/scan/substring_finder.h"

namespace csift {
namespace {

using RequiredSet = std::optional<ByteSet>;

// The lead bytes of every multi-byte UTF-8 sequence: what a Unicode digit (\d under PCRE2_UCP) or a
// non-ASCII character can start with.
ByteSet utf8_lead_bytes() {
  ByteSet s;
  for (int b = 0xC2; b <= 0xF4; ++b)
    s.set(static_cast<size_t>(b));
  return s;
}

// One ASCII letter under caseless matching: both cases, plus the lead byte of the two non-ASCII characters
// Unicode folds onto ASCII letters (U+212A KELVIN SIGN ~ k, U+017F LONG S ~ s).
void add_char(ByteSet& s, char32_t cp, bool caseless) {
  s.set(static_cast<size_t>(cp));
  if (!caseless) return;
  if (cp >= 'a' && cp <= 'z') s.set(static_cast<size_t>(cp - 32));
  if (cp >= 'A' && cp <= 'Z') s.set(static_cast<size_t>(cp + 32));
  if (cp == 'k' || cp == 'K') s.set(0xE2);
  if (cp == 's' || cp == 'S') s.set(0xC5);
}

RequiredSet literal_bytes(const PatternNode& n) {
  ByteSet s;
  if (n.cp < 0x80) {
    add_char(s, n.cp, n.caseless);
    return s;
  }
  if (n.caseless) return std::nullopt;  // its other case may start with another byte
  // The UTF-8 lead byte of the code point.
  const unsigned lead = n.cp < 0x800     ? 0xC0 | (n.cp >> 6)
                        : n.cp < 0x10000 ? 0xE0 | (n.cp >> 12)
                                         : 0xF0 | (n.cp >> 18);
  s.set(lead);
  return s;
}

// \d under PCRE2_UCP: the ASCII digits and whatever a Unicode digit's UTF-8 sequence starts with.
ByteSet digit_bytes() {
  ByteSet s = utf8_lead_bytes();
  for (char c = '0'; c <= '9'; ++c)
    s.set(static_cast<unsigned char>(c));
  return s;
}

// A class or class escape written as source: only \d, and [...] made of ASCII characters, ASCII ranges and
// \d, are bounded; everything else gives nothing.
RequiredSet atom_bytes(const PatternNode& n) {
  const std::string& src = n.source;
  if (src == "\\d") return digit_bytes();
  if (src.size() < 3 || src.front() != '[' || src.back() != ']' || src[1] == '^') return std::nullopt;
  ByteSet s;
  const std::string body = src.substr(1, src.size() - 2);
  for (size_t i = 0; i < body.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(body[i]);
    if (c >= 0x80 || c == '[') return std::nullopt;  // non-ASCII members, POSIX classes
    if (c == '\\') {
      if (i + 1 < body.size() && body[i + 1] == 'd') {
        s |= digit_bytes();
        ++i;
        continue;
      }
      return std::nullopt;
    }
    if (i + 2 < body.size() && body[i + 1] == '-') {
      const unsigned char hi = static_cast<unsigned char>(body[i + 2]);
      if (hi >= 0x80 || hi == '\\' || hi == '[' || hi < c) return std::nullopt;
      for (unsigned x = c; x <= hi; ++x)
        add_char(s, x, n.caseless);
      i += 2;
      continue;
    }
    add_char(s, c, n.caseless);
  }
  return s;
}

RequiredSet required_set_of(const PatternNode& n);

// How often a text holds some byte of the set (roughly: the frequency table is log-scaled by 16 per
// doubling), so a concatenation is screened by its rarest part: `a+b` by 'b' in a run of 'a's.
double weight(const ByteSet& s) {
  double w = 0;
  for (size_t b = 0; b < 256; ++b)
    if (s.test(b)) w += std::exp2(byte_frequency(static_cast<unsigned char>(b)) / 16.0);
  return w;
}

RequiredSet rarer(RequiredSet a, RequiredSet b) {
  if (!a) return b;
  if (!b) return a;
  return weight(*a) <= weight(*b) ? a : b;
}

RequiredSet required_set_of(const PatternNode& n) {
  switch (n.kind) {
    case NodeKind::literal:
      return literal_bytes(n);
    case NodeKind::atom:
      return atom_bytes(n);
    case NodeKind::concat: {
      RequiredSet best;
      for (const auto& c : n.children)
        best = rarer(best, required_set_of(c));
      return best;
    }
    case NodeKind::alternation: {
      ByteSet all;
      for (const auto& branch : n.children) {
        const RequiredSet r = required_set_of(branch);
        if (!r) return std::nullopt;
        all |= *r;
      }
      return all;
    }
    case NodeKind::repeat:
      return n.min >= 1 ? required_set_of(n.children[0]) : std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<ByteSet> required_bytes(const ParsedPattern& pattern) {
  return required_set_of(pattern.root);
}

bool contains_any_byte(std::string_view text, const ByteSet& set) {
  bool table[256];
  for (size_t b = 0; b < 256; ++b)
    table[b] = set.test(b);
  for (const char c : text)
    if (table[static_cast<unsigned char>(c)]) return true;
  return false;
}

}  // namespace csift
