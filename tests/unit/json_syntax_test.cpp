// json_object_well_formed against an independent reference, simdjson's DOM parser run on the text-repaired
// line (json_text_repair.h): hand-picked edge cases, escape-dense strings at every alignment, then every
// fixture line and thousands of deterministic mutations of them. They must agree on every input, or the
// whole-file gate and the record parser would count different malformed lines. (RecordParser::validate is no
// reference: it is json_object_well_formed.)
#include <doctest/doctest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/json/json_syntax.h"
#include "core/json/json_text_repair.h"

namespace json_syntax_unit {

using namespace csift;

namespace {

bool dom_accepts(const std::string& text) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text).get(root) != simdjson::SUCCESS) return false;
  return root.is_object();
}

// A number beyond a finite double is well formed (RFC 8259 bounds none; the validator counts it), while
// simdjson refuses it: the reference reads such a token as 0 and asks again.
bool simdjson_says(std::string_view line) {
  const std::string text = repair_json_text(line).value_or(std::string(line));
  if (dom_accepts(text)) return true;
  static const std::regex huge("-?(0|[1-9][0-9]*)(\\.[0-9]+)?[eE][+-]?[0-9]{3,}");
  const std::string tamed = std::regex_replace(text, huge, "0");
  return tamed != text && dom_accepts(tamed);
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
      "{\"a\":1e400,\"b\":-2.5E+999}",
      "{\"a\":01e400}",
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

namespace {

// A reference for json_object_outer_keys: a recursive descent over a line json_object_well_formed accepted,
// recording the keys of objects at container depth <= max_depth with their value's bytes.
struct OuterKeyReference {
  std::string_view s;
  size_t max_depth;
  std::vector<OuterKey> keys;
  uint32_t objects = 0;

  size_t space(size_t i) const {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      ++i;
    return i;
  }
  size_t string_end(size_t open) const {  // just past the closing quote
    size_t i = open + 1;
    while (s[i] != '"')
      i += s[i] == '\\' ? 2 : 1;
    return i + 1;
  }
  size_t value(size_t i, size_t depth) {  // the value at i inside a container at `depth`: just past it
    if (s[i] == '"') return string_end(i);
    if (s[i] != '{' && s[i] != '[') {
      while (i < s.size() && std::string_view(",}] \t\r\n").find(s[i]) == std::string_view::npos)
        ++i;
      return i;
    }
    const bool object = s[i] == '{';
    const uint32_t id = object && depth + 1 <= max_depth ? ++objects : 0;  // objects whose keys are kept
    i = space(i + 1);
    while (s[i] != (object ? '}' : ']')) {
      size_t key = SIZE_MAX;
      if (object) {
        const size_t name_end = string_end(i);
        if (depth + 1 <= max_depth) {
          key = keys.size();
          keys.push_back(
              OuterKey{s.substr(i + 1, name_end - i - 2), {}, static_cast<uint32_t>(depth + 1), id});
        }
        i = space(space(name_end) + 1);  // past the colon
      }
      const size_t end = value(i, depth + 1);
      if (key != SIZE_MAX) keys[key].value = s.substr(i, end - i);
      i = space(end);
      if (s[i] == ',') i = space(i + 1);
    }
    return i + 1;
  }
};

bool same_keys(const std::vector<OuterKey>& a, const std::vector<OuterKey>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name.data() != b[i].name.data() || a[i].name.size() != b[i].name.size() ||
        a[i].value.data() != b[i].value.data() || a[i].value.size() != b[i].value.size() ||
        a[i].depth != b[i].depth || a[i].object != b[i].object)
      return false;
  return true;
}

}  // namespace

// The keyed check is the same validator: the same verdict on every fixture line and mutation, and on a
// well-formed line the keys, value spans, depths and objects a plain recursive descent finds, at each depth.
TEST_CASE("json_object_outer_keys judges as json_object_well_formed and records the outer keys exactly") {
  const std::vector<std::string> lines = fixture_lines();
  REQUIRE(lines.size() > 100);
  std::mt19937 rng(20261207);
  const std::string alphabet = "{}[]\",:\\0123456789 \t";
  std::vector<OuterKey> keys;
  size_t compared = 0, deep_keys = 0;
  for (const auto& line : lines) {
    for (int round = 0; round < 8; ++round) {
      std::string m = line;
      if (round > 0 && !m.empty()) m[rng() % m.size()] = alphabet[rng() % alphabet.size()];
      for (const size_t depth : {size_t{1}, size_t{2}, size_t{4}, kMaxOuterDepth}) {
        const bool keyed = json_object_outer_keys(m, depth, keys);
        REQUIRE(keyed == json_object_well_formed(m));
        if (!keyed) {
          CHECK(keys.empty());
          continue;
        }
        OuterKeyReference ref{m, depth, {}};
        ref.value(ref.space(0), 0);
        CAPTURE(m.substr(0, 300));
        CHECK(same_keys(keys, ref.keys));
        ++compared;
        for (const OuterKey& k : keys)
          deep_keys += k.depth == 4;
      }
    }
  }
  CHECK(compared > 1000);
  CHECK(deep_keys > 1000);  // the content blocks' keys of messages
}

