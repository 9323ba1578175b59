// The reference the regex targets compare the matcher with: PCRE2's own backtracking matcher (pcre2_match,
// JIT off) on the user's pattern compiled with the options the matcher validates it under (regex.cpp's
// validate_with_pcre2), with limits so a slow pattern is skipped rather than hung on.
//
// Why a callout budget beside the match limit: PCRE2 10.42 resets its match-limit count at every start
// position of an unanchored match, so the limit bounds one start's backtracking, not the call's, and a
// subject of n code points costs up to n times the limit. `.+[ab]{1,}\w{5}a{0}.{211}[a-zé]+[^a]+^` (which
// cannot match: `^` is the subject's start), caseless, on a 753-code-point subject needs at most 29,376
// match() calls at any one start position, far below the limit, but 10.6 million over the 753 starts: 18
// million items tried, 0.8 s of PCRE2's time per execution (the counter automaton answers the same subject
// in ~7 ms under ASan), and a libFuzzer timeout on a loaded machine (tests/fuzz/regressions/counted_repeat/).
// Every item PCRE2 tries now passes an automatic callout that counts for the whole call, and past
// kCalloutBudget the call gives up: the verdict is unknown, as at the match limit, and the matcher is not
// compared on that subject.
#pragma once
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "core/base/error.h"
#include "core/regex/regex.h"
#include "tests/fuzz/fuzz_support.h"

namespace csift_fuzz {

// PCRE2's verdict on `subject`: match (true), no match (false), or nullopt when it could not say (a limit, a
// subject that is not valid UTF-8, a pattern it refuses).
class Reference {
 public:
  // Items PCRE2 may try in one matches() call (automatic callouts): the match limit's number, counted
  // over the call. In the campaign's corpora (770 counted_repeat, 4,126 regex inputs) no verdict took
  // over 100,600.
  static constexpr uint64_t kCalloutBudget = 200'000;

  Reference(std::string_view pattern, bool caseless, bool multiline) {
    uint32_t options =
        PCRE2_UTF | PCRE2_UCP | PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_BACKSLASH_C | PCRE2_DOLLAR_ENDONLY;
    if (caseless) options |= PCRE2_CASELESS;
    if (multiline) options |= PCRE2_DOTALL | PCRE2_MULTILINE;
    // The callouts make the compiled form larger; a pattern only they push past PCRE2's size limit is still
    // one PCRE2 accepts (compiled()), but its verdicts are unknown.
    code_ = compile(pattern, options | PCRE2_AUTO_CALLOUT);
    if (code_) {
      accepted_ = true;
    } else {
      pcre2_code* plain = compile(pattern, options);
      accepted_ = plain != nullptr;
      pcre2_code_free(plain);
      return;
    }
    md_ = pcre2_match_data_create_from_pattern(code_, nullptr);
    mc_ = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(mc_, 200000);
    pcre2_set_depth_limit(mc_, 5000);
    pcre2_set_heap_limit(mc_, 20000);  // KiB
    pcre2_set_callout(mc_, &Reference::count, this);
  }
  ~Reference() {
    pcre2_match_context_free(mc_);
    pcre2_match_data_free(md_);
    pcre2_code_free(code_);
  }
  Reference(const Reference&) = delete;
  Reference& operator=(const Reference&) = delete;

  bool compiled() const { return accepted_; }
  // The items the last matches() call tried (one past the budget when it gave up).
  uint64_t callouts() const { return callouts_; }
  std::optional<bool> matches(std::string_view subject, size_t from, uint32_t options = 0) {
    if (!code_) return std::nullopt;
    callouts_ = 0;
    const int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), from,
                               options, md_, mc_);
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    if (rc < 0) return std::nullopt;  // a limit, the callout budget, invalid UTF-8
    return true;
  }

 private:
  static pcre2_code* compile(std::string_view pattern, uint32_t options) {
    pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
    pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options,
                                     &error, &offset, cc);
    pcre2_compile_context_free(cc);
    return code;
  }
  static int count(pcre2_callout_block*, void* self) {
    auto* ref = static_cast<Reference*>(self);
    return ++ref->callouts_ > kCalloutBudget ? PCRE2_ERROR_CALLOUT : 0;
  }

  pcre2_code* code_ = nullptr;  // with automatic callouts
  bool accepted_ = false;
  uint64_t callouts_ = 0;
  pcre2_match_data* md_ = nullptr;
  pcre2_match_context* mc_ = nullptr;
};

// Compiles `pattern` with the matcher and compares it with the reference on `subject`. A pattern the matcher
// refuses as a usage error is skipped (the dialect refuses much PCRE2 accepts); any other error is a failure.
// Returns whether the counter automaton decided the pattern (false when it was not compiled).
inline bool differential(std::string_view pattern, std::string_view subject,
                         const csift::RegexOptions& opts) {
  std::shared_ptr<const csift::CompiledPattern> cp;
  try {
    cp = csift::CompiledPattern::compile(pattern, opts);
  } catch (const csift::ToolError& e) {
    FUZZ_CHECK(e.kind() == csift::ErrorKind::usage, std::string("compile failed: ") + e.what());
    return false;
  }
  Reference ref(pattern, cp->caseless(), opts.multiline);
  FUZZ_CHECK(ref.compiled(), "the matcher accepted a pattern PCRE2 refuses");
  csift::Matcher m(cp);
  const csift::MatchStatus quick = m.is_match(subject);
  const csift::MatchResult found = m.find(subject);
  if (found.status == csift::MatchStatus::match) {
    FUZZ_CHECK(found.start <= found.end && found.end <= subject.size(),
               "find() gave a span outside the text");
  }
  if (quick != csift::MatchStatus::too_complex && found.status != csift::MatchStatus::too_complex)
    FUZZ_CHECK(quick == found.status, "is_match() vs find()");
  const std::optional<bool> expect = ref.matches(subject, 0);
  if (!expect) return cp->uses_counter_automaton();
  const std::string detail = "pattern [" + std::string(pattern) + "] subject [" + std::string(subject) +
                             "] pcre2 " + (*expect ? "match" : "no match");
  if (quick != csift::MatchStatus::too_complex)
    FUZZ_CHECK((quick == csift::MatchStatus::match) == *expect, "is_match() vs PCRE2: " + detail);
  if (found.status != csift::MatchStatus::too_complex) {
    FUZZ_CHECK(found.matched() == *expect, "find() vs PCRE2: " + detail);
    // The start find() reports is a real match's start: PCRE2 anchored there matches.
    if (found.matched() && !cp->matches_everything()) {
      const std::optional<bool> at = ref.matches(subject, found.start, PCRE2_ANCHORED);
      if (at) FUZZ_CHECK(*at, "no match starts where find() says one does: " + detail);
    }
  }
  return cp->uses_counter_automaton();
}

}  // namespace csift_fuzz
