#include <doctest/doctest.h>

#include <functional>
#include <set>

#include "core/base/error.h"
#include "server/cli.h"
#include "server/cli_model.h"
#include "tools/dispatch/invoke_tool.h"
#include "tools/dispatch/schema_validator.h"

using namespace csift;

namespace {

const json& demo_schema() {
  static const json schema = json::parse(R"({
    "type": "object",
    "additionalProperties": false,
    "properties": {
      "rows": {"type": "integer", "minimum": 0, "default": 3},
      "fail": {"type": "string", "enum": ["none", "usage", "not_found", "std", "other"], "default": "none"},
      "format": {"type": "string", "enum": ["text", "json"], "default": "text"},
      "max_chars": {"type": "integer", "minimum": 0},
      "row_offset": {"type": "integer", "minimum": 0, "default": 0}
    }
  })");
  return schema;
}

Envelope run_demo(const json& args, ToolContext&) {
  const std::string fail = args["fail"];
  if (fail == "usage") usage_error("rows: too many");
  if (fail == "not_found") not_found_error("no such session @x");
  if (fail == "std") throw std::runtime_error("disk on fire");
  if (fail == "other") throw 42;
  Envelope env = Envelope::make("demo");
  for (int i = 0; i < args["rows"].get<int>(); ++i)
    env.add_row("item")["n"] = i;
  env.summary["items"] = env.rows.size();
  env.notes.push_back("a note");
  return env;
}

// One line per row, 10 characters each ("item 0000\n").
std::string render_demo_text(const Envelope& env, const json&, const ToolContext&) {
  std::string out;
  for (const auto& row : env.rows) {
    char line[16];
    std::snprintf(line, sizeof line, "item %04d\n", row["n"].get<int>());
    out += line;
  }
  return out;
}

const ToolSpec kDemo{"demo", &run_demo, &render_demo_text, true};

ToolOutcome call(const json& args) {
  ToolContext ctx;
  return invoke_tool_with_schema(kDemo, demo_schema(), args, ctx);
}

}  // namespace

TEST_CASE("success renders text with defaults applied; empty results exit 0") {
  const ToolOutcome out = call(json::object());
  CHECK(out.exit_code == 0);
  CHECK(out.text == "item 0000\nitem 0001\nitem 0002\n");
  CHECK(out.envelope.notes == std::vector<std::string>{"a note"});
  const ToolOutcome empty = call({{"rows", 0}});
  CHECK(empty.exit_code == 0);
  CHECK(empty.envelope.rows.empty());
}

TEST_CASE("format json renders NDJSON") {
  const ToolOutcome out = call({{"rows", 1}, {"format", "json"}});
  CHECK(out.text ==
        "{\"kind\":\"header\",\"command\":\"demo\"}\n{\"kind\":\"item\",\"n\":0}\n"
        "{\"kind\":\"summary\",\"items\":1}\n");
}

TEST_CASE("invalid arguments are a usage error naming the argument") {
  const ToolOutcome out = call({{"rows", "abc"}});
  CHECK(out.exit_code == 2);
  CHECK(out.envelope.is_error);
  CHECK(out.envelope.summary["error"]["kind"] == "usage");
  CHECK(out.envelope.summary["error"]["message"] == "rows: expected an integer, got \"abc\"");
  CHECK(out.text == "error: rows: expected an integer, got \"abc\"\n");
  const ToolOutcome unknown = call({{"bogus", 1}, {"format", "json"}});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.text.find("{\"kind\":\"summary\",\"error\":{\"kind\":\"usage\"") != std::string::npos);
  CHECK(call(json::array()).exit_code == 2);
  CHECK(call(nullptr).exit_code == 0);
}

TEST_CASE("every exception becomes an error envelope") {
  CHECK(call({{"fail", "usage"}}).exit_code == 2);
  const ToolOutcome missing = call({{"fail", "not_found"}});
  CHECK(missing.exit_code == 1);
  CHECK(missing.envelope.summary["error"]["kind"] == "not_found");
  CHECK(missing.text == "not found: no such session @x\n");
  const ToolOutcome crashed = call({{"fail", "std"}});
  CHECK(crashed.exit_code == 1);
  CHECK(crashed.envelope.summary["error"]["message"] == "internal error: disk on fire");
  CHECK(call({{"fail", "other"}}).exit_code == 1);
}

