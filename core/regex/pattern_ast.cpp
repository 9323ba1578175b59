// Recursive-descent parser for the linear-time dialect. It follows PCRE2 10.42's reading of the syntax (so
// the tree means what PCRE2 will match) but accepts only an allowlist: anything it does not understand is
// refused rather than guessed at, because needle derivation and reverse emission must never misread a
// pattern.
#include "core/regex/pattern_ast.h"

#include <utf8proc.h>

#include <cstdint>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/base/text.h"

namespace csift {
namespace {

constexpr int kMaxNesting = 200;
constexpr int kMaxRepeat = 65535;  // PCRE2's own limit for {m,n}

// \d \D \w \W \s \S \h \H \v \V: the class escapes, valid both as atoms and inside [...].
bool is_class_escape(char c) {
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
    case 'h':
    case 'H':
    case 'v':
    case 'V':
      return true;
    default:
      return false;
  }
}

bool is_uppercase_cp(char32_t cp) {
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
  auto cat = utf8proc_get_property(static_cast<utf8proc_int32_t>(cp))->category;
  return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LT;
}

// Decodes one UTF-8 code point at p[i]; returns its length, or 0 if the bytes are not valid UTF-8.
size_t decode_utf8(std::string_view p, size_t i, char32_t* out) {
  utf8proc_int32_t cp = 0;
  auto n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(p.data() + i),
                            static_cast<utf8proc_ssize_t>(p.size() - i), &cp);
  if (n <= 0) return 0;
  *out = static_cast<char32_t>(cp);
  return static_cast<size_t>(n);
}

class Parser {
 public:
  Parser(std::string_view p, PatternFlags flags) : p_(p), flags_(flags) {}

  PatternNode parse_all() {
    PatternNode root = parse_alternation(0);
    if (i_ < p_.size()) fail("unmatched closing parenthesis ')'", i_);
    return root;
  }
  bool saw_uppercase() const { return uppercase_; }

 private:
  [[noreturn]] void fail(const std::string& what, size_t at) const {
    usage_error("unsupported pattern: " + what + " at offset " + std::to_string(at) + ". " +
                supported_dialect_text());
  }
  [[noreturn]] void refuse(const std::string& what, size_t at) const {
    fail(what + " is not supported (it needs a backtracking engine)", at);
  }

  bool at_end() const { return i_ >= p_.size(); }
  char peek(size_t k = 0) const { return i_ + k < p_.size() ? p_[i_ + k] : '\0'; }
  bool starts_with(std::string_view s) const { return p_.substr(i_, s.size()) == s; }

  PatternNode parse_alternation(int depth);
  PatternNode parse_concat(int depth);
  bool parse_item(PatternNode* out, int depth);
  void parse_quantifier(PatternNode* item, size_t item_offset);
  bool read_braces_quantifier(int* min, int* max);
  PatternNode parse_group(int depth);
  bool parse_flag_group(PatternNode* out, int depth, size_t start);
  PatternNode parse_escape();
  char32_t parse_hex_escape(size_t start);
  char32_t parse_octal_braces(size_t start);
  PatternNode parse_class();
  void check_class_escape(size_t start);
  void skip_extended_space();
  PatternNode literal(char32_t cp);
  PatternNode parse_quoted();

  std::string_view p_;
  size_t i_ = 0;
  PatternFlags flags_;
  bool uppercase_ = false;
  bool setting_ = false;  // the item just parsed was a (?flags), (?#..) or \E: nothing to repeat
};

PatternNode make(NodeKind kind) {
  PatternNode n;
  n.kind = kind;
  return n;
}

PatternNode Parser::literal(char32_t cp) {
  PatternNode n = make(NodeKind::literal);
  n.cp = cp;
  n.caseless = flags_.caseless;
  if (is_uppercase_cp(cp)) uppercase_ = true;
  return n;
}

// In (?x) mode PCRE2 ignores Pattern_White_Space and '#' comments up to the next newline.
void Parser::skip_extended_space() {
  while (flags_.extended && !at_end()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
      ++i_;
    } else if (c == '#') {
      while (!at_end() && peek() != '\n')
        ++i_;
    } else if (starts_with("\xC2\x85")) {
      i_ += 2;
    } else if (starts_with("\xE2\x80\x8E") || starts_with("\xE2\x80\x8F") || starts_with("\xE2\x80\xA8") ||
               starts_with("\xE2\x80\xA9")) {
      i_ += 3;
    } else {
      break;
    }
  }
}

