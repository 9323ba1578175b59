// Required-needle derivation (SPEC.md §10): byte strings at least one of which occurs in the RAW JSON line of
// every record whose decoded text the pattern matches, so lines lacking all of them are dropped before any
// JSON parse. Necessity only: a needle is emitted only when the pattern cannot match without it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/regex/pattern_ast.h"

namespace csift {

struct NeedleSet {
  static constexpr size_t kMaxNeedles = 8;
  static constexpr size_t kMinNeedleBytes = 3;

  // Empty: no prefilter possible (every line is a candidate). Otherwise 1..8 needles, any one of which is
  // required.
  std::vector<std::string> needles;
  bool caseless = false;  // match the needles ASCII-caselessly
  // Caseless only: with PCRE2's Unicode folding 'k' also matches U+212A (KELVIN SIGN) and 's' U+017F (LONG
  // S), which a raw line holds as UTF-8 bytes or a \u escape. These markers keep the prefilter exact for such
  // lines; search for them alongside the needles (they are rare, so they cost nothing in practice).
  std::vector<std::string> fold_markers;
  // The whole pattern is this one literal (no metacharacters) and it is the single needle.
  bool exact_literal = false;

  bool empty() const { return needles.empty(); }
  // needles + fold_markers: what a SubstringFinder should look for.
  std::vector<std::string> all() const;
};

// The safety predicate per byte: whitespace (render-time normalisation), '"', '\\', control bytes and DEL
// (JSON escapes), and every non-ASCII byte (an encoder may write it as \uXXXX) never appear in a needle.
bool needle_safe_byte(unsigned char c);

// The fixed texts a render writes between the pieces it copies from a record (SPEC.md §7 "Confined
// needles"): `joiners` as written, `numbers` when it also writes numbers of its own (counts, re-printed JSON
// values); a digit in the joiners of such a render stands for any run of digits.
struct RenderJoiners {
  std::vector<std::string_view> joiners;
  bool numbers = false;
  // Joiners that only ever open the rendered text ("[AskUserQuestion · …"): no piece runs into them.
  std::vector<std::string_view> openers = {};
  // Joiners the record's own bytes hold too, but perhaps in the other case (a re-printed string's `\u001e`:
  // JSON spells that character no other way but for the case of its hex digits). They bound only a needle
  // matched with case.
  std::vector<std::string_view> hex_escapes = {};
};

// True when every occurrence of `needle` in a text made of copied pieces and `r`'s joiners lies inside one
// piece, so a record's raw bytes hold the needle whenever its rendered text does. The needle (safe bytes
// only, ASCII-caseless when `caseless`) must then share no byte with a joiner where the two could meet: it is
// not inside a joiner's run of safe bytes, holds no joiner that is all safe bytes, does not end in a prefix
// of a joiner's leading run or begin with a suffix of its trailing run, and holds no digit when `r.numbers`
// (a digit in a joiner ends its run: the needle, digit-free, cannot cross it).
bool needle_confined(std::string_view needle, bool caseless, const RenderJoiners& r);

NeedleSet required_needles(const ParsedPattern& pattern);
NeedleSet required_needles(std::string_view pattern, const RegexOptions& options);

}  // namespace csift
