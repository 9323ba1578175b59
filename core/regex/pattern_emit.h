// Turns a parsed pattern back into PCRE2 syntax with every flag explicit on every node, forward or mirrored.
// The mirrored form matches the reversed text exactly where the forward form matches the text, which lets the
// matcher find a match's start with one backward DFA pass instead of retrying start positions (quadratic).
#pragma once
#include <string>

#include "core/regex/pattern_ast.h"

namespace csift {

// Compile the result with PCRE2_UTF | PCRE2_UCP | PCRE2_ALT_CIRCUMFLEX and no case/dot/multiline options: the
// text carries them. Reversed: concatenations run backwards and anchors swap sides (^ <-> $, \A <-> \z).
std::string emit_pcre2(const PatternNode& node, bool reversed);

}  // namespace csift