PatternNode Parser::parse_alternation(int depth) {
  if (depth > kMaxNesting) fail("groups nested too deeply", i_);
  std::vector<PatternNode> branches;
  branches.push_back(parse_concat(depth));
  while (!at_end() && peek() == '|') {
    ++i_;
    branches.push_back(parse_concat(depth));
  }
  if (branches.size() == 1) return std::move(branches[0]);
  PatternNode alt = make(NodeKind::alternation);
  alt.children = std::move(branches);
  return alt;
}

// A group's concatenation is spliced into the enclosing one, so literal runs read across (?:..) boundaries.
PatternNode Parser::parse_concat(int depth) {
  PatternNode cat = make(NodeKind::concat);
  for (;;) {
    PatternNode item;
    if (!parse_item(&item, depth)) break;
    if (item.kind == NodeKind::concat) {
      for (auto& c : item.children)
        cat.children.push_back(std::move(c));
    } else if (item.kind != NodeKind::empty) {
      cat.children.push_back(std::move(item));
    }
  }
  if (cat.children.empty()) return make(NodeKind::empty);
  if (cat.children.size() == 1) return std::move(cat.children[0]);
  return cat;
}

// Parses one item with its quantifier. Returns false at '|', ')' or the end.
bool Parser::parse_item(PatternNode* out, int depth) {
  skip_extended_space();
  if (at_end() || peek() == '|' || peek() == ')') return false;
  size_t start = i_;
  char c = peek();
  bool quantifiable = true;
  switch (c) {
    case '(':
      *out = parse_group(depth);
      break;
    case '[':
      *out = parse_class();
      break;
    case '\\':
      *out = parse_escape();
      break;
    case '.':
      ++i_;
      *out = make(NodeKind::dot);
      out->dotall = flags_.dotall;
      break;
    case '^':
    case '$':
      ++i_;
      *out = make(NodeKind::assertion);
      out->assertion = c == '^' ? (flags_.multiline ? AssertKind::line_start : AssertKind::text_start)
                                : (flags_.multiline ? AssertKind::line_end : AssertKind::text_end);
      break;
    case '*':
    case '+':
    case '?':
      fail("quantifier '" + std::string(1, c) + "' does not follow a repeatable item", i_);
    case '{': {
      int mn = 0, mx = 0;
      size_t save = i_;
      if (read_braces_quantifier(&mn, &mx)) fail("quantifier '{' does not follow a repeatable item", save);
      i_ = save + 1;
      *out = literal('{');
      break;
    }
    default: {
      char32_t cp = 0;
      size_t n = decode_utf8(p_, i_, &cp);
      if (n == 0) fail("invalid UTF-8 in pattern", i_);
      i_ += n;
      *out = literal(cp);
    }
  }
  if (out->kind == NodeKind::assertion || (out->kind == NodeKind::empty && setting_)) quantifiable = false;
  setting_ = false;
  if (out->kind == NodeKind::concat && p_[start] == '\\') {  // \Q..\E quoted several chars: as in PCRE2, a
    parse_quantifier(&out->children.back(), start);          // quantifier takes the last one
  } else if (quantifiable) {
    parse_quantifier(out, start);
  } else {
    skip_extended_space();
    if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?')) {
      fail("quantifier follows an item that cannot be repeated", i_);
    }
  }
  return true;
}

// Reads {n}, {n,} or {n,m} at i_ (PCRE2 10.42 reads anything else, like {,m} or "{ 1}", as literal text).
bool Parser::read_braces_quantifier(int* min, int* max) {
  size_t j = i_ + 1;
  auto number = [&](int* v) {
    size_t s = j;
    long x = 0;
    while (j < p_.size() && is_ascii_digit(p_[j])) {
      x = x * 10 + (p_[j] - '0');
      if (x > kMaxRepeat) x = kMaxRepeat + 1;
      ++j;
    }
    *v = static_cast<int>(x);
    return j > s;
  };
  if (!number(min)) return false;
  *max = *min;
  if (j < p_.size() && p_[j] == ',') {
    ++j;
    if (!number(max)) *max = -1;
  }
  if (j >= p_.size() || p_[j] != '}') return false;
  if (*min > kMaxRepeat || *max > kMaxRepeat) fail("repeat count larger than 65535", i_);
  if (*max >= 0 && *max < *min) fail("repeat bounds out of order in {m,n}", i_);
  i_ = j + 1;
  return true;
}

