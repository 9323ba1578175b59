// compact_json_fast against nlohmann's parse + compact dump, the rendering it stands in for: hand-made texts
// for each rule, then every record line and every tool input of the real Claude Code logs in
// ../shared/corpus.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/harness/claude_code/record_parser.h"
#include "core/json/compact_json.h"
#include "core/json/stored_json.h"
#include "tests/unit/corpus_root.h"

namespace compact_json_unit {

using namespace csift;

// The reference: what the renders produced before the fast path (nullopt: the text reads as null).
std::optional<std::string> nlohmann_compact(std::string_view raw) {
  const nlohmann::json j = parse_stored_json(raw);
  if (j.is_null()) return std::nullopt;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Compares one text; returns whether the fast path decided it.
bool compact_matches_reference(std::string_view raw) {
  const auto fast = compact_json_fast(raw);
  if (fast) {
    const auto reference = nlohmann_compact(raw);
    CHECK_MESSAGE(reference.value_or("<null>") == *fast, "text: " << std::string(raw.substr(0, 300)));
  }
  CHECK(compact_json_text(raw).value_or("<null>") == nlohmann_compact(raw).value_or("<null>"));
  return fast.has_value();
}

TEST_CASE("compact json: each rule as nlohmann renders it") {
  // Keys sorted bytewise at every depth; a repeated key keeps its last value.
  CHECK(compact_json_fast(R"({"b":1,"a":{"z":[1,2],"y":"s"}})") == R"({"a":{"y":"s","z":[1,2]},"b":1})");
  CHECK(compact_json_fast(R"({"k":1,"j":2,"k":3})") == R"({"j":2,"k":3})");
  CHECK(compact_json_fast("{\"\xC3\xA9\":1,\"z\":2}") == "{\"z\":2,\"\xC3\xA9\":1}");
  // Escapes: the short forms, other control bytes as lowercase \u00xx, '/' and UTF-8 as they are.
  CHECK(compact_json_fast(R"(" \/ \u0041 \u001F \u007f \n\t\"\\ \u00e9")") ==
        "\" / A \\u001f \x7f \\n\\t\\\"\\\\ \xC3\xA9\"");
  CHECK(compact_json_fast(R"([ true , false , null , -0 , 18446744073709551615 , -9223372036854775808 ])") ==
        "[true,false,null,0,18446744073709551615,-9223372036854775808]");
  // Left to nlohmann: floats, surrogate escapes, out-of-range numbers, text that is not JSON.
  for (const char* slow :
       {R"({"a":1.5})", R"(["\ud83d\ude00"])", R"("\uDC00")", "1e400", "{\"a\":", "nope", ""})
    CHECK_FALSE(compact_json_fast(slow).has_value());
  for (const char* text : {R"({"b":1,"a":{"z":[1,2],"y":"s"}})", R"({"a":1.5,"b":[2.50,1e3]})",
                           R"(["\ud83d\ude00",1])", R"({"a":"\uDC00"})", "1e400", "{\"a\":", "nope",
                           "[\"\xFF\"]", R"({"k":1,"j":2,"k":3})", R"({"a":[],"b":{}})"})
    compact_matches_reference(text);
}

TEST_CASE("compact json: every record line and tool input of the corpus's Claude Code logs") {
  size_t texts = 0, fast = 0, inputs = 0;
  const size_t files = csift_test::for_each_small_corpus_line([&](std::string_view line, const Record* r) {
    ++texts;
    fast += compact_matches_reference(line) ? 1 : 0;
    if (!r) return;
    for (const Block& b : r->message.blocks) {
      if (b.input_json.empty()) continue;
      ++inputs;
      fast += compact_matches_reference(b.input_json) ? 1 : 0;
    }
  });
  REQUIRE(files > 20);
  MESSAGE("texts " << texts << ", tool inputs " << inputs << ", fast " << fast);
  CHECK(inputs > 300);
  CHECK(fast > (texts + inputs) / 2);  // the fast path decides most real texts
}

}  // namespace compact_json_unit
