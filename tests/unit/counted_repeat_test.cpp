// Counted repeats decided by the counter automaton (core/regex/class_sequence.h): which patterns take that
// path, exact spans against PCRE2 as the oracle on random small inputs (fixed seed), and the long-line cases
// that the DFA answered slowly or called too complex.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <doctest/doctest.h>
#include <pcre2.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/regex/regex.h"
#include "tests/fuzz/regex_reference.h"

namespace counted_repeat_unit {

using namespace csift;

namespace {

// PCRE2 with the options the user pattern implies; enumerates every match (start, end) by running the
// anchored DFA from each code point boundary with an ample workspace (fine on these small subjects).
class SpanOracle {
 public:
  SpanOracle(std::string_view pattern, bool caseless, bool multiline) {
    // NO_AUTO_POSSESS: PCRE2 turns a repeat with nothing after it into a possessive one (`q.*` reports only
    // its longest end), which would hide ends from the enumeration.
    uint32_t opt = PCRE2_UTF | PCRE2_UCP | PCRE2_ALT_CIRCUMFLEX | PCRE2_NO_AUTO_POSSESS;
    if (caseless) opt |= PCRE2_CASELESS;
    // No DOLLAR_ENDONLY: PCRE2 10.42's DFA would apply it to (?m:$) too. Callers spell a text-end `$` as \z.
    if (multiline) opt |= PCRE2_DOTALL | PCRE2_MULTILINE;
    int err = 0;
    PCRE2_SIZE off = 0;
    code_ =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), opt, &err, &off, nullptr);
    REQUIRE(code_);
    md_ = pcre2_match_data_create(1000, nullptr);
  }
  ~SpanOracle() {
    pcre2_match_data_free(md_);
    pcre2_code_free(code_);
  }
  SpanOracle(const SpanOracle&) = delete;
  SpanOracle& operator=(const SpanOracle&) = delete;

  std::vector<size_t> ends_from(std::string_view s, size_t start) const {
    // The match data and the DFA workspace (256 KiB) are made once per oracle: allocating them for every
    // start position made this test take 87 s under AddressSanitizer, which maps and unmaps each large block.
    int rc = pcre2_dfa_match(code_, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), start, PCRE2_ANCHORED,
                             md_, nullptr, workspace_.data(), workspace_.size());
    REQUIRE((rc >= 0 || rc == PCRE2_ERROR_NOMATCH));
    std::vector<size_t> ends;
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md_);
    for (int k = 0; k < rc; ++k)
      ends.push_back(ov[2 * k + 1]);
    return ends;
  }

  // What Matcher::find promises: among matches starting at or after `from`, the earliest end; the leftmost
  // start of a match ending there; the longest end of a match from that start (subjects here are far below
  // kMaxMatchBytes).
  MatchResult expected(std::string_view s, size_t from) const {
    std::vector<std::pair<size_t, std::vector<size_t>>> all;
    for (size_t st = from; st <= s.size(); ++st) {
      if (st < s.size() && (static_cast<unsigned char>(s[st]) & 0xC0) == 0x80) continue;
      auto ends = ends_from(s, st);
      if (!ends.empty()) all.emplace_back(st, std::move(ends));
    }
    MatchResult r;
    if (all.empty()) return r;
    size_t first_end = SIZE_MAX;
    for (const auto& [st, ends] : all)
      first_end = std::min(first_end, *std::min_element(ends.begin(), ends.end()));
    for (const auto& [st, ends] : all) {
      if (std::find(ends.begin(), ends.end(), first_end) == ends.end()) continue;
      r.status = MatchStatus::match;
      r.start = st;
      r.end = *std::max_element(ends.begin(), ends.end());
      break;
    }
    return r;
  }

 private:
  pcre2_code* code_ = nullptr;
  pcre2_match_data* md_ = nullptr;
  mutable std::vector<int> workspace_ = std::vector<int>(1 << 16);
};

}  // namespace

TEST_CASE("counted repeats: sequences of counted classes and anchors take the counter automaton") {
  for (const char* p : {".{200}x", ".{1000}", "a{1000}c", "\\b\\w{40}\\b", "[a-z]*[0-9]", "^\\d{4}-\\d{2}$",
                        "(?i:K){2,}\\p{Lu}?", "x(?:y){3}z", "a+b"}) {
    CAPTURE(std::string(p));
    CHECK(CompiledPattern::compile(p, {})->uses_counter_automaton());
  }
  // Alternation, repeated groups and plain literals keep their own paths.
  for (const char* p : {"a|b.{3}", "(ab){3}", "(?:a|b){2}", "hello"}) {
    CAPTURE(std::string(p));
    CHECK_FALSE(CompiledPattern::compile(p, {})->uses_counter_automaton());
  }
}

