// Counted repeats without the DFA. A pattern that is a plain sequence of single-code-point items (a literal,
// `.`, a class [..] or \d \w \p{..}), each with a count {m,n}, and zero-width anchors (^ $ \b \B \A \z) is
// decided here by a counter automaton: per item it keeps the length of the current run of members and the
// times at which the item was entered, so each code point costs O(items) whatever the counts. PCRE2's DFA
// instead keeps one state per live count, so `.{1000}` over a long line costs 1,000 states per byte and
// exhausts its workspace ("too complex"); here `.{1000}`, `.{200}x` and `a{1000}c` run at a few ns per byte.
//
// The match set is PCRE2's exactly: membership of a code point in an item is PCRE2's own verdict (each item
// compiled alone, with its case and dot modes), and anchors are evaluated on the whole subject. Only the
// three positions the matcher reports are computed (earliest end, leftmost start, longest end), as the DFA
// passes in regex.h do.
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/regex/pattern_ast.h"

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

namespace csift {

// The set of code points one pattern item matches, as PCRE2 decides it.
class CodePointClass {
 public:
  explicit CodePointClass(const PatternNode& item);  // a literal, dot or atom node
  ~CodePointClass();
  CodePointClass(const CodePointClass&) = delete;
  CodePointClass& operator=(const CodePointClass&) = delete;

  const std::bitset<128>& ascii() const { return ascii_; }
  // Asks PCRE2 (one anchored match of the code point alone); callers cache the answer.
  bool ask_pcre2(char32_t cp, pcre2_real_match_data_8* md) const;

 private:
  pcre2_real_code_8* code_ = nullptr;
  std::bitset<128> ascii_;
};

// One step of the sequence: a class repeated min..max times, or a zero-width assertion.
struct SequenceItem {
  static constexpr uint32_t kUnbounded = UINT32_MAX;
  bool is_assertion = false;
  AssertKind assertion = AssertKind::text_start;
  int cls = -1;  // index into ClassSequence::classes()
  uint32_t min = 1;
  uint32_t max = 1;
};

// The compiled, shareable form. from() says whether a pattern has this shape.
class ClassSequence {
 public:
  static std::shared_ptr<const ClassSequence> from(const PatternNode& root);

  const std::vector<SequenceItem>& items() const { return items_; }
  const CodePointClass& cls(int k) const { return *classes_[static_cast<size_t>(k)]; }
  size_t class_count() const { return classes_.size(); }
  int word_class() const { return word_class_; }  // \w, for \b and \B; -1 if none is needed

 private:
  std::vector<SequenceItem> items_;
  std::vector<std::unique_ptr<CodePointClass>> classes_;
  int word_class_ = -1;
};

// Per-thread matching state over a ClassSequence. Positions are byte offsets into a valid UTF-8 text (the
// matcher passes its repaired subject) and always code point boundaries.
class SequenceMatcher {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  explicit SequenceMatcher(std::shared_ptr<const ClassSequence> seq);
  ~SequenceMatcher();
  SequenceMatcher(const SequenceMatcher&) = delete;
  SequenceMatcher& operator=(const SequenceMatcher&) = delete;

  // The earliest end of any match starting at or after `from`, or npos.
  size_t earliest_end(std::string_view text, size_t from);
  // The smallest start >= from of a match ending at `end` (one exists).
  size_t leftmost_start(std::string_view text, size_t from, size_t end);
  // The largest end <= limit of a match starting at `start`, or npos.
  size_t longest_end(std::string_view text, size_t start, size_t limit);

 private:
  struct Span {  // consecutive entry times first..last
    int64_t first;
    int64_t last;
  };
  struct ItemState {
    std::vector<Span> ring;  // entries not yet `min` code points old, oldest at head
    size_t head = 0;
    size_t count = 0;
    int64_t ready = -1;  // the latest entry at least `min` code points old, -1 if none
  };
  struct Pass {  // the items in the order one pass meets them, and their states
    std::vector<SequenceItem> items;
    std::vector<ItemState> states;
  };
  using Page = std::array<uint8_t, 256>;  // 0 unknown, 1 not a member, 2 member

  bool member(int cls, char32_t cp) {
    return cp < 0x80 ? ascii_[static_cast<size_t>(cls)][cp] : member_slow(cls, cp);
  }
  bool member_slow(int cls, char32_t cp);
  bool has_long_run(std::string_view text, size_t from);
  bool holds(AssertKind a, std::string_view text, size_t pos);
  void reset(Pass& pass);
  void consume(Pass& pass, char32_t cp);
  static void push(ItemState* s, int64_t t);
  bool enter(Pass& pass, bool entering, std::string_view text, size_t pos);
  bool alive(const Pass& pass) const;

  std::shared_ptr<const ClassSequence> seq_;
  pcre2_real_match_data_8* md_ = nullptr;
  std::vector<std::bitset<128>> ascii_;                    // per class, copied for locality
  Pass forward_;                                           // pattern order
  Pass backward_;                                          // last item first (the mirrored pass)
  std::vector<std::vector<std::unique_ptr<Page>>> pages_;  // per class, per 256 code points
  int64_t now_ = 0;                                        // code points consumed in this pass
  int run_item_ = -1;  // the class item with the largest min (at least kRunScreenMin), for has_long_run
};

}  // namespace csift
