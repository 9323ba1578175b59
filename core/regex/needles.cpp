// The walk over our own parse tree (pattern_ast.h): a literal run gives its longest safe sub-run, a
// concatenation its strongest part, an alternation the union of its branches only when every branch gives
// something, a repeat what its body gives only when it must occur at least once; classes, dots and anchors
// give nothing.
#include "core/regex/needles.h"

#include <algorithm>
#include <optional>

#include "core/base/text.h"

namespace csift {
namespace {

struct Candidate {
  std::vector<std::string> needles;
  bool caseless = false;
};
using RequiredNeedle = std::optional<Candidate>;

std::string folded(std::string s, bool caseless) {
  if (caseless) s = lower_ascii(s);
  return s;
}

// Stronger = longer shortest needle, then fewer needles.
bool stronger(const Candidate& a, const Candidate& b) {
  auto shortest = [](const Candidate& c) {
    size_t m = SIZE_MAX;
    for (const auto& n : c.needles)
      m = std::min(m, n.size());
    return m;
  };
  if (shortest(a) != shortest(b)) return shortest(a) > shortest(b);
  return a.needles.size() < b.needles.size();
}

void consider(RequiredNeedle* best, RequiredNeedle cand) {
  if (cand && (!*best || stronger(*cand, **best))) *best = std::move(cand);
}

RequiredNeedle require(const PatternNode& n);

// Literal children of a concatenation form runs; a run is cut at every unsafe byte and its longest piece
// counts.
RequiredNeedle literal_runs(const std::vector<const PatternNode*>& run) {
  RequiredNeedle best;
  std::string piece;
  bool caseless = false;
  auto flush = [&] {
    if (piece.size() >= NeedleSet::kMinNeedleBytes) consider(&best, Candidate{{piece}, caseless});
    piece.clear();
    caseless = false;
  };
  for (const PatternNode* lit : run) {
    if (lit->cp >= 0x80 || !needle_safe_byte(static_cast<unsigned char>(lit->cp))) {
      flush();
      continue;
    }
    piece.push_back(static_cast<char>(lit->cp));
    caseless =
        caseless || lit->caseless;  // caseless matching is a superset, so one caseless char taints the run
  }
  flush();
  return best;
}

RequiredNeedle require_concat(const PatternNode& n) {
  RequiredNeedle best;
  std::vector<const PatternNode*> run;
  for (const auto& c : n.children) {
    if (c.kind == NodeKind::literal) {
      run.push_back(&c);
      continue;
    }
    consider(&best, literal_runs(run));
    run.clear();
    consider(&best, require(c));
  }
  consider(&best, literal_runs(run));
  return best;
}

RequiredNeedle require_alternation(const PatternNode& n) {
  Candidate all;
  for (const auto& branch : n.children) {
    RequiredNeedle r = require(branch);
    if (!r) return std::nullopt;
    all.caseless = all.caseless || r->caseless;
    for (auto& s : r->needles)
      all.needles.push_back(std::move(s));
  }
  return all;
}

RequiredNeedle require(const PatternNode& n) {
  switch (n.kind) {
    case NodeKind::literal:
      return literal_runs({&n});
    case NodeKind::concat:
      return require_concat(n);
    case NodeKind::alternation:
      return require_alternation(n);
    case NodeKind::repeat:
      return n.min >= 1 ? require(n.children[0]) : std::nullopt;
    default:
      return std::nullopt;
  }
}

// Drops duplicates and any needle containing another (a line holding the longer one holds the shorter too).
std::vector<std::string> minimise(std::vector<std::string> in, bool caseless) {
  std::vector<std::string> out;
  std::sort(in.begin(), in.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (auto& s : in) {
    std::string key = folded(s, caseless);
    bool covered = std::any_of(out.begin(), out.end(), [&](const std::string& o) {
      return key.find(folded(o, caseless)) != std::string::npos;
    });
    if (!covered) out.push_back(std::move(s));
  }
  return out;
}

bool whole_literal(const PatternNode& root, std::string* text) {
  auto add = [&](const PatternNode& l) {
    if (l.kind != NodeKind::literal) return false;
    if (l.cp >= 0x80 || !needle_safe_byte(static_cast<unsigned char>(l.cp))) return false;
    text->push_back(static_cast<char>(l.cp));
    return true;
  };
  if (root.kind == NodeKind::literal) return add(root);
  if (root.kind != NodeKind::concat) return false;
  return std::all_of(root.children.begin(), root.children.end(), add);
}

}  // namespace

bool needle_safe_byte(unsigned char c) {
  if (c < 0x21 || c >= 0x7F) return false;  // controls, space, DEL, non-ASCII
  return c != '"' && c != '\\';
}

namespace {

bool equal_folded(std::string_view a, std::string_view b, bool caseless) {
  return a.size() == b.size() && (caseless ? starts_with_ignoring_case(a, b) : a == b);
}

bool contains_folded(std::string_view hay, std::string_view part, bool caseless) {
  for (size_t at = 0; at + part.size() <= hay.size(); ++at)
    if (equal_folded(hay.substr(at, part.size()), part, caseless)) return true;
  return false;
}

// Whether the needle and one run of a joiner's safe bytes can share a byte. `leading`: the run begins the
// joiner (a piece may end just before it); `trailing`: the run ends it (a piece may begin just after it).
bool meets_run(std::string_view needle, std::string_view run, bool leading, bool trailing, bool caseless) {
  if (contains_folded(run, needle, caseless)) return true;
  if (leading && trailing && contains_folded(needle, run, caseless)) return true;
  for (size_t k = 1; k <= std::min(run.size(), needle.size()); ++k) {
    if (leading && equal_folded(needle.substr(needle.size() - k), run.substr(0, k), caseless)) return true;
    if (trailing && equal_folded(needle.substr(0, k), run.substr(run.size() - k), caseless)) return true;
  }
  return false;
}

}  // namespace

bool needle_confined(std::string_view needle, bool caseless, const RenderJoiners& r) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (r.numbers && std::any_of(needle.begin(), needle.end(), digit)) return false;
  const auto in_run = [&](char c) {
    return needle_safe_byte(static_cast<unsigned char>(c)) && !(r.numbers && digit(c));
  };
  // Whether the needle meets `joiner`; one that opens the text has no piece before its leading run.
  const auto meets = [&](std::string_view joiner, bool opens_text) {
    for (size_t at = 0; at < joiner.size();) {
      if (!in_run(joiner[at])) {
        ++at;
        continue;
      }
      size_t end = at;
      while (end < joiner.size() && in_run(joiner[end]))
        ++end;
      const bool leading = at == 0 && !opens_text;
      if (meets_run(needle, joiner.substr(at, end - at), leading, end == joiner.size(), caseless))
        return true;
      at = end;
    }
    return false;
  };
  const auto met = [&](const std::vector<std::string_view>& joiners, bool opens_text) {
    return std::any_of(joiners.begin(), joiners.end(),
                       [&](std::string_view j) { return meets(j, opens_text); });
  };
  return !met(r.joiners, false) && !met(r.openers, true) && (caseless || !met(r.hex_escapes, false));
}

std::vector<std::string> NeedleSet::all() const {
  std::vector<std::string> v = needles;
  v.insert(v.end(), fold_markers.begin(), fold_markers.end());
  return v;
}

NeedleSet required_needles(const ParsedPattern& pattern) {
  NeedleSet out;
  RequiredNeedle r = require(pattern.root);
  if (!r) return out;
  std::vector<std::string> needles = minimise(std::move(r->needles), r->caseless);
  if (needles.empty() || needles.size() > NeedleSet::kMaxNeedles) return out;
  out.needles = std::move(needles);
  out.caseless = r->caseless;
  if (out.caseless) {
    auto has = [&](char c) {
      return std::any_of(out.needles.begin(), out.needles.end(),
                         [&](const std::string& s) { return folded(s, true).find(c) != std::string::npos; });
    };
    if (has('k')) out.fold_markers.insert(out.fold_markers.end(), {"\xE2\x84\xAA", "u212a"});
    if (has('s')) out.fold_markers.insert(out.fold_markers.end(), {"\xC5\xBF", "u017f"});
  }
  std::string text;
  out.exact_literal = out.needles.size() == 1 && whole_literal(pattern.root, &text) && text == out.needles[0];
  return out;
}

NeedleSet required_needles(std::string_view pattern, const RegexOptions& options) {
  return required_needles(parse_pattern(pattern, options));
}

}  // namespace csift