TEST_CASE("row_offset drops leading rows and says so") {
  const ToolOutcome out = call({{"rows", 5}, {"row_offset", 3}});
  CHECK(out.text == "item 0003\nitem 0004\n");
  CHECK(out.envelope.summary["rows_skipped"] == 3);
  CHECK(call({{"rows", 2}, {"row_offset", 9}}).envelope.rows.empty());
}

TEST_CASE("max_chars cuts at row boundaries with an exact continuation") {
  const json args = {{"rows", 100}, {"max_chars", 300}};
  const ToolOutcome out = call(args);
  const size_t kept = out.envelope.rows.size();
  CHECK(kept > 5);
  CHECK(kept < 30);
  CHECK(out.text.size() <= 300);
  CHECK(out.envelope.summary["rows_omitted"] == 100 - kept);
  json expected = args;
  expected["row_offset"] = kept;
  CHECK(out.envelope.summary["continue_with"] == expected);
  CHECK(out.text.find("continue with row_offset=" + std::to_string(kept)) != std::string::npos);

  const ToolOutcome next = call(out.envelope.summary["continue_with"]);
  CHECK(next.envelope.rows.front()["n"] == kept);
  CHECK(next.envelope.summary["rows_skipped"] == kept);
}

TEST_CASE("max_chars keeps at least one row and leaves small results alone") {
  const ToolOutcome tiny = call({{"rows", 5}, {"max_chars", 1}});
  CHECK(tiny.envelope.rows.size() == 1);
  CHECK(tiny.envelope.summary["continue_with"]["row_offset"] == 1);
  const ToolOutcome roomy = call({{"rows", 3}, {"max_chars", 10000}});
  CHECK_FALSE(roomy.envelope.summary.contains("rows_omitted"));
  const ToolOutcome json_cut = call({{"rows", 50}, {"max_chars", 400}, {"format", "json"}});
  CHECK(json_cut.text.size() <= 400);
  CHECK(json_cut.text.find("\"continue_with\":{") != std::string::npos);
}

TEST_CASE("registered tools serve schemas without x-cli annotations") {
  for (const auto& tool : tool_table()) {
    CHECK(find_tool(tool.name) == &tool);
    const std::string served = dump_json(input_schema_served(tool.name));
    CHECK(served.find("\"x-cli") == std::string::npos);
    CHECK(served.find("\"x-describe-per-tool") == std::string::npos);
  }
  CHECK(find_tool("no-such-tool") == nullptr);
}

// ------------------------------------------------------------------------------------------ table invariants

// Defined by the generated schemas source and tools/dispatch/tool_table.cpp.
namespace csift {
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_schemas();
void check_tool_table(const std::vector<ToolSpec>& table);
json merge_common_schema(json tool_schema, const json& common, std::string_view file);
}  // namespace csift

namespace {

json embedded(std::string_view file) {
  for (const auto& [name, text] : embedded_schemas()) {
    if (name == file) return json::parse(text);
  }
  return nullptr;
}

std::string failure_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ToolError& e) {
    return std::string(e.kind_name()) + ": " + e.what();
  }
  return "(no error)";
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string upper(std::string s) {
  for (auto& c : s)
    c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return s;
}

// A CLI token for a property and the JSON value it must become.
std::pair<std::string, json> sample_value(const CliOption& o) {
  const json& schema = o.is_array ? o.schema["items"] : o.schema;
  if (schema.contains("enum")) return {schema["enum"].back().get<std::string>(), schema["enum"].back()};
  if (!o.types.empty() && o.types.front() == "integer") return {"7", 7};
  if (!o.types.empty() && o.types.front() == "number") return {"0.25", 0.25};
  return {"some-value", "some-value"};
}

}  // namespace

TEST_CASE("the table refuses a tool without both schemas") {
  CHECK_NOTHROW(check_tool_table(tool_table()));
  const std::string refused = failure_of([] { check_tool_table({kDemo}); });
  CHECK(contains(refused, "failure: tool demo has no schema file schemas/demo.input.json"));
  CHECK(contains(failure_of([] { input_schema_annotated("no-such-tool"); }),
                 "schemas/no-such-tool.input.json"));
  CHECK(contains(failure_of([] { output_schema("no-such-tool"); }), "schemas/no-such-tool.output.json"));
  const ToolSpec twice = tool_table().front();
  CHECK(contains(failure_of([&] { check_tool_table({twice, twice}); }), "registered twice"));
  const ToolSpec common{"common", twice.run, twice.render_text, true};
  CHECK(contains(failure_of([&] { check_tool_table({common}); }), "a name other than common"));
}