void Parser::parse_quantifier(PatternNode* item, size_t item_offset) {
  skip_extended_space();
  if (at_end()) return;
  int mn = 0, mx = -1;
  size_t qstart = i_;
  char c = peek();
  if (c == '*') {
    ++i_;
  } else if (c == '+') {
    ++i_, mn = 1;
  } else if (c == '?') {
    ++i_, mx = 1;
  } else if (c != '{' || !read_braces_quantifier(&mn, &mx)) {
    return;
  }
  skip_extended_space();
  bool lazy = false;
  if (!at_end() && peek() == '+')
    refuse("possessive quantifier '" + std::string(p_.substr(qstart, i_ + 1 - qstart)) + "'", qstart);
  if (!at_end() && peek() == '?') lazy = true, ++i_;
  skip_extended_space();
  if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || (peek() == '{' && [&] {
                      size_t s = i_;
                      int a, b;
                      bool q = read_braces_quantifier(&a, &b);
                      i_ = s;
                      return q;
                    }()))) {
    fail("nested quantifier (quantifier follows a quantifier)", i_);
  }
  (void)item_offset;
  PatternNode rep = make(NodeKind::repeat);
  rep.min = mn;
  rep.max = mx;
  rep.lazy = lazy;
  rep.children.push_back(std::move(*item));
  *item = std::move(rep);
}

PatternNode Parser::parse_group(int depth) {
  size_t start = i_;
  ++i_;  // '('
  if (peek() == '*') refuse("backtracking verb or start item '(*...)'", start);
  PatternFlags saved = flags_;
  if (peek() == '?') {
    PatternNode flag_only;
    if (parse_flag_group(&flag_only, depth, start)) return flag_only;
  }
  PatternNode inner = parse_alternation(depth + 1);
  if (at_end() || peek() != ')') fail("missing closing parenthesis for the group opened", start);
  ++i_;
  flags_ = saved;
  return inner;
}

// Handles what follows "(?". Returns true when the construct was complete on its own (a (?flags) setting or a
// (?#comment)); otherwise positions i_ at the group body, with any scoped flags applied.
bool Parser::parse_flag_group(PatternNode* out, int depth, size_t start) {
  (void)depth;
  ++i_;  // '?'
  char c = peek();
  char d = peek(1);
  if (c == '=' || c == '!' || c == '*') refuse("lookahead '(?" + std::string(1, c) + "'", start);
  if (c == '<' && (d == '=' || d == '!')) refuse("lookbehind '(?<" + std::string(1, d) + "'", start);
  if (c == '>') refuse("atomic group '(?>'", start);
  if (c == '(') refuse("conditional group '(?('", start);
  if (c == 'C') refuse("callout '(?C'", start);
  if (c == 'R' || is_ascii_digit(c) || ((c == '+' || c == '-') && is_ascii_digit(d)))
    refuse("recursion or subroutine call '(?" + std::string(1, c) + "'", start);
  if (c == '&') refuse("subroutine call '(?&'", start);
  if (c == 'P' && d == '>') refuse("subroutine call '(?P>'", start);
  if (c == 'P' && d == '=') refuse("named backreference '(?P='", start);
  if (c == ':' || c == '|') {
    ++i_;
    return false;
  }
  if (c == '#') {
    while (!at_end() && peek() != ')')
      ++i_;
    if (at_end()) fail("missing ')' after comment", start);
    ++i_;
    *out = make(NodeKind::empty);
    setting_ = true;
    return true;
  }
  if (c == '<' || c == '\'' || (c == 'P' && d == '<')) {  // named capture: the name is not pattern text
    i_ += c == 'P' ? 2 : 1;
    char close = c == '\'' ? '\'' : '>';
    while (!at_end() && peek() != close) {
      if (!is_ascii_alnum(peek()) && peek() != '_') fail("invalid group name", i_);
      ++i_;
    }
    if (at_end()) fail("unterminated group name", start);
    ++i_;
    return false;
  }
  bool on = true;
  int x_count = 0;
  for (;; ++i_) {
    char f = peek();
    if (f == ')' || f == ':') break;
    switch (f) {
      case '-':
        on = false;
        break;
      case '^':
        flags_.caseless = flags_.multiline = flags_.dotall = flags_.extended = false;
        break;
      case 'i':
        flags_.caseless = on;
        break;
      case 'm':
        flags_.multiline = on;
        break;
      case 's':
        flags_.dotall = on;
        break;
      case 'x':
        flags_.extended = on;
        if (on && ++x_count > 1) fail("inline flag (?xx) is not supported", i_);
        break;
      case 'n':
      case 'U':
      case 'J':
        break;  // capture numbering, greediness default, duplicate names: no effect on what matches
      default:
        fail("unknown inline flag or group syntax after '(?'", i_);
    }
  }
  if (peek() == ':') {
    ++i_;
    return false;
  }
  ++i_;  // ')': the flags hold to the end of the enclosing group
  *out = make(NodeKind::empty);
  setting_ = true;
  return true;
}

