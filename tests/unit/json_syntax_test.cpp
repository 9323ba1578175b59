// json_object_well_formed against simdjson (RecordParser::validate, the DOM parser plus the text repair):
// hand-picked edge cases, then every fixture line and thousands of deterministic mutations of them. The two
// must agree on every input, or the whole-file gate and the full read would count different malformed lines.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"

namespace json_syntax_unit {

using namespace csift;

namespace {

bool simdjson_says(std::string_view line) {
  thread_local RecordParser parser;
  return parser.validate(line);
}

std::vector<std::string> fixture_lines() {
  std::vector<std::string> out;
  const std::filesystem::path root = std::filesystem::path(CSIFT_SOURCE_DIR) / "fixtures" / "home";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("json_object_well_formed agrees with simdjson on edge cases") {
  const std::vector<std::string> cases = {
      "{}",
      " { } ",
      "{\"a\":1}",
      "{\"a\":[]}",
      "{\"a\":{},\"b\":[{}],\"c\":[[],[1,2],{\"d\":null}]}",
      "{\"a\":true,\"b\":false,\"c\":null}",
      "{\"a\":-0.5e+10,\"b\":0,\"c\":1E5,\"d\":-12.25}",
      "{\"a\":\"\\u00e9\\n\\t\\\"\\\\\\/\\b\\f\\r\"}",
      "{\"a\":\"\\ud83d\"}",                   // lone surrogate: repaired, so well-formed
      "{\"a\":\"caf\xC3\"}",                   // truncated UTF-8: repaired
      "{\"a\":\"\xFF\xFE\"}",                  // invalid UTF-8: repaired
      "{\"a\":\"\xE4\xBD\xA0\xE5\xA5\xBD\"}",  // CJK
      "[]",
      "\"x\"",
      "1",
      "{",
      "{\"a\"}",
      "{\"a\":}",
      "{\"a\":1,}",
      "{,\"a\":1}",
      "{\"a\":[1,]}",
      "{\"a\":[,1]}",
      "{\"a\":01}",
      "{\"a\":1.}",
      "{\"a\":.5}",
      "{\"a\":1e}",
      "{\"a\":-}",
      "{\"a\":+1}",
      "{\"a\":tru}",
      "{\"a\":True}",
      "{\"a\":nul}",
      "{\"a\":\"x\\q\"}",
      "{\"a\":\"\\u12g4\"}",
      "{\"a\":\"\\u12\"}",
      "{\"a\":\"tab\there\"}",
      "{\"a\":\"line\nbreak\"}",
      "{\"a\":1}{\"b\":2}",
      "{\"a\":1} x",
      "{\"a\":1}\xFF",
      "{\"a\":\"unterminated}",
      "{\"a\":1]",
      "{\"a\":[1}",
      "{'a':1}",
      "{\"a\" : 1 , \"b\" : [ 1 , 2 ] }",
      "{\"a\":[" + std::string(40, '[') + std::string(40, ']') + "]}",
  };
  for (const auto& c : cases) {
    CAPTURE(c);
    CHECK(json_object_well_formed(c) == simdjson_says(c));
  }
}

TEST_CASE("json_object_well_formed enforces simdjson's nesting bound") {
  for (size_t depth : {kMaxJsonDepth - 2, kMaxJsonDepth - 1, kMaxJsonDepth, kMaxJsonDepth + 1}) {
    // depth counts the outer object: "{\"a\":" + (depth-1) arrays.
    const std::string line = "{\"a\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
    CAPTURE(depth);
    CHECK(json_object_well_formed(line) == simdjson_says(line));
  }
}

TEST_CASE("json_object_well_formed agrees with simdjson on every fixture line and its mutations") {
  const std::vector<std::string> lines = fixture_lines();
  REQUIRE(lines.size() > 100);
  std::mt19937 rng(20261130);
  const std::string alphabet = "{}[]\",:\\0123456789.eE+-tfnulr \t\x01\xC3\xFF";
  size_t disagreements = 0, valid = 0, invalid = 0;
  for (const auto& line : lines) {
    for (int round = 0; round < 24; ++round) {
      std::string m = line;
      if (round > 0 && !m.empty()) {
        const size_t at = rng() % m.size();
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            m.erase(at, 1);
            break;
          case 1:
            m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), c);
            break;
          default:
            m[at] = c;
        }
      }
      const bool ours = json_object_well_formed(m), theirs = simdjson_says(m);
      (ours ? valid : invalid) += 1;
      if (ours != theirs) {
        ++disagreements;
        if (disagreements <= 5) CHECK_MESSAGE(ours == theirs, "line: " << m);
      }
    }
  }
  CHECK(disagreements == 0);
  // Both outcomes were exercised in bulk.
  CHECK(valid > 1000);
  CHECK(invalid > 1000);
}

}  // namespace json_syntax_unit
