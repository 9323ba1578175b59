// The counter automaton. Time is counted in code points from the start of a pass. Item k is "entered" at a
// time when items 0..k-1 match up to there (item 0: at every time in an unanchored pass, at time 0 in an
// anchored one), and it accepts at time t when some entry e has min <= t - e <= max and every code point
// since e is a member. A non-member empties the item's state, so every entry still held lies inside the
// current run of members; entries younger than `min` wait in a ring (at most min of them), and of the older
// ones only the latest matters (if it is more than max old, so is every other). One code point therefore
// costs a membership test and an amortised O(1) ring update per item.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "core/regex/class_sequence.h"

#include <pcre2.h>

#include <algorithm>
#include <map>
#include <string>

#include "core/base/error.h"
#include "core/regex/pattern_emit.h"

namespace csift {
namespace {

constexpr uint32_t kClassOptions = PCRE2_UTF | PCRE2_UCP | PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_BACKSLASH_C |
                                   PCRE2_ANCHORED | PCRE2_ENDANCHORED;
constexpr size_t kPages = 0x110000 >> 8;
// Items with a smaller minimum are not worth a screening pass of their own.
constexpr uint32_t kRunScreenMin = 8;

size_t encode_utf8(char32_t cp, char* out) {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// The code point starting at s[i] (s is valid UTF-8).
char32_t decode_at(std::string_view s, size_t i, size_t* len) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  if (c < 0x80) return *len = 1, c;
  if (c < 0xE0) return *len = 2, static_cast<char32_t>(((c & 0x1F) << 6) | (b(1) & 0x3F));
  if (c < 0xF0)
    return *len = 3, static_cast<char32_t>(((c & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F));
  *len = 4;
  return static_cast<char32_t>(((c & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) |
                               (b(3) & 0x3F));
}

// The code point ending at s[i - 1].
char32_t decode_before(std::string_view s, size_t i, size_t* len) {
  size_t j = i - 1;
  while (j > 0 && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80)
    --j;
  char32_t cp = decode_at(s, j, len);
  *len = i - j;
  return cp;
}

bool single_code_point(const PatternNode& n) {
  return n.kind == NodeKind::literal || n.kind == NodeKind::dot || n.kind == NodeKind::atom;
}

}  // namespace

CodePointClass::CodePointClass(const PatternNode& item) {
  std::string source = emit_pcre2(item, false);
  pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
  pcre2_set_newline(ctx, PCRE2_NEWLINE_LF);
  int error = 0;
  PCRE2_SIZE offset = 0;
  code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(), kClassOptions, &error,
                        &offset, ctx);
  pcre2_compile_context_free(ctx);
  if (!code_) failure_error("internal: the class item [" + source + "] failed to compile on its own");
  pcre2_match_data* md = pcre2_match_data_create(1, nullptr);
  for (char32_t c = 0; c < 128; ++c)
    ascii_[c] = ask_pcre2(c, md);
  pcre2_match_data_free(md);
}

CodePointClass::~CodePointClass() {
  pcre2_code_free(code_);
}

bool CodePointClass::ask_pcre2(char32_t cp, pcre2_match_data* md) const {
  char buf[4];
  size_t n = encode_utf8(cp, buf);
  return pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(buf), n, 0, PCRE2_NO_UTF_CHECK, md, nullptr) >= 0;
}

std::shared_ptr<const ClassSequence> ClassSequence::from(const PatternNode& root) {
  std::vector<const PatternNode*> parts;
  if (root.kind == NodeKind::concat) {
    for (const auto& c : root.children)
      parts.push_back(&c);
  } else {
    parts.push_back(&root);
  }
  auto seq = std::make_shared<ClassSequence>();
  std::map<std::string, int> by_source;  // items spelled alike share one class
  auto add_class = [&](const PatternNode& n) {
    std::string key = emit_pcre2(n, false);
    auto [it, fresh] = by_source.emplace(key, static_cast<int>(seq->classes_.size()));
    if (fresh) seq->classes_.push_back(std::make_unique<CodePointClass>(n));
    return it->second;
  };
  for (const PatternNode* n : parts) {
    SequenceItem item;
    if (n->kind == NodeKind::assertion) {
      item.is_assertion = true;
      item.assertion = n->assertion;
      item.min = item.max = 0;
      if (n->assertion == AssertKind::word_boundary || n->assertion == AssertKind::not_word_boundary) {
        PatternNode word;
        word.kind = NodeKind::atom;
        word.source = "\\w";
        seq->word_class_ = add_class(word);
      }
    } else if (single_code_point(*n)) {
      item.cls = add_class(*n);
    } else if (n->kind == NodeKind::repeat && single_code_point(n->children[0])) {
      item.cls = add_class(n->children[0]);
      item.min = static_cast<uint32_t>(n->min);
      item.max = n->max < 0 ? SequenceItem::kUnbounded : static_cast<uint32_t>(n->max);
    } else {
      return nullptr;  // alternation, a repeated group, an empty pattern: the DFA's business
    }
    seq->items_.push_back(item);
  }
  return seq;
}

SequenceMatcher::SequenceMatcher(std::shared_ptr<const ClassSequence> seq)
    : seq_(std::move(seq)), md_(pcre2_match_data_create(1, nullptr)) {
  const auto& items = seq_->items();
  forward_.items = items;
  backward_.items.assign(items.rbegin(), items.rend());
  forward_.states.resize(items.size());
  backward_.states.resize(items.size());
  for (size_t k = 0; k < seq_->class_count(); ++k)
    ascii_.push_back(seq_->cls(static_cast<int>(k)).ascii());
  pages_.resize(seq_->class_count());
  for (size_t k = 0; k < items.size(); ++k) {
    const SequenceItem& it = items[k];
    if (!it.is_assertion && it.min >= kRunScreenMin &&
        (run_item_ < 0 || it.min > items[static_cast<size_t>(run_item_)].min))
      run_item_ = static_cast<int>(k);
  }
}

SequenceMatcher::~SequenceMatcher() {
  pcre2_match_data_free(md_);
}

bool SequenceMatcher::member_slow(int cls, char32_t cp) {
  auto& pages = pages_[static_cast<size_t>(cls)];
  if (pages.empty()) pages.resize(kPages);
  auto& page = pages[cp >> 8];
  if (!page) page = std::make_unique<Page>(Page{});
  uint8_t& verdict = (*page)[cp & 0xFF];
  if (verdict == 0) verdict = seq_->cls(cls).ask_pcre2(cp, md_) ? 2 : 1;
  return verdict == 2;
}

// A screen before the automaton: every match holds a run of at least `min` members of the run item's class,
// and a text without one (`a{1000}c` over prose) is answered by this tight loop alone.
bool SequenceMatcher::has_long_run(std::string_view text, size_t from) {
  const SequenceItem& it = seq_->items()[static_cast<size_t>(run_item_)];
  const std::bitset<128>& ascii = ascii_[static_cast<size_t>(it.cls)];
  uint32_t run = 0;
  for (size_t pos = from; pos < text.size();) {
    auto b = static_cast<unsigned char>(text[pos]);
    bool in = false;
    if (b < 0x80) {
      in = ascii[b];
      ++pos;
    } else {
      size_t len = 0;
      in = member_slow(it.cls, decode_at(text, pos, &len));
      pos += len;
    }
    run = in ? run + 1 : 0;
    if (run >= it.min) return true;
  }
  return false;
}

// Assertions look at the whole subject, whichever way the pass runs.
bool SequenceMatcher::holds(AssertKind a, std::string_view text, size_t pos) {
  size_t len = 0;
  switch (a) {
    case AssertKind::text_start:
      return pos == 0;
    case AssertKind::text_end:
      return pos == text.size();
    case AssertKind::line_start:
      return pos == 0 || text[pos - 1] == '\n';
    case AssertKind::line_end:
      return pos == text.size() || text[pos] == '\n';
    case AssertKind::word_boundary:
    case AssertKind::not_word_boundary: {
      bool left = pos > 0 && member(seq_->word_class(), decode_before(text, pos, &len));
      bool right = pos < text.size() && member(seq_->word_class(), decode_at(text, pos, &len));
      return (left != right) == (a == AssertKind::word_boundary);
    }
  }
  return false;
}

void SequenceMatcher::reset(Pass& pass) {
  now_ = 0;
  for (ItemState& s : pass.states) {
    s.head = s.count = 0;
    s.ready = -1;
  }
}

// One code point later: a non-member empties an item; otherwise entries that are now `min` old become ready.
void SequenceMatcher::consume(Pass& pass, char32_t cp) {
  ++now_;
  for (size_t k = 0; k < pass.items.size(); ++k) {
    const SequenceItem& it = pass.items[k];
    ItemState& s = pass.states[k];
    if (it.is_assertion || (s.count == 0 && s.ready < 0)) continue;
    if (!member(it.cls, cp)) {
      s.head = s.count = 0;
      s.ready = -1;
      continue;
    }
    const int64_t ripe = now_ - static_cast<int64_t>(it.min);
    while (s.count > 0) {
      Span& oldest = s.ring[s.head];
      if (oldest.first > ripe) break;
      if (oldest.last > ripe) {
        s.ready = ripe;
        oldest.first = ripe + 1;
        break;
      }
      s.ready = oldest.last;
      s.head = s.head + 1 == s.ring.size() ? 0 : s.head + 1;
      --s.count;
    }
  }
}

// Entries come in stretches (item 0 of an unanchored pass is entered at every time), so the ring holds spans
// and grows only with the number of separate stretches.
void SequenceMatcher::push(ItemState* s, int64_t t) {
  if (s->count > 0) {
    size_t back = s->head + s->count - 1;
    if (back >= s->ring.size()) back -= s->ring.size();
    if (s->ring[back].last == t - 1) {
      s->ring[back].last = t;
      return;
    }
  }
  if (s->count == s->ring.size()) {
    std::vector<Span> grown(std::max<size_t>(8, 2 * s->ring.size()));
    for (size_t k = 0; k < s->count; ++k)
      grown[k] = s->ring[(s->head + k) % s->ring.size()];
    s->ring = std::move(grown);
    s->head = 0;
  }
  size_t tail = s->head + s->count;
  if (tail >= s->ring.size()) tail -= s->ring.size();
  s->ring[tail] = Span{t, t};
  ++s->count;
}

// Records the entries at the current time, item by item (an item that accepts enters the next one at the
// same time); returns whether the last item accepts, i.e. a match ends at `pos`.
bool SequenceMatcher::enter(Pass& pass, bool entering, std::string_view text, size_t pos) {
  for (size_t k = 0; k < pass.items.size(); ++k) {
    const SequenceItem& it = pass.items[k];
    if (it.is_assertion) {
      entering = entering && holds(it.assertion, text, pos);
      continue;
    }
    ItemState& s = pass.states[k];
    if (entering) {
      if (it.min == 0) {
        s.ready = now_;
      } else {
        push(&s, now_);
      }
    }
    entering = s.ready >= 0 && (it.max == SequenceItem::kUnbounded || now_ - s.ready <= int64_t{it.max});
  }
  return entering;
}

// Whether any item can still accept after more code points (only anchored passes stop early).
bool SequenceMatcher::alive(const Pass& pass) const {
  for (size_t k = 0; k < pass.items.size(); ++k) {
    const SequenceItem& it = pass.items[k];
    const ItemState& s = pass.states[k];
    if (s.count > 0) return true;
    if (s.ready >= 0 && (it.max == SequenceItem::kUnbounded || now_ - s.ready < int64_t{it.max})) return true;
  }
  return false;
}

size_t SequenceMatcher::earliest_end(std::string_view text, size_t from) {
  if (run_item_ >= 0 && !has_long_run(text, from)) return npos;
  reset(forward_);
  size_t pos = from;
  if (enter(forward_, true, text, pos)) return pos;
  while (pos < text.size()) {
    auto b = static_cast<unsigned char>(text[pos]);
    char32_t cp = b;
    size_t len = 1;
    if (b >= 0x80) cp = decode_at(text, pos, &len);
    pos += len;
    consume(forward_, cp);
    if (enter(forward_, true, text, pos)) return pos;
  }
  return npos;
}

size_t SequenceMatcher::leftmost_start(std::string_view text, size_t from, size_t end) {
  reset(backward_);
  size_t pos = end;
  size_t best = enter(backward_, true, text, pos) ? pos : npos;
  while (pos > from && alive(backward_)) {
    size_t len = 0;
    char32_t cp = decode_before(text, pos, &len);
    pos -= len;
    consume(backward_, cp);
    if (enter(backward_, false, text, pos)) best = pos;
  }
  return best;
}

size_t SequenceMatcher::longest_end(std::string_view text, size_t start, size_t limit) {
  reset(forward_);
  size_t pos = start;
  size_t best = enter(forward_, true, text, pos) ? pos : npos;
  while (pos < limit && alive(forward_)) {
    size_t len = 0;
    char32_t cp = decode_at(text, pos, &len);
    pos += len;
    consume(forward_, cp);
    if (enter(forward_, false, text, pos)) best = pos;
  }
  return best;
}

}  // namespace csift
