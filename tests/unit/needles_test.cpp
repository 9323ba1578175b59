// Required-needle derivation (SPEC §7d): the law's cases, the safety predicate and the caseless fold markers.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/regex/needles.h"

namespace needles_unit {

using namespace csift;

namespace {

std::vector<std::string> needles_of(std::string_view pattern, RegexOptions o = {}) {
  auto v = required_needles(pattern, o).needles;
  std::sort(v.begin(), v.end());
  return v;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("needles: alternation gates only when every branch contributes; the union is deduplicated") {
  CHECK(needles_of("TodoWrite.*legacy|legacy.*TodoWrite") == V{"TodoWrite"});
  CHECK(needles_of("error|warning") == V{"error", "warning"});
  CHECK(needles_of("foo|ba").empty());  // "ba" is shorter than 3 bytes
  CHECK(needles_of("foo|b.*").empty());
  CHECK(needles_of("(?:alpha|beta)x").size() == 2);
  CHECK(needles_of("a1x|a2x|a3x|a4x|a5x|a6x|a7x|a8x").size() == 8);
  CHECK(needles_of("a1x|a2x|a3x|a4x|a5x|a6x|a7x|a8x|a9x").empty());  // more than 8 needles
  CHECK(needles_of("abc|abcd") == V{"abc"});  // a needle containing another adds nothing
}

TEST_CASE("needles: literal runs split at whitespace and JSON-escaped bytes; the longest safe run wins") {
  CHECK(needles_of("a b c d").empty());
  CHECK(needles_of("foo bar bazqux") == V{"bazqux"});
  CHECK(needles_of("say \"hello\" now") == V{"hello"});
  CHECK(needles_of("path\\\\to\\\\file") == V{"path"});  // a tie keeps the first of the longest runs
  CHECK(needles_of("tab\\there") == V{"here"});
  CHECK(needles_of("\\.json") == V{".json"});
  CHECK(needles_of("a\\.b\\.c") == V{"a.b.c"});
  CHECK(needles_of("café au lait") == V{"lait"});  // non-ASCII may be \u-escaped in the raw line
  CHECK(needles_of("日本語").empty());
}

TEST_CASE(
    "needles: concatenation picks its strongest part; min-0 repeats, classes and anchors give nothing") {
  CHECK(needles_of("x*").empty());
  CHECK(needles_of("(?:foo)*bar") == V{"bar"});
  CHECK(needles_of("(?:foobar)+x") == V{"foobar"});
  CHECK(needles_of("[abc]+\\d{3}").empty());
  CHECK(needles_of("\\bcarry\\b") == V{"carry"});
  CHECK(needles_of("^start.*\\w+end$") == V{"start"});
  CHECK(needles_of("ab(?:cd)ef") == V{"abcdef"});  // groups splice into the enclosing run
  CHECK(needles_of("abc(?:x|y)defg") == V{"defg"});
  CHECK(needles_of(".*").empty());
  CHECK(needles_of("").empty());
  CHECK(needles_of("(?x) f o o  b a r") == V{"foobar"});  // extended mode ignores the spaces
}

TEST_CASE("needles: case") {
  NeedleSet s = required_needles("(?i)Hello", {});
  CHECK(s.caseless);
  CHECK(s.needles == V{"Hello"});
  CHECK(s.fold_markers.empty());
  s = required_needles("Hello", {});
  CHECK_FALSE(s.caseless);
  s = required_needles("hello", {});  // smart case
  CHECK(s.caseless);
  s = required_needles("Hello", {.ignore_case = true});
  CHECK(s.caseless);
  // 'k' and 's' also match U+212A / U+017F under Unicode folding: markers keep the prefilter exact.
  s = required_needles("tasks", {});
  REQUIRE(s.caseless);
  CHECK(s.fold_markers == V{"\xE2\x84\xAA", "u212a", "\xC5\xBF", "u017f"});
  CHECK(s.all().size() == 5);
  CHECK(required_needles("Tasks", {}).fold_markers.empty());
}

TEST_CASE("needles: the plain literal fast path") {
  CHECK(required_needles("TodoWrite", {}).exact_literal);
  CHECK_FALSE(required_needles("Todo.Write", {}).exact_literal);
  CHECK_FALSE(required_needles("two words", {}).exact_literal);
  CHECK(needle_safe_byte('a'));
  CHECK_FALSE(needle_safe_byte(' '));
  CHECK_FALSE(needle_safe_byte('"'));
  CHECK_FALSE(needle_safe_byte('\\'));
  CHECK_FALSE(needle_safe_byte(0x1F));
  CHECK_FALSE(needle_safe_byte(0x7F));
  CHECK_FALSE(needle_safe_byte(0xC3));
}

TEST_CASE("needles: confined by a render's joiners only where no joiner can meet them") {
  const RenderJoiners slash{{"/", " "}, false};
  const RenderJoiners opened{{" "}, false, {"/"}};  // "/" opens the text: nothing before it
  CHECK(needle_confined("src/", false, opened));
  CHECK(needle_confined("a/b", false, opened));
  CHECK_FALSE(needle_confined("/model", false, opened));
  CHECK_FALSE(needle_confined("ENOSPC", false, RenderJoiners{{"Conversation compacted"}, false}));
  CHECK(needle_confined("ENOSPC", false, RenderJoiners{{}, false, {"Conversation compacted"}}));
  CHECK(needle_confined("xylophone", false, slash));
  CHECK_FALSE(needle_confined("/model", false, slash));  // begins with the joiner's trailing run
  CHECK_FALSE(needle_confined("a/b", false, slash));     // holds a joiner of safe bytes only
  CHECK_FALSE(needle_confined("src/", false, slash));    // ends in the joiner's leading run
  const RenderJoiners auq{{"\nQ0 (", "): ", " options: ", "true"}, true};
  CHECK(needle_confined("xylophone", false, auq));
  CHECK_FALSE(needle_confined("option", false, auq));  // inside a run: the render writes it
  CHECK_FALSE(needle_confined("OPTIONS", true, auq));  // caselessly too
  CHECK(needle_confined("OPTIONS", false, auq));       // but not case-sensitively
  CHECK_FALSE(needle_confined("(draft", false, auq));  // a piece follows "(": the render writes "(draft"
  CHECK_FALSE(needle_confined("draft)", false, auq));  // and "draft):"
  CHECK_FALSE(needle_confined("E0425", false, auq));   // the render writes numbers of its own
  CHECK(needle_confined("Q-x", false, auq));  // a digit follows "Q": a needle beginning "Q" would hold it
  CHECK_FALSE(needle_confined("yetrue", false, auq));  // "true" stands alone: a needle may hold it
  CHECK_FALSE(needle_confined("ed]x", false, RenderJoiners{{" completed]"}, false}));
  CHECK(needle_confined("uex", false, RenderJoiners{{" completed]"}, false}));
  // A re-printed string's hex escape bounds only a needle matched with case: the record's bytes spell the
  // escape the same way but perhaps for the case of its digits.
  const RenderJoiners escapes{{}, true, {}, {"\\u001e"}};
  CHECK_FALSE(needle_confined("enospc", false, escapes));
  CHECK(needle_confined("enospc", true, escapes));
  CHECK(needle_confined("xenospc", false, escapes));
  // A digit is an ordinary byte of a render that writes no numbers of its own.
  CHECK_FALSE(needle_confined("v2]", false, RenderJoiners{{" v2] "}, false}));
  CHECK(needle_confined("E0425", false, RenderJoiners{{" v2] "}, false}));
}

}  // namespace needles_unit
