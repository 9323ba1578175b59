// Our own parse of a search pattern, independent of PCRE2: it enforces the linear-time dialect (refusing
// every construct that needs backtracking, with its name and offset) and yields the small syntax tree that
// required-needle derivation (needles.h) and the forward/reverse DFA pattern emission (pattern_emit.h) walk.
// Every flag that PCRE2 would apply implicitly (smart case, (?i) scopes, --multiline) is resolved here onto
// the nodes, so the tree alone says what each node matches.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace csift {

// How the caller asked to search: `-i` forces case-insensitivity; otherwise smart case decides (see
// smart_case).
struct RegexOptions {
  bool ignore_case = false;
  bool multiline = false;  // `.` crosses '\n' and ^/$ match at line starts/ends
};

// The inline-flag state at one point of the pattern.
struct PatternFlags {
  bool caseless = false;
  bool multiline = false;
  bool dotall = false;
  bool extended = false;
};

enum class NodeKind {
  empty,        // matches the empty string
  literal,      // one code point (cp), caseless or not
  dot,          // any code point, '\n' too when dotall
  atom,         // a class [..] or class escape (\d \w \s \h \v \p{..} and negations): source copied verbatim
  assertion,    // zero-width: see AssertKind
  concat,       // children in order
  alternation,  // any child
  repeat,       // children[0] repeated min..max (max < 0: unbounded)
};

enum class AssertKind { text_start, text_end, line_start, line_end, word_boundary, not_word_boundary };

struct PatternNode {
  NodeKind kind = NodeKind::empty;
  char32_t cp = 0;
  bool caseless = false;
  bool dotall = false;
  AssertKind assertion = AssertKind::text_start;
  std::string source;
  int min = 0;
  int max = -1;
  bool lazy = false;
  std::vector<PatternNode> children;
};

struct ParsedPattern {
  PatternNode root;
  bool caseless = false;  // the case mode the pattern started in (smart case or -i)
  bool multiline = false;
};

// True when the pattern contains an uppercase letter written as a literal (outside escapes such as \W \S \D
// \B \P, inside classes too), which makes smart case search case-sensitively; the ripgrep rule.
bool has_uppercase_literal(std::string_view pattern);

// Checks the dialect and parses. Throws ToolError(usage) naming the refused construct, its byte offset and
// the supported dialect. Smart case is applied from `options`.
ParsedPattern parse_pattern(std::string_view pattern, const RegexOptions& options);

// The supported dialect, one paragraph, for --help, SKILL.md and every refusal message.
std::string supported_dialect_text();

}  // namespace csift
