// The linear-time regex matcher behind `search`. PCRE2 (JIT off) runs only as a DFA, in passes that each read
// a bounded stretch of text once, with a small fixed workspace:
//   1. forward: `(?s:.*?)(?:P)` anchored at `from`, shortest mode -> the earliest END of any match (is_match
//   stops
//      here);
//   2. backward: the mirrored pattern over the reversed text from that end -> the leftmost START of a match
//   ending
//      there;
//   3. forward from that start, longest mode, over at most kMaxMatchBytes -> the reported end.
// The result is a real match (start, end exact); among matches it is the earliest-ending one, widened to the
// left and right as far as a single match reaches. A pattern whose DFA state set outgrows the workspace
// (nested unbounded repeats such as (a+)+) yields MatchStatus::too_complex for that text: never a silent
// non-match, never a hang. A pattern that is a plain sequence of counted classes and anchors (`.{200}x`,
// `a{1000}c`, `\b\w{40}\b`) skips the DFA: class_sequence.h answers the same three questions with a counter
// automaton whose cost does not grow with the counts. Compiled code is shared; each thread owns a Matcher.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/utf8_repair.h"
#include "core/regex/class_sequence.h"
#include "core/regex/needles.h"
#include "core/regex/pattern_ast.h"
#include "core/regex/required_bytes.h"
#include "core/scan/substring_finder.h"

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

namespace csift {

enum class MatchStatus { no_match, match, too_complex };

struct MatchResult {
  MatchStatus status = MatchStatus::no_match;
  size_t start = 0;  // byte offsets into the text passed in (valid only when status == match)
  size_t end = 0;
  int pcre2_error = 0;  // the PCRE2 code behind too_complex (e.g. -43, DFA workspace exhausted)
  bool matched() const { return status == MatchStatus::match; }
};

class CompiledPattern {
 public:
  // Bytes of DFA workspace per pass (ints). Large enough for everyday patterns (hundreds of live states),
  // small enough that a state explosion fails in milliseconds.
  static constexpr size_t kWorkspaceInts = 4096;
  // Longest match reported by find(): the excerpt needs the start; a longer match is cut at the longest end
  // within this many bytes of the start (still a real match).
  static constexpr size_t kMaxMatchBytes = 16 * 1024;

  // Throws ToolError(usage) for a pattern outside the dialect or one PCRE2 rejects.
  static std::shared_ptr<const CompiledPattern> compile(std::string_view pattern,
                                                        const RegexOptions& options);
  ~CompiledPattern();
  CompiledPattern(const CompiledPattern&) = delete;
  CompiledPattern& operator=(const CompiledPattern&) = delete;

  const std::string& pattern() const { return pattern_; }
  bool caseless() const { return parsed_.caseless; }
  bool matches_everything() const { return pattern_.empty(); }
  // Needles for the raw-line prefilter (SPEC.md §10).
  const NeedleSet& needles() const { return needles_; }
  // The literal the matcher searches directly instead of running the DFA, if the pattern is one.
  const std::optional<std::string>& literal() const { return literal_; }
  // Whether the counter automaton (class_sequence.h) decides this pattern instead of the DFA.
  bool uses_counter_automaton() const { return sequence_ != nullptr; }

 private:
  CompiledPattern() = default;
  friend class Matcher;

  std::string pattern_;
  ParsedPattern parsed_;
  NeedleSet needles_;
  std::optional<ByteSet> required_bytes_;
  std::optional<std::string> literal_;
  bool literal_caseless_ = false;
  std::shared_ptr<const ClassSequence> sequence_;  // set when the counter automaton decides the pattern
  pcre2_real_code_8* scan_ = nullptr;              // (?s:.*?)(?:P), compiled anchored
  pcre2_real_code_8* forward_ = nullptr;           // P, anchored at match time
  pcre2_real_code_8* backward_ = nullptr;          // mirrored P, anchored at match time
};

class Matcher {
 public:
  explicit Matcher(std::shared_ptr<const CompiledPattern> pattern);
  ~Matcher();
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  // Does any match start at or after `from`? One forward pass (or the literal search).
  MatchStatus is_match(std::string_view text, size_t from = 0);
  // The match described above, starting at or after `from` (a code point boundary).
  MatchResult find(std::string_view text, size_t from = 0);

 private:
  MatchResult find_literal(std::string_view text, size_t from);
  MatchResult find_sequence(std::string_view subject, size_t from);
  bool ruled_out(std::string_view rest) const;
  int scan_end(std::string_view subject, size_t from, size_t* end);
  int leftmost_start(std::string_view subject, size_t from, size_t end, size_t* start);
  int longest_end(std::string_view subject, size_t start, size_t min_end, size_t* end);
  int dfa(const pcre2_real_code_8* code, std::string_view subject, size_t offset, unsigned options);

  std::shared_ptr<const CompiledPattern> pattern_;
  pcre2_real_match_data_8* md_ = nullptr;
  std::vector<int> workspace_;
  Utf8Repair repair_;
  std::string reversed_;
  std::optional<SubstringFinder> literal_finder_;
  std::optional<SequenceMatcher> sequence_matcher_;
  // The pattern's needles, looked for in the decoded text before the DFA runs (a text without any of them
  // cannot match; the DFA costs ~50 ns per byte, the finder well under 1).
  std::optional<SubstringFinder> needle_finder_;
};

}  // namespace csift
