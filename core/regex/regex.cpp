// Why three DFA passes: unanchored pcre2_match and pcre2_dfa_match are both quadratic on long lines (they
// retry every start position; ../shared/notes/pcre2_linear_probe.c), while one anchored DFA pass is linear.
// Each pass below starts once and reads a bounded stretch; reverse and longest passes cut their subject two
// code points past the last position they may report, which keeps every assertion (\b, $, (?m:^)) at the
// reported positions exact.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "core/regex/regex.h"

#include <new>

#include <pcre2.h>

#include <algorithm>

#include "core/base/error.h"
#include "core/regex/pattern_emit.h"

namespace csift {
namespace {

constexpr uint32_t kEmittedOptions = PCRE2_UTF | PCRE2_UCP | PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_BACKSLASH_C;
constexpr uint32_t kOvectorPairs = 4;  // the longest pass needs 3: up to two ends may lie past its limit

std::string pcre2_message(int code) {
  PCRE2_UCHAR buf[256];
  pcre2_get_error_message(code, buf, sizeof buf);
  return reinterpret_cast<const char*>(buf);
}

pcre2_code* compile_raw(std::string_view text, uint32_t options, int* error, size_t* offset) {
  pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
  if (!ctx) throw std::bad_alloc();  // PCRE2 reports an allocation failure as null
  pcre2_set_newline(ctx, PCRE2_NEWLINE_LF);
  PCRE2_SIZE off = 0;
  pcre2_code* code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), options, error, &off, ctx);
  pcre2_compile_context_free(ctx);
  *offset = off;
  return code;
}

// The user's own text goes through PCRE2 too, with the options it implies, so PCRE2's verdict and message
// (with its offset) reach the caller, and PCRE2_INFO_BACKREFMAX double-checks our refusal of backreferences.
void validate_with_pcre2(std::string_view pattern, const ParsedPattern& parsed) {
  uint32_t options = kEmittedOptions | PCRE2_DOLLAR_ENDONLY;
  if (parsed.caseless) options |= PCRE2_CASELESS;
  if (parsed.multiline) options |= PCRE2_DOTALL | PCRE2_MULTILINE;
  int error = 0;
  size_t offset = 0;
  pcre2_code* code = compile_raw(pattern, options, &error, &offset);
  if (!code) {
    usage_error("invalid pattern at offset " + std::to_string(offset) + ": " + pcre2_message(error) + ". " +
                supported_dialect_text());
  }
  uint32_t backrefs = 0;
  pcre2_pattern_info(code, PCRE2_INFO_BACKREFMAX, &backrefs);
  pcre2_code_free(code);
  if (backrefs != 0)
    usage_error("unsupported pattern: backreferences are not supported. " + supported_dialect_text());
}

pcre2_code* compile_emitted(const std::string& text, uint32_t extra) {
  int error = 0;
  size_t offset = 0;
  pcre2_code* code = compile_raw(text, kEmittedOptions | extra, &error, &offset);
  // The derived forms are larger than the user's text (a caseless letter becomes a group, each pass adds a
  // prefix), so a pattern PCRE2 took as written can still pass its size limits here: that is the pattern's
  // size, which the caller can change, not a fault (the fuzz find: (?i)s{20020,}).
  if (!code && (error == PCRE2_ERROR_PATTERN_TOO_LARGE || error == PCRE2_ERROR_PATTERN_TOO_COMPLICATED ||
                error == PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP)) {
    usage_error(
        "pattern too large: compiled for the linear-time matcher (case folded, anchored per pass) it " +
        std::string("exceeds PCRE2's limit (") + pcre2_message(error) +
        "); lower its repeat counts or split it into several searches");
  }
  if (!code) {
    failure_error("internal: derived pattern failed to compile at offset " + std::to_string(offset) + ": " +
                  pcre2_message(error) + " [" + text + "]");
  }
  return code;
}