TEST_CASE("counted repeats: randomized differential against PCRE2, exact spans") {
  std::mt19937 rng(20261201);
  const std::vector<std::string> atoms = {"a",      "b",       "é",   ".",       "[ab]",       "[^a]",
                                          "\\w",    "\\W",     "\\s", "\\d",     "\\p{Lu}",    "(?i:A)",
                                          "\\n",    "k",       "K",   "[a-é]",   "\\x{e9}",    "(?s:.)",
                                          "[^\\n]", "(?-i:b)", "_",   "\\Q.\\E", "[[:alpha:]]"};
  const std::vector<std::string> quants = {"",      "",      "",     "*",    "+",  "?",  "{2}",
                                           "{0,2}", "{1,3}", "{3,}", "{2}?", "*?", "{0}"};
  const std::vector<std::string> anchors = {"\\b", "\\B", "^", "$", "\\A", "\\z", "(?m:^)", "(?m:$)"};
  const std::vector<std::string> chars = {"a", "b", "é", " ", "\n", "B", "A", "1", "k", "\u212A", "_", "."};
  auto pick = [&](const auto& v) { return v[rng() % v.size()]; };
  int compared = 0, matched = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    RegexOptions o{.ignore_case = rng() % 3 == 0, .multiline = rng() % 3 == 0};
    std::string p, oracle_p;  // the oracle's copy spells a text-end `$` as \z (see SpanOracle)
    int n = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < n; ++k) {
      std::string item = rng() % 5 == 0 ? pick(anchors) : pick(atoms) + pick(quants);
      p += item;
      oracle_p += item == "$" && !o.multiline ? "\\z" : item;
    }
    std::string s;
    int len = static_cast<int>(rng() % 14);
    for (int k = 0; k < len; ++k)
      s += pick(chars);
    size_t from = 0;
    if (!s.empty() && rng() % 4 == 0) {
      from = rng() % s.size();
      while (from > 0 && (static_cast<unsigned char>(s[from]) & 0xC0) == 0x80)
        --from;
    }
    CAPTURE(p);
    CAPTURE(s);
    CAPTURE(o.ignore_case);
    CAPTURE(o.multiline);
    CAPTURE(from);
    auto cp = CompiledPattern::compile(p, o);
    REQUIRE((cp->uses_counter_automaton() || cp->literal()));
    SpanOracle oracle(oracle_p, cp->caseless(), o.multiline);
    Matcher m(cp);
    MatchResult want = oracle.expected(s, from);
    MatchResult got = m.find(s, from);
    REQUIRE(got.status != MatchStatus::too_complex);
    CHECK(got.matched() == want.matched());
    if (want.matched() && got.matched()) {
      CHECK(got.start == want.start);
      CHECK(got.end == want.end);
    }
    CHECK((m.is_match(s, from) == MatchStatus::match) == want.matched());
    compared += cp->uses_counter_automaton();
    matched += want.matched();
  }
  CHECK(compared > 2500);  // most random sequences are not plain literals
  CHECK(matched > 600);    // the generator must produce plenty of matches, not only misses
}

TEST_CASE("counted repeats: a{1000}c on a 1 MB line is found, not too complex") {
  std::string line(1 << 20, 'a');
  auto cp = CompiledPattern::compile("a{1000}c", {});
  Matcher m(cp);
  CHECK(m.find(line).status == MatchStatus::no_match);
  CHECK(m.is_match(line) == MatchStatus::no_match);
  line.push_back('c');
  CHECK(m.is_match(line) == MatchStatus::match);
  MatchResult r = m.find(line);
  REQUIRE(r.matched());
  CHECK(r.start == line.size() - 1001);
  CHECK(r.end == line.size());
  // The same verdicts on a CJK line, where every code point is three bytes.
  std::string cjk;
  for (int k = 0; k < 200000; ++k)
    cjk += "\u4e2d";
  Matcher dot(CompiledPattern::compile(".{1000}", {}));
  r = dot.find(cjk);
  REQUIRE(r.matched());
  CHECK(r.start == 0);
  CHECK(r.end == 3000);
  Matcher tail(CompiledPattern::compile(".{200}x", {}));
  CHECK(tail.find(cjk).status == MatchStatus::no_match);
  cjk += "x";
  r = tail.find(cjk);
  REQUIRE(r.matched());
  CHECK(r.start == cjk.size() - 601);
}