// The string skim works on 64-byte chunks and finds escaped bytes by backslash runs, so the cases that
// matter are escapes dense enough to cross chunk edges: runs of backslashes of every parity, \u escapes
// cut by a chunk or a quote, raw control bytes on either side of the closing quote. Strings are built from
// such pieces at every alignment and checked against simdjson.
TEST_CASE("json_object_well_formed agrees with simdjson on escape-dense long strings") {
  std::mt19937 rng(20261202);
  const std::vector<std::string> pieces = {"a",     "xyz",
                                           "\\\\",  "\\\"",
                                           "\\n",   "\\u00e9",
                                           "\\u12", "\\uZZZZ",
                                           "\\",    "\\\\\\",
                                           "\"",    "\x01",
                                           "\n",    "\t",
                                           "\\q",   "\\/",
                                           "\\t",   "u",
                                           "0f",    "\xC3",
                                           " ",     std::string(40, 'k')};
  size_t valid = 0, invalid = 0, disagreements = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string body;
    const size_t n = rng() % 40;
    for (size_t i = 0; i < n; ++i) {
      // Mostly well-formed pieces, so that long valid strings (and escapes near their end) are common.
      const size_t k = rng() % 4 == 0 ? rng() % pieces.size() : rng() % 7;
      body += pieces[k == 6 ? pieces.size() - 1 : k];
    }
    // The string last (the skim then runs out of whole chunks inside it, often mid-escape) or followed by
    // more of the line, at every alignment.
    const std::string key = "{\"" + std::string(rng() % 70, 'p') + "\":\"";
    const std::string line =
        rng() % 2 == 0 ? key + body + "\"}" : key + body + "\",\"b\":[1,\"" + body + "\"]}";
    const bool ours = json_object_well_formed(line), theirs = simdjson_says(line);
    (ours ? valid : invalid) += 1;
    if (ours != theirs && ++disagreements <= 5) CHECK_MESSAGE(ours == theirs, "line: " << line);
  }
  CHECK(disagreements == 0);
  CHECK(valid > 2000);
  CHECK(invalid > 2000);
}

// Every byte after a backslash, at every offset of a 64-byte chunk and in a long string (the skim's vector
// path): a valid escape letter exactly when simdjson says the line is well formed.
TEST_CASE("json_object_well_formed knows every escape letter at every chunk offset") {
  size_t valid = 0, checked = 0, disagreements = 0;
  for (int byte = 0; byte < 256; ++byte) {
    for (size_t pad = 0; pad < 70; pad += 3) {
      std::string escape = "\\";
      escape += static_cast<char>(byte);
      if (byte == 'u') escape += "00e9";
      // The leading escape starts the 64-byte skim at the string's first byte, so `escape` sits at chunk
      // offset 2 + pad: both 32-byte halves and the next chunk.
      const std::string body =
          "\\t" + std::string(pad, 'a') + escape + std::string(90, 'b') + "\\n" + std::string(40, 'c');
      const std::string line = "{\"k\":\"" + body + "\"}";
      const bool ours = json_object_well_formed(line), theirs = simdjson_says(line);
      ++checked;
      valid += ours ? 1 : 0;
      if (ours != theirs && ++disagreements <= 5)
        CHECK_MESSAGE(ours == theirs, "byte " << byte << " after " << pad << " bytes");
    }
  }
  CHECK(disagreements == 0);
  CHECK(valid == 9 * 24);  // the nine escape letters, at each of the 24 offsets
  CHECK(checked == 256 * 24);
}

// json_container_end against json_container_end_bytewise, the same rules a byte at a time, on token soup that
// puts brackets, quoted brackets, escaped quotes and backslash pairs at every offset of the 64-byte chunks (a
// close on a chunk's last byte, a string carried across a chunk edge, the space-padded last piece).
TEST_CASE("json_container_end agrees with its byte-at-a-time definition") {
  std::mt19937 rng(20261203);
  const std::vector<std::string> tokens = {"{", "}", "[", "]",        "\"ab\"", "\"a\\\"b\"",        "\"[{\"",
                                           "x", ",", ":", "\"\\\\\"", "    ",   std::string(50, 'z')};
  size_t closed = 0, open_to_end = 0;
  for (int round = 0; round < 200000; ++round) {
    std::string s = std::string(rng() % 3, ' ') + (rng() % 2 ? "{" : "[");
    const size_t open = s.size() - 1;
    for (size_t n = rng() % 80; n > 0; --n)
      s += tokens[rng() % tokens.size()];
    const size_t expected = json_container_end_bytewise(s, open);
    (expected == std::string::npos ? open_to_end : closed) += 1;
    if (json_container_end(s, open) != expected) {
      CHECK_MESSAGE(false, "input: " << s);
      break;
    }
  }
  CHECK(closed > 10000);
  CHECK(open_to_end > 10000);
}

}  // namespace json_syntax_unit
