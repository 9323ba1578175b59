#include "tools/dispatch/schema_validator.h"

#include <doctest/doctest.h>

namespace schema_validator_unit {

using namespace csift;

namespace {

const json& test_schema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "additionalProperties": false,
    "required": ["target"],
    "$defs": {
      "range": {"type": "string", "pattern": "^-?[0-9]*(\\.\\.-?[0-9]*)?$"}
    },
    "properties": {
      "target": {"type": "string", "minLength": 1},
      "max_count": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50},
      "format": {"type": "string", "enum": ["text", "json"], "default": "text"},
      "labels": {"type": "array", "items": {"type": "string"}, "minItems": 1},
      "turn": {"$ref": "#/$defs/range"},
      "limit": {"type": ["integer", "null"]},
      "mode": {"const": "fast"},
      "when": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+[mhd]$"}]},
      "pick": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]},
      "both": {"allOf": [{"type": "integer"}, {"minimum": 3}]},
      "opts": {"type": "object", "properties": {"depth": {"type": "integer", "default": 2}},
               "additionalProperties": {"type": "boolean"}}
    }
  })");
  return schema;
}

std::string first_message(const json& instance) {
  const auto issues = validate_json(test_schema(), instance);
  return issues.empty() ? "" : issues.front().message;
}

}  // namespace

TEST_CASE("a valid instance has no issues") {
  CHECK(validate_json(test_schema(), {{"target", "@x"}, {"max_count", 5}, {"labels", {"a"}}}).empty());
  CHECK(validate_json(test_schema(), {{"target", "x"}, {"limit", nullptr}, {"turn", "-3.."}}).empty());
  CHECK(validate_json(test_schema(), {{"target", "x"}, {"max_count", 5.0}}).empty());
}

TEST_CASE("type errors name the path, the expectation and the value") {
  CHECK(first_message({{"target", "x"}, {"max_count", "abc"}}) ==
        "max_count: expected an integer, got \"abc\"");
  CHECK(first_message({{"target", "x"}, {"max_count", 2.5}}) == "max_count: expected an integer, got 2.5");
  CHECK(first_message({{"target", "x"}, {"limit", "z"}}) == "limit: expected an integer or null, got \"z\"");
  CHECK(first_message(json::array()) == "arguments: expected an object, got []");
}

TEST_CASE("required, additionalProperties false, enum, const") {
  CHECK(first_message(json::object()) == "target: is required");
  const std::string unknown = first_message({{"target", "x"}, {"max_cuont", 1}});
  CHECK(unknown.find("max_cuont: unknown argument \"max_cuont\"; valid arguments: target, max_count") == 0);
  CHECK(first_message({{"target", "x"}, {"format", "xml"}}) ==
        "format: expected one of \"text\", \"json\", got \"xml\"");
  CHECK(first_message({{"target", "x"}, {"mode", "slow"}}) == "mode: must be \"fast\", got \"slow\"");
}

TEST_CASE("bounds, lengths, item counts, patterns") {
  CHECK(first_message({{"target", "x"}, {"max_count", 0}}) == "max_count: must be >= 1, got 0");
  CHECK(first_message({{"target", "x"}, {"max_count", 5000}}) == "max_count: must be <= 1000, got 5000");
  CHECK(first_message({{"target", ""}}).find("target: must be at least 1 character") == 0);
  CHECK(first_message({{"target", "x"}, {"labels", json::array()}}) ==
        "labels: needs at least 1 item(s), got 0");
  CHECK(first_message({{"target", "x"}, {"labels", {"a", 3}}}) == "labels[1]: expected a string, got 3");
  CHECK(first_message({{"target", "x"}, {"turn", "3-5"}}).find("turn: must match the pattern") == 0);
}

TEST_CASE("anyOf / oneOf / allOf") {
  CHECK(first_message({{"target", "x"}, {"when", 5}}).empty());
  CHECK(first_message({{"target", "x"}, {"when", "2h"}}).empty());
  CHECK(first_message({{"target", "x"}, {"when", "soon"}}).find("when: matches none of the allowed forms") ==
        0);
  CHECK(first_message({{"target", "x"}, {"pick", 5}}).empty());
  CHECK(first_message({{"target", "x"}, {"pick", 12.5}}).empty());
  CHECK(first_message({{"target", "x"}, {"pick", 20}}).find("exactly one must match") != std::string::npos);
  CHECK(first_message({{"target", "x"}, {"both", 2}}) == "both: must be >= 3, got 2");
}

TEST_CASE("nested objects and additionalProperties as a schema") {
  CHECK(first_message({{"target", "x"}, {"opts", {{"deep", true}}}}).empty());
  CHECK(first_message({{"target", "x"}, {"opts", {{"deep", 1}}}}) == "opts.deep: expected a boolean, got 1");
}

TEST_CASE("defaults are applied, recursively, without overriding given values") {
  json args = {{"target", "x"}, {"format", "json"}, {"opts", json::object()}};
  CHECK(validate_and_apply_defaults(test_schema(), args).empty());
  CHECK(args["max_count"] == 50);
  CHECK(args["format"] == "json");
  CHECK(args["opts"]["depth"] == 2);
  json plain = {{"target", "x"}};
  validate_json(test_schema(), plain);
  CHECK_FALSE(plain.contains("max_count"));
}

TEST_CASE("resolve_schema_ref follows local refs") {
  const json& range = resolve_schema_ref(test_schema(), test_schema()["properties"]["turn"]);
  CHECK(range["type"] == "string");
}

TEST_CASE("integral floats become int64 integers; integers beyond int64 are refused") {
  json a = json::parse(R"({"target": "x", "max_count": 1e2})");
  CHECK(validate_and_apply_defaults(test_schema(), a).empty());
  CHECK(a["max_count"].is_number_integer());
  CHECK(a["max_count"].get<int64_t>() == 100);
  json b = json::parse(R"({"target": "x", "limit": 100.0})");
  CHECK(validate_and_apply_defaults(test_schema(), b).empty());
  CHECK(b["limit"].is_number_integer());
  for (const char* text : {R"({"target": "x", "limit": 9223372036854775808})",
                           R"({"target": "x", "limit": 1e19})", R"({"target": "x", "limit": -1e19})"}) {
    CAPTURE(text);
    json c = json::parse(text);
    const auto issues = validate_and_apply_defaults(test_schema(), c);
    REQUIRE(issues.size() == 1);
    CHECK(issues.front().message.find("limit: is out of range") == 0);
    CHECK(issues.front().message.find("got -9223372036854775808") == std::string::npos);
  }
  json d = json::parse(R"({"target": "x", "limit": 9223372036854775807})");
  CHECK(validate_and_apply_defaults(test_schema(), d).empty());
}

}  // namespace schema_validator_unit