TEST_CASE("every tool has both schemas, shaped as schemas/README.md says") {
  REQUIRE_FALSE(tool_table().empty());
  for (const auto& tool : tool_table()) {
    CAPTURE(tool.name);
    const json& input = input_schema_annotated(tool.name);
    CHECK(input["type"] == "object");
    CHECK(input["additionalProperties"] == false);
    CHECK_FALSE(tool_title(tool.name).empty());
    CHECK_FALSE(tool_description(tool.name).empty());
    const json& output = output_schema(tool.name);
    CHECK(output["type"] == "object");
    CHECK(output["required"] == json::array({"header", "rows", "summary"}));
    const json& header = output["properties"]["header"];
    CHECK(header["properties"]["kind"] == json{{"const", "header"}});
    CHECK(header["properties"]["command"] == json{{"const", tool.name}});
    CHECK(header["required"] == json::array({"kind", "command"}));
    const json& summary = output["properties"]["summary"];
    CHECK(summary["properties"]["kind"] == json{{"const", "summary"}});
    CHECK(summary["required"] == json::array({"kind"}));
    const json& rows = output["properties"]["rows"];
    CHECK(rows["type"] == "array");
    const json& items = rows["items"];
    for (const json& alternative : items.contains("anyOf") ? items["anyOf"] : json::array({items})) {
      const json& row = resolve_schema_ref(output, alternative);
      CHECK(row["properties"]["kind"].contains("const"));
      CHECK(contains(dump_json(row["required"]), "\"kind\""));
    }
  }
}

TEST_CASE("common schema definitions reach every tool exactly as schemas/common.*.json defines them") {
  const json common_input = embedded("common.input.json");
  const json common_output = embedded("common.output.json");
  REQUIRE(common_input.is_object());
  REQUIRE(common_output.is_object());
  for (const auto& tool : tool_table()) {
    CAPTURE(tool.name);
    const std::string name(tool.name);
    const json own_input = embedded(name + ".input.json");
    const json own_output = embedded(name + ".output.json");
    const json served = input_schema_served(tool.name);
    for (const auto& item : common_input["properties"].items()) {
      const auto& property = item.key();
      const auto& definition = item.value();
      CAPTURE(property);
      json expected = definition;
      expected.erase("x-cli");  // CLI-only help, dropped from the served schema like every x-cli annotation
      if (definition.contains("x-describe-per-tool")) {
        // The tool file gives the description and nothing else.
        REQUIRE(own_input["properties"].contains(property));
        CHECK(own_input["properties"][property].size() == 1);
        expected.erase("x-describe-per-tool");
        expected["description"] = own_input["properties"][property]["description"];
      } else {
        CHECK_FALSE(own_input["properties"].contains(property));
      }
      CHECK(served["properties"][property] == expected);
    }
    const json& output = output_schema(tool.name);
    // A tool's own output schema may have no $defs or no summary properties at all (a const operator[] on a
    // missing key is undefined behaviour, which the sanitizer build's assertions catch).
    const json::json_pointer defs("/$defs"), summary_props("/properties/summary/properties");
    CHECK_FALSE((own_output.contains(defs) && own_output.at(defs).contains("error")));
    CHECK_FALSE((own_output.contains(summary_props) && own_output.at(summary_props).contains("error")));
    CHECK(output["$defs"]["error"] == common_output["$defs"]["error"]);
    CHECK(output["properties"]["summary"]["properties"]["error"] == json{{"$ref", "#/$defs/error"}});
  }
}