char32_t Parser::parse_hex_escape(size_t start) {
  char32_t v = 0;
  if (peek() == '{') {
    ++i_;
    size_t digits = 0;
    while (!at_end() && is_ascii_hex(peek()))
      v = v * 16 + hex_digit_value(p_[i_++]), ++digits;
    if (at_end() || peek() != '}' || digits == 0 || digits > 8) fail("malformed \\x{...} escape", start);
    ++i_;
  } else {
    for (int k = 0; k < 2 && !at_end() && is_ascii_hex(peek()); ++k)
      v = v * 16 + hex_digit_value(p_[i_++]);
  }
  if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) fail("escape names an invalid code point", start);
  return v;
}

char32_t Parser::parse_octal_braces(size_t start) {
  if (peek() != '{') fail("\\o must be followed by {octal digits}", start);
  ++i_;
  char32_t v = 0;
  size_t digits = 0;
  while (!at_end() && peek() >= '0' && peek() <= '7')
    v = v * 8 + (p_[i_++] - '0'), ++digits;
  if (at_end() || peek() != '}' || digits == 0 || digits > 8) fail("malformed \\o{...} escape", start);
  ++i_;
  if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) fail("escape names an invalid code point", start);
  return v;
}

// \Q...\E: everything up to \E (or the end) is literal text.
PatternNode Parser::parse_quoted() {
  PatternNode cat = make(NodeKind::concat);
  while (!at_end() && !starts_with("\\E")) {
    char32_t cp = 0;
    size_t n = decode_utf8(p_, i_, &cp);
    if (n == 0) fail("invalid UTF-8 in pattern", i_);
    i_ += n;
    cat.children.push_back(literal(cp));
  }
  if (!at_end()) i_ += 2;
  if (cat.children.size() == 1) return std::move(cat.children[0]);
  if (cat.children.empty()) return make(NodeKind::empty);
  return cat;
}

PatternNode Parser::parse_escape() {
  size_t start = i_;
  ++i_;
  if (at_end()) fail("pattern ends with a lone backslash", start);
  char c = p_[i_++];
  auto atom = [&] {
    PatternNode n = make(NodeKind::atom);
    n.caseless = flags_.caseless;
    return n;
  };
  auto assertion = [&](AssertKind k) {
    PatternNode n = make(NodeKind::assertion);
    n.assertion = k;
    return n;
  };
  if (is_class_escape(c)) {
    PatternNode n = atom();
    n.source = std::string(p_.substr(start, 2));
    return n;
  }
  switch (c) {
    case 'p':
    case 'P': {
      if (peek() == '{') {
        while (!at_end() && peek() != '}')
          ++i_;
        if (at_end()) fail("unterminated \\p{...}", start);
      }
      if (at_end()) fail("malformed \\p escape", start);
      ++i_;
      PatternNode n = atom();
      n.source = std::string(p_.substr(start, i_ - start));
      return n;
    }
    case 'b':
      return assertion(AssertKind::word_boundary);
    case 'B':
      return assertion(AssertKind::not_word_boundary);
    case 'A':
      return assertion(AssertKind::text_start);
    case 'z':
      return assertion(AssertKind::text_end);
    case 'Q':
      return parse_quoted();
    case 'E':
      setting_ = true;
      return make(NodeKind::empty);
    case 'x':
      return literal(parse_hex_escape(start));
    case 'o':
      return literal(parse_octal_braces(start));
    case 't':
      return literal('\t');
    case 'n':
      return literal('\n');
    case 'r':
      return literal('\r');
    case 'f':
      return literal('\f');
    case 'e':
      return literal(0x1B);
    case 'a':
      return literal(0x07);
    case 'g':
      refuse("backreference or subroutine call '\\g'", start);
    case 'k':
      refuse("named backreference '\\k'", start);
    case 'K':
      refuse("match-start reset '\\K'", start);
    case 'C':
      refuse("single-code-unit escape '\\C'", start);
    default:
      break;
  }
  if (c >= '1' && c <= '9') refuse("backreference '\\" + std::string(1, c) + "'", start);
  if (is_ascii_alnum(c)) fail("escape '\\" + std::string(1, c) + "' is not supported", start);
  --i_;  // an escaped non-alphanumeric is that character, possibly multi-byte
  char32_t cp = 0;
  size_t n = decode_utf8(p_, i_, &cp);
  if (n == 0) fail("invalid UTF-8 in pattern", i_);
  i_ += n;
  PatternNode lit = make(NodeKind::literal);  // escaped: does not count for smart case
  lit.cp = cp;
  lit.caseless = flags_.caseless;
  return lit;
}