// The whole pattern as one literal string, when every node is a literal with one case mode and a plain
// substring search is exactly equivalent to the regex: ASCII-caseless is exact only without k/s (Unicode
// folds, see needles.h) and on ASCII text.
std::optional<std::string> literal_of(const ParsedPattern& parsed, bool* caseless) {
  const PatternNode& root = parsed.root;
  std::vector<const PatternNode*> lits;
  if (root.kind == NodeKind::literal) {
    lits.push_back(&root);
  } else if (root.kind == NodeKind::concat) {
    for (const auto& c : root.children)
      lits.push_back(&c);
  }
  if (lits.empty()) return std::nullopt;
  std::string out;
  *caseless = lits[0]->caseless;
  for (const PatternNode* l : lits) {
    if (l->kind != NodeKind::literal || l->caseless != *caseless || l->cp == 0xFFFD) return std::nullopt;
    char32_t cp = l->cp;
    if (*caseless && (cp >= 0x80 || (cp | 0x20) == 'k' || (cp | 0x20) == 's')) return std::nullopt;
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

bool is_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

size_t next_char(std::string_view s, size_t i) {
  if (i >= s.size()) return s.size();
  ++i;
  while (i < s.size() && is_continuation(s[i]))
    ++i;
  return i;
}

size_t prev_char(std::string_view s, size_t i) {
  if (i == 0) return 0;
  --i;
  while (i > 0 && is_continuation(s[i]))
    --i;
  return i;
}

// The furthest end the longest pass may report: kMaxMatchBytes past `start` (on a code point boundary), but
// never before the known end `min_end`.
size_t longest_limit(std::string_view subject, size_t start, size_t min_end) {
  if (subject.size() - start <= CompiledPattern::kMaxMatchBytes) return subject.size();
  size_t limit = start + CompiledPattern::kMaxMatchBytes;
  while (limit > start && is_continuation(subject[limit]))
    --limit;
  return std::max(limit, min_end);
}

MatchResult too_complex(int rc) {
  MatchResult r;
  r.status = MatchStatus::too_complex;
  r.pcre2_error = rc;
  return r;
}

}  // namespace

std::shared_ptr<const CompiledPattern> CompiledPattern::compile(std::string_view pattern,
                                                                const RegexOptions& options) {
  std::shared_ptr<CompiledPattern> cp(new CompiledPattern());
  cp->pattern_ = std::string(pattern);
  cp->parsed_ = parse_pattern(pattern, options);
  validate_with_pcre2(pattern, cp->parsed_);
  cp->needles_ = required_needles(cp->parsed_);
  cp->required_bytes_ = required_bytes(cp->parsed_);
  cp->literal_ = literal_of(cp->parsed_, &cp->literal_caseless_);
  if (!cp->literal_) cp->sequence_ = ClassSequence::from(cp->parsed_.root);
  // The DFA forms are not needed then, and could not always be built: PCRE2 spells `a{60000,}` out as 60,000
  // copies of a group, past its size limit.
  if (cp->sequence_) return cp;
  std::string forward = emit_pcre2(cp->parsed_.root, false);
  cp->scan_ = compile_emitted("(?s:.*?)(?:" + forward + ")", PCRE2_ANCHORED);
  cp->forward_ = compile_emitted(forward, 0);
  cp->backward_ = compile_emitted(emit_pcre2(cp->parsed_.root, true), 0);
  return cp;
}

CompiledPattern::~CompiledPattern() {
  pcre2_code_free(scan_);
  pcre2_code_free(forward_);
  pcre2_code_free(backward_);
}

Matcher::Matcher(std::shared_ptr<const CompiledPattern> pattern)
    : pattern_(std::move(pattern)),
      md_(pcre2_match_data_create(kOvectorPairs, nullptr)),
      workspace_(CompiledPattern::kWorkspaceInts) {
  if (!md_) throw std::bad_alloc();
  if (pattern_->literal_)
    literal_finder_.emplace(std::vector<std::string>{*pattern_->literal_}, pattern_->literal_caseless_);
  else if (!pattern_->needles_.empty())
    needle_finder_.emplace(pattern_->needles_.all(), pattern_->needles_.caseless);
  if (pattern_->sequence_) sequence_matcher_.emplace(pattern_->sequence_);
}

Matcher::~Matcher() {
  pcre2_match_data_free(md_);
}

int Matcher::dfa(const pcre2_code* code, std::string_view subject, size_t offset, unsigned options) {
  return pcre2_dfa_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), offset,
                         options | PCRE2_NO_UTF_CHECK, md_, nullptr, workspace_.data(),
                         static_cast<PCRE2_SIZE>(workspace_.size()));
}

MatchResult Matcher::find_literal(std::string_view text, size_t from) {
  MatchResult r;
  size_t at = literal_finder_->find(text, from);
  if (at == SubstringFinder::npos) return r;
  r.status = MatchStatus::match;
  r.start = at;
  r.end = at + pattern_->literal_->size();
  return r;
}

// Pass 1: the earliest end of any match starting at or after `from`.
int Matcher::scan_end(std::string_view subject, size_t from, size_t* end) {
  int rc = dfa(pattern_->scan_, subject, from, PCRE2_DFA_SHORTEST);
  if (rc >= 0) *end = pcre2_get_ovector_pointer(md_)[1];
  return rc;
}