// The DFA form of `a{60000,}c` (the group repeated 60,000 times) is past PCRE2's size limit; the automaton
// needs no such form.
TEST_CASE("counted repeats: counts up to PCRE2's limit compile and match") {
  std::string line(70000, 'a');
  line += "c";
  struct Case {
    const char* pattern;
    size_t start;
  };
  for (Case c : {Case{"a{60000,}c", 0}, Case{"a{65535}", 0}, Case{".{1000,65535}c", 70000 - 65535}}) {
    CAPTURE(std::string(c.pattern));
    Matcher m(CompiledPattern::compile(c.pattern, {}));
    MatchResult r = m.find(line);
    REQUIRE(r.matched());
    CHECK(r.start == c.start);
  }
  Matcher m(CompiledPattern::compile("a{60000,}c", {}));
  CHECK(m.find(line.substr(10001)).status == MatchStatus::no_match);
}

// Past kMaxMatchBytes the longest pass is cut; the counter automaton cuts where the DFA path does. The same
// match set through the DFA: an alternation with a branch that matches nothing.
TEST_CASE("counted repeats: long matches are cut like the DFA path's") {
  std::string line(40000, 'q');
  line[30000] = ' ';
  for (const char* p : {"q{100,}", "q{5}[q ]{7}", "\\w{200,}", "[ q]{300}", "q{100,}\\b"}) {
    std::string pattern = p;
    CAPTURE(pattern);
    auto seq = CompiledPattern::compile(pattern, {});
    auto dfa = CompiledPattern::compile(pattern + "|[^\\s\\S]", {});
    REQUIRE(seq->uses_counter_automaton());
    REQUIRE_FALSE(dfa->uses_counter_automaton());
    Matcher a(seq), b(dfa);
    for (size_t from : {size_t{0}, size_t{29000}, size_t{30001}}) {
      MatchResult x = a.find(line, from), y = b.find(line, from);
      CAPTURE(from);
      REQUIRE(y.status != MatchStatus::too_complex);
      CHECK(x.status == y.status);
      CHECK(x.start == y.start);
      CHECK(x.end == y.end);
    }
  }
}

// Found by the counted_repeat fuzz target (its regression input impossible-caret-after-long-repeats-
// backtracks-at-every-start): a sequence that cannot match (`^` after a first code point) over a few
// hundred code points. PCRE2's backtracking reference retries it at every start, each under a fresh match
// limit, and took a second per run; the automaton is one pass. The reference now stops at its callout
// budget.
TEST_CASE("counted repeats: a sequence PCRE2 retries at every start is one pass, never too complex") {
  const std::string pattern = ".+[ab]{1,}\\w{5}a{0}.{211}[a-z\u00e9]+[^a]+^";
  std::string subject;
  for (int k = 0; k < 250; ++k)
    subject += "ab_";
  auto cp = CompiledPattern::compile(pattern, {});
  REQUIRE(cp->uses_counter_automaton());
  Matcher m(cp);
  CHECK(m.is_match(subject) == MatchStatus::no_match);
  CHECK(m.find(subject).status == MatchStatus::no_match);
  std::string line;
  while (line.size() < (1 << 20))
    line += subject;
  CHECK(m.is_match(line) == MatchStatus::no_match);
  CHECK(m.find(line).status == MatchStatus::no_match);
  // Multiline, `^` holds after a newline, and `[^a]+` may end with one: the same text and a newline match.
  Matcher lines(CompiledPattern::compile(pattern, {.multiline = true}));
  CHECK(lines.is_match(subject) == MatchStatus::no_match);
  MatchResult r = lines.find(subject + "\nb");
  REQUIRE(r.matched());
  CHECK(r.start == 0);
  CHECK(r.end == subject.size() + 1);

  // The fuzz reference: on 300 code points PCRE2 answers within its budget (~89,000 items); on 750 it would
  // try 1.26 million, and stops one past the budget with no verdict.
  csift_fuzz::Reference ref(pattern, cp->caseless(), false);
  REQUIRE(ref.compiled());
  CHECK(ref.matches(subject.substr(0, 300), 0) == std::optional<bool>(false));
  CHECK(ref.callouts() > 0);
  CHECK(ref.callouts() <= csift_fuzz::Reference::kCalloutBudget);
  CHECK_FALSE(ref.matches(subject, 0).has_value());
  CHECK(ref.callouts() == csift_fuzz::Reference::kCalloutBudget + 1);
}

}  // namespace counted_repeat_unit
