// PCRE2 text for a PatternNode. Literals are written as \x{..} (except ASCII letters and digits) so no
// character can be re-read as syntax. Case and dot modes are switched with bare (?i)/(?-i)/(?s)/(?-s)
// settings, which compile to no opcode, rather than (?i:...) groups: every extra group is extra DFA states,
// and the first version of this file, with a group per item, ran the DFA ~3x slower. After any group boundary
// the mode is treated as unknown and set again, so correctness never rests on PCRE2's rules for how settings
// carry across '|' and ')'.
#include "core/regex/pattern_emit.h"

#include <cstdio>

namespace csift {
namespace {

enum class Mode { unknown, off, on };

class Emitter {
 public:
  explicit Emitter(bool reversed) : reversed_(reversed) {}
  std::string take() { return std::move(out_); }
  void emit(const PatternNode& n);

 private:
  void set(Mode* current, bool want, const char* on, const char* off) {
    Mode m = want ? Mode::on : Mode::off;
    if (*current == m) return;
    out_.append(want ? on : off);
    *current = m;
  }
  void set_case(bool caseless) { set(&caseless_, caseless, "(?i)", "(?-i)"); }
  void open() { out_.append("(?:"), forget(); }
  void close() { out_.push_back(')'), forget(); }
  void forget() { caseless_ = dotall_ = Mode::unknown; }
  void literal(char32_t cp);
  void assertion(AssertKind k);
  void repeat(const PatternNode& n);
  void concat(const PatternNode& n);

  bool reversed_;
  std::string out_;
  Mode caseless_ = Mode::unknown;
  Mode dotall_ = Mode::unknown;
};

void Emitter::literal(char32_t cp) {
  bool plain = (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  if (plain) {
    out_.push_back(static_cast<char>(cp));
    return;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned>(cp));
  out_.append(buf);
}

// Mirrored, each anchor becomes its counterpart on the other side of the text.
void Emitter::assertion(AssertKind k) {
  switch (k) {
    case AssertKind::text_start:
      out_.append(reversed_ ? "\\z" : "\\A");
      break;
    case AssertKind::text_end:
      out_.append(reversed_ ? "\\A" : "\\z");
      break;
    case AssertKind::line_start:
      out_.append(reversed_ ? "(?m:$)" : "(?m:^)");
      break;
    case AssertKind::line_end:
      out_.append(reversed_ ? "(?m:^)" : "(?m:$)");
      break;
    case AssertKind::word_boundary:
      out_.append("\\b");
      break;
    case AssertKind::not_word_boundary:
      out_.append("\\B");
      break;
  }
  if (k == AssertKind::line_start || k == AssertKind::line_end) forget();
}

void Emitter::repeat(const PatternNode& n) {
  const PatternNode& body = n.children[0];
  bool single = body.kind == NodeKind::literal || body.kind == NodeKind::dot || body.kind == NodeKind::atom;
  // PCRE2's DFA counts iterations of a bare unbounded item with a minimum (X+, X{2,}) in its state, so each
  // start position leaves a distinct state and a long run of X exhausts the workspace (\w+\d went "too
  // complex" at 1 KB). Repeating a group merges those states; bare X* and X{m,n} carry no such growing count.
  if (single && !(n.max < 0 && n.min >= 1)) {
    emit(body);
  } else {
    open();
    emit(body);
    close();
  }
  if (n.min == 0 && n.max < 0) {
    out_.push_back('*');
  } else if (n.min == 1 && n.max < 0) {
    out_.push_back('+');
  } else if (n.min == 0 && n.max == 1) {
    out_.push_back('?');
  } else {
    out_.append("{" + std::to_string(n.min));
    if (n.max != n.min) out_.append("," + (n.max < 0 ? std::string() : std::to_string(n.max)));
    out_.push_back('}');
  }
  if (n.lazy) out_.push_back('?');
}

void Emitter::concat(const PatternNode& n) {
  size_t count = n.children.size();
  for (size_t k = 0; k < count; ++k)
    emit(n.children[reversed_ ? count - 1 - k : k]);
}

void Emitter::emit(const PatternNode& n) {
  switch (n.kind) {
    case NodeKind::empty:
      break;
    case NodeKind::literal:
      set_case(n.caseless);
      literal(n.cp);
      break;
    case NodeKind::dot:
      set(&dotall_, n.dotall, "(?s)", "(?-s)");
      out_.push_back('.');
      break;
    case NodeKind::atom:
      set_case(n.caseless);
      out_.append(n.source);
      break;
    case NodeKind::assertion:
      assertion(n.assertion);
      break;
    case NodeKind::concat:
      concat(n);
      break;
    case NodeKind::alternation:
      open();
      for (size_t k = 0; k < n.children.size(); ++k) {
        if (k) out_.push_back('|'), forget();
        emit(n.children[k]);
      }
      close();
      break;
    case NodeKind::repeat:
      repeat(n);
      break;
  }
}

}  // namespace

std::string emit_pcre2(const PatternNode& node, bool reversed) {
  Emitter e(reversed);
  e.emit(node);
  return e.take();
}

}  // namespace csift