// Pass 2: the mirrored pattern, anchored at `end` in the reversed text [lo, hi). Its longest match reaches
// the leftmost start; lo keeps one code point before `from` so \b at `from` sees its left neighbour, and
// matches reaching into it are skipped.
int Matcher::leftmost_start(std::string_view subject, size_t from, size_t end, size_t* start) {
  size_t lo = prev_char(subject, from);
  size_t hi = next_char(subject, next_char(subject, end));
  reversed_.resize(hi - lo);
  for (size_t a = lo; a < hi;) {
    size_t b = next_char(subject, a);
    std::copy(subject.begin() + a, subject.begin() + b, reversed_.begin() + (hi - b));
    a = b;
  }
  int rc = dfa(pattern_->backward_, reversed_, hi - end, PCRE2_ANCHORED);
  if (rc < 0) return rc;
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md_);
  uint32_t pairs = rc == 0 ? kOvectorPairs : static_cast<uint32_t>(rc);
  for (uint32_t k = 0; k < pairs; ++k) {
    size_t s = hi - ov[2 * k + 1];
    if (s >= from) {
      *start = s;
      return rc;
    }
  }
  return PCRE2_ERROR_NOMATCH;
}

// Pass 3: the longest match from `start`, cut at kMaxMatchBytes (but never before the known end `min_end`).
int Matcher::longest_end(std::string_view subject, size_t start, size_t min_end, size_t* end) {
  size_t limit = longest_limit(subject, start, min_end);
  size_t hi = limit == subject.size() ? limit : next_char(subject, next_char(subject, limit));
  int rc = dfa(pattern_->forward_, subject.substr(0, hi), start, PCRE2_ANCHORED);
  if (rc < 0) return rc;
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md_);
  uint32_t pairs = rc == 0 ? kOvectorPairs : static_cast<uint32_t>(rc);
  for (uint32_t k = 0; k < pairs; ++k) {
    if (ov[2 * k + 1] <= limit) {
      *end = ov[2 * k + 1];
      return rc;
    }
  }
  return PCRE2_ERROR_NOMATCH;
}

// Any match lies in `rest`: what the pattern provably contains (a needle, a required byte) must be there.
bool Matcher::ruled_out(std::string_view rest) const {
  if (needle_finder_ && !needle_finder_->contains(rest)) return true;
  return pattern_->required_bytes_ && !contains_any_byte(rest, *pattern_->required_bytes_);
}

// The same three positions as the DFA passes, from the counter automaton (no workspace, so no limit).
MatchResult Matcher::find_sequence(std::string_view subject, size_t from) {
  MatchResult r;
  size_t first_end = sequence_matcher_->earliest_end(subject, from);
  if (first_end == SequenceMatcher::npos) return r;
  size_t start = sequence_matcher_->leftmost_start(subject, from, first_end);
  if (start == SequenceMatcher::npos) return too_complex(0);  // a match ends there: never say "no match"
  size_t end = sequence_matcher_->longest_end(subject, start, longest_limit(subject, start, first_end));
  if (end == SequenceMatcher::npos) return too_complex(0);
  r.status = MatchStatus::match;
  r.start = repair_.to_original(start);
  r.end = repair_.to_original(end);
  return r;
}

MatchStatus Matcher::is_match(std::string_view text, size_t from) {
  if (from > text.size()) return MatchStatus::no_match;
  if (pattern_->matches_everything()) return MatchStatus::match;
  if (literal_finder_) return find_literal(text, from).status;
  std::string_view subject = repair_.prepare(text);
  if (ruled_out(subject.substr(repair_.to_repaired(from)))) return MatchStatus::no_match;
  if (sequence_matcher_) {
    bool found = sequence_matcher_->earliest_end(subject, repair_.to_repaired(from)) != SequenceMatcher::npos;
    return found ? MatchStatus::match : MatchStatus::no_match;
  }
  size_t end = 0;
  int rc = scan_end(subject, repair_.to_repaired(from), &end);
  if (rc == PCRE2_ERROR_NOMATCH) return MatchStatus::no_match;
  return rc < 0 ? MatchStatus::too_complex : MatchStatus::match;
}

MatchResult Matcher::find(std::string_view text, size_t from) {
  MatchResult r;
  if (from > text.size()) return r;
  if (pattern_->matches_everything()) {
    r.status = MatchStatus::match;
    r.start = r.end = from;
    return r;
  }
  if (literal_finder_) return find_literal(text, from);
  std::string_view subject = repair_.prepare(text);
  size_t f = repair_.to_repaired(from);
  if (ruled_out(subject.substr(f))) return r;
  if (sequence_matcher_) return find_sequence(subject, f);
  size_t first_end = 0, start = 0, end = 0;
  int rc = scan_end(subject, f, &first_end);
  if (rc == PCRE2_ERROR_NOMATCH) return r;
  if (rc < 0) return too_complex(rc);
  // A match is known to exist, so a failure below is a limit (or a mirroring bug): never report "no match".
  rc = leftmost_start(subject, f, first_end, &start);
  if (rc < 0) return too_complex(rc);
  rc = longest_end(subject, start, first_end, &end);
  if (rc < 0) return too_complex(rc);
  r.status = MatchStatus::match;
  r.start = repair_.to_original(start);
  r.end = repair_.to_original(end);
  return r;
}

}  // namespace csift