void Parser::check_class_escape(size_t start) {
  char c = peek();
  if (is_class_escape(c)) {
    ++i_;
    return;
  }
  switch (c) {
    case 't':
    case 'n':
    case 'r':
    case 'f':
    case 'e':
    case 'a':
      ++i_;
      return;
    case 'x':
      ++i_, parse_hex_escape(start);
      return;
    case 'o':
      ++i_, parse_octal_braces(start);
      return;
    case 'p':
    case 'P':
      ++i_;
      if (peek() == '{') {
        while (!at_end() && peek() != '}')
          ++i_;
      }
      if (at_end()) fail("malformed \\p escape in class", start);
      ++i_;
      return;
    default:
      break;
  }
  if (is_ascii_alnum(c)) fail("escape '\\" + std::string(1, c) + "' inside a class is not supported", start);
  char32_t cp = 0;
  size_t n = decode_utf8(p_, i_, &cp);
  if (n == 0) fail("invalid UTF-8 in pattern", i_);
  i_ += n;
}

// A class is kept as its verbatim text: PCRE2 interprets it, we only check its escapes and note uppercase
// letters.
PatternNode Parser::parse_class() {
  size_t start = i_;
  ++i_;
  if (peek() == '^') ++i_;
  bool first = true;
  for (;;) {
    if (at_end()) fail("missing terminating ']' for the class", start);
    char c = peek();
    if (c == ']' && !first) break;
    first = false;
    if (c == '\\') {
      size_t es = i_++;
      if (at_end()) fail("pattern ends with a lone backslash", es);
      check_class_escape(es);
    } else if (c == '[' && (peek(1) == ':' || peek(1) == '.' || peek(1) == '=')) {
      size_t close = p_.find(std::string{peek(1), ']'}, i_ + 2);
      if (close == std::string_view::npos) {
        ++i_;
      } else {
        if (peek(1) != ':') fail("POSIX collating elements are not supported", i_);
        i_ = close + 2;
      }
    } else {
      char32_t cp = 0;
      size_t n = decode_utf8(p_, i_, &cp);
      if (n == 0) fail("invalid UTF-8 in pattern", i_);
      if (is_uppercase_cp(cp)) uppercase_ = true;
      i_ += n;
    }
  }
  ++i_;
  PatternNode n = make(NodeKind::atom);
  n.caseless = flags_.caseless;
  n.source = std::string(p_.substr(start, i_ - start));
  return n;
}

}  // namespace

bool has_uppercase_literal(std::string_view pattern) {
  Parser parser(pattern, PatternFlags{});
  parser.parse_all();
  return parser.saw_uppercase();
}

ParsedPattern parse_pattern(std::string_view pattern, const RegexOptions& options) {
  ParsedPattern out;
  out.caseless = options.ignore_case || !has_uppercase_literal(pattern);
  out.multiline = options.multiline;
  PatternFlags flags;
  flags.caseless = out.caseless;
  flags.multiline = flags.dotall = options.multiline;
  Parser parser(pattern, flags);
  out.root = parser.parse_all();
  return out;
}

std::string supported_dialect_text() {
  return "Supported regex dialect (linear-time; no catastrophic backtracking, ever): literals; classes [...] "
         "[^...] "
         "\\d \\w \\s \\h \\v and negations, Unicode classes \\p{..} \\P{..}; alternation |; groups (...) "
         "(?:...) "
         "(?<name>...); quantifiers * + ? {m} {m,} {m,n}, greedy or lazy (*? +? ?? {m,n}?); anchors ^ $ \\b "
         "\\B \\A "
         "\\z; dot .; inline flags (?i) (?m) (?s) (?x) and scoped (?i:...); escapes \\t \\n \\r \\f \\e \\a "
         "\\xHH "
         "\\x{H..} \\o{..} \\Q...\\E and a backslash before any punctuation. Smart case: case-insensitive "
         "unless the "
         "pattern has an uppercase letter (" +
         arg_ref("ignore_case", true) +
         " forces it). Not supported, by design: backreferences (\\1, "
         "\\g, \\k), "
         "lookahead/lookbehind ((?=) (?!) (?<=) (?<!)), atomic groups (?>...) and possessive quantifiers "
         "(a*+), "
         "recursion and subroutines ((?R) (?1) (?&name)), conditionals (?(...)), callouts (?C), verbs "
         "(*...), \\C, "
         "\\K, \\G, \\Z, \\R, \\X, \\N and octal/control escapes (\\0, \\cX).";
}

}  // namespace csift
