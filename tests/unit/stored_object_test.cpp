// StoredObject against the parsed object it stands in for (parse_stored_object, then find): hand-made texts
// for each rule (duplicate keys, escaped keys, nested keys of the same name, texts nlohmann refuses), every
// record line and toolUseResult of the corpus's Claude Code logs, and mutations of the fixture lines, which
// reach the fallback.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/stored_json.h"
#include "tests/unit/corpus_root.h"

namespace stored_object_unit {

using namespace csift;

const std::vector<std::string> kKeys = {"type", "agentId", "status",        "isAsync",
                                        "uuid", "message", "toolUseResult", "filePath",
                                        "a",    "b",       "k\xC3\xA9y"};

std::string reference_string(const nlohmann::json& j, const std::string& key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<bool> reference_bool(const nlohmann::json& j, const std::string& key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

// Counts the keys on which the two disagree (reported, up to a few).
size_t disagreements(std::string_view raw) {
  const nlohmann::json j = parse_stored_object(raw);
  const StoredObject fast(raw);
  size_t wrong = 0;
  for (const std::string& key : kKeys) {
    const bool same =
        fast.string_field(key) == reference_string(j, key) && fast.bool_field(key) == reference_bool(j, key);
    if (!same && ++wrong == 1) CHECK_MESSAGE(same, "key " << key << " of: " << raw.substr(0, 400));
  }
  return wrong;
}

TEST_CASE("StoredObject answers as the parsed object on each rule") {
  const std::vector<std::string> texts = {
      "{}",
      " {\"a\":\"x\"}",  // not an object at its first byte: nlohmann's refusal is kept
      "{\"a\":\"x\",\"a\":\"y\"}",
      "{\"a\":\"x\",\"a\":1}",
      "{\"a\":1,\"a\":\"x\"}",
      "{\"b\":{\"a\":\"inner\"},\"c\":[{\"a\":\"deep\"}]}",
      "{\"b\":{\"a\":\"inner\"},\"a\":\"outer\"}",
      "{\"\\u0061\":\"escaped key\"}",
      "{\"a\":\"tab\\there \\\"quoted\\\" \\u00e9 \\ud83d\\ude00\"}",
      "{\"a\":\"lone \\ud83d\"}",
      "{\"a\":\"x\",\"b\":\"\\udc00\"}",
      "{\"a\":\"caf\xC3\"}",
      "{\"a\":\"x\",\"n\":1e400}",
      "{\"a\":\"x\"} trailing",
      "{\"a\":\"x\",}",
      "[{\"a\":\"x\"}]",
      "{ \"a\" : \"spaced\" , \"isAsync\" : true , \"status\" : false }",
      "{\"isAsync\":true,\"isAsync\":false}",
      "{\"k\xC3\xA9y\":\"utf8 key\"}",
      "{\"a\":\"}\",\"b\":\"{[\",\"type\":\"t\"}",
      "{\"a\":null,\"b\":[1,2,{\"isAsync\":true}],\"isAsync\":\"true\"}",
      "",
  };
  size_t wrong = 0;
  for (const auto& t : texts)
    wrong += disagreements(t);
  CHECK(wrong == 0);
  // The walk itself answers these (they are well formed, valid UTF-8, no surrogate escape).
  CHECK(StoredObject("{\"a\":\"x\",\"a\":\"y\"}").string_field("a") == "y");
  CHECK(StoredObject("{\"b\":{\"a\":\"inner\"}}").string_field("a").empty());
  CHECK(StoredObject("{\"\\u0061\":\"escaped key\"}").string_field("a") == "escaped key");
  CHECK(StoredObject("{\"isAsync\":true}").bool_field("isAsync") == true);
  // A key holding an escaped NUL is matched whole on both paths: the walk's, and the parsed object's that a
  // surrogate escape sends it to (the campaign's find: that path matched `k\u0000e` as `k`).
  const std::string nul_key("k\0e", 3);
  CHECK(StoredObject("{\"k\\u0000e\":\"walked\"}").string_field(nul_key) == "walked");
  CHECK(StoredObject("{\"k\\u0000e\":\"parsed \\ud83d\\ude00\"}").string_field(nul_key) ==
        "parsed \xF0\x9F\x98\x80");
  CHECK(StoredObject("{\"k\\u0000e\":\"\\ud83d\\ude00\"}").string_field("k").empty());
}

TEST_CASE("StoredObject answers as the parsed object on the corpus and on mutated fixture lines") {
  size_t lines = 0, results = 0, wrong = 0;
  const size_t files = csift_test::for_each_small_corpus_line([&](std::string_view line, const Record* r) {
    ++lines;
    wrong += disagreements(line);
    if (!r || cc(*r).tool_use_result_json.empty()) return;
    ++results;
    wrong += disagreements(cc(*r).tool_use_result_json);
  });
  REQUIRE(files > 20);
  std::mt19937 rng(20261204);
  const std::string alphabet = "{}[]\",:\\0123456789eE-tfnul \xC3\xFF";
  size_t mutated = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(CSIFT_SOURCE_DIR) / "fixtures")) {
    if (!e.is_regular_file() || e.path().extension() != ".jsonl") continue;
    std::ifstream in(e.path(), std::ios::binary);
    for (std::string line; std::getline(in, line) && mutated < 20000;) {
      for (int round = 0; round < 8 && !line.empty(); ++round, ++mutated) {
        std::string m = line;
        m[rng() % m.size()] = alphabet[rng() % alphabet.size()];
        wrong += disagreements(m);
      }
    }
  }
  MESSAGE("lines " << lines << ", toolUseResults " << results << ", mutated " << mutated);
  CHECK(results > 250);
  CHECK(mutated > 2000);
  CHECK(wrong == 0);
}

}  // namespace stored_object_unit
