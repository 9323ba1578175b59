// A byte set at least one member of which occurs in every text the pattern matches (UTF-8, after repair),
// derived from our parse tree like the needles but down to single bytes: `[a-z]*[0-9]` needs a digit,
// `(a|aa)*c` needs a 'c'. The matcher checks it before running the DFA, so a long text without any of
// those bytes is answered at memchr speed instead of the DFA's ~50 ns per byte.
#pragma once
#include <bitset>
#include <optional>
#include <string_view>

#include "core/regex/pattern_ast.h"

namespace csift {

using ByteSet = std::bitset<256>;

// nullopt: no byte is provably required (a dot, a negated or Unicode-property class, an optional part...).
std::optional<ByteSet> required_bytes(const ParsedPattern& pattern);

// Whether any byte of `text` is in `set`.
bool contains_any_byte(std::string_view text, const ByteSet& set);

}  // namespace csift