TEST_CASE("merging the common schema refuses a redefinition") {
  const json common = json::parse(R"({
    "properties": {
      "format": {"type": "string", "x-describe-per-tool": true},
      "max_chars": {"type": "integer"},
      "summary": {"properties": {"error": {"$ref": "#/$defs/error"}}}
    },
    "$defs": {"error": {"type": "object"}}
  })");
  const json tool = json::parse(R"({
    "properties": {"a": {"type": "string"}, "format": {"description": "d"}, "summary": {"type": "object"}}
  })");
  const json merged = merge_common_schema(tool, common, "t.input.json");
  CHECK(dump_json(merged) ==
        R"({"properties":{"a":{"type":"string"},"format":{"type":"string","description":"d"},)"
        R"("summary":{"type":"object","properties":{"error":{"$ref":"#/$defs/error"}}},)"
        R"("max_chars":{"type":"integer"}},"$defs":{"error":{"type":"object"}}})");

  auto refusal = [&](const char* tool_text) {
    return failure_of([&] { merge_common_schema(json::parse(tool_text), common, "t.input.json"); });
  };
  CHECK(contains(
      refusal(R"({"properties": {"format": {"description": "d"}, "max_chars": {"type": "integer"}}})"),
      "t.input.json redefines /properties/max_chars"));
  CHECK(contains(refusal(R"({"properties": {"format": {"description": "d", "default": "json"}}})"),
                 "t.input.json redefines /properties/format"));
  CHECK(
      contains(refusal(R"({"properties": {}})"), "t.input.json must describe the common /properties/format"));
  CHECK(contains(refusal(R"({"properties": {"format": {"description": "d"}}, "$defs": {"error": {}}})"),
                 "t.input.json redefines /$defs/error"));
  CHECK(contains(refusal(R"({"properties": {"format": {"description": "d"},
                                              "summary": {"properties": {"error": {}}}}})"),
                 "t.input.json redefines /properties/summary/properties/error"));
}

TEST_CASE("within a tool, long flags and short flags are unique") {
  for (const auto& tool : tool_table()) {
    CAPTURE(tool.name);
    const CliModel model = build_cli_model(input_schema_annotated(tool.name));
    std::set<std::string> flags{"--help"};
    std::set<char> shorts{'h'};
    for (const auto& o : model.options) {
      CAPTURE(o.property);
      CHECK(flags.insert(o.flag).second);
      if (!o.negate_flag.empty()) {
        CHECK(o.is_boolean);
        CHECK(flags.insert(o.negate_flag).second);
      }
      for (const auto& alias : o.alias_flags)
        CHECK(flags.insert(alias).second);
      if (o.short_name) {
        CHECK(shorts.insert(o.short_name).second);
      }
    }
  }
}

TEST_CASE("every input property reaches the CLI and its --help") {
  for (const auto& tool : tool_table()) {
    CAPTURE(tool.name);
    const json& schema = input_schema_annotated(tool.name);
    const CliModel model = build_cli_model(schema);
    const std::string help = render_tool_help(tool.name, schema);
    REQUIRE(model.options.size() == schema["properties"].size());
    std::vector<std::string> positional_tokens;
    json positional_expected = json::object();
    for (const auto& o : model.options) {
      CAPTURE(o.property);
      const auto [token, value] = sample_value(o);
      const json expected = o.is_array ? json::array({value}) : value;
      if (o.positional) {
        CHECK(contains(help, upper(o.property)));
        positional_tokens.push_back(token);
        positional_expected[o.property] = expected;
        continue;
      }
      CHECK(contains(help, o.flag));
      if (o.is_boolean) {
        CHECK(parse_cli_args(tool.name, schema, {o.flag}).args == json{{o.property, true}});
        CHECK(parse_cli_args(tool.name, schema, {o.flag + "=false"}).args == json{{o.property, false}});
        if (!o.negate_flag.empty()) {
          CHECK(contains(help, o.negate_flag));
          CHECK(parse_cli_args(tool.name, schema, {o.negate_flag}).args == json{{o.property, false}});
        }
        if (o.short_name) {
          CHECK(parse_cli_args(tool.name, schema, {std::string("-") + o.short_name}).args ==
                json{{o.property, true}});
        }
        continue;
      }
      CHECK(parse_cli_args(tool.name, schema, {o.flag, token}).args == json{{o.property, expected}});
      CHECK(parse_cli_args(tool.name, schema, {o.flag + "=" + token}).args == json{{o.property, expected}});
      if (o.short_name) {
        CHECK(parse_cli_args(tool.name, schema, {std::string("-") + o.short_name, token}).args ==
              json{{o.property, expected}});
      }
    }
    if (!positional_tokens.empty()) {
      CHECK(parse_cli_args(tool.name, schema, positional_tokens).args == positional_expected);
    }
  }
}
