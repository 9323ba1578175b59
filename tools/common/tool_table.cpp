// The registry: one row per tool, in the order tools/list serves them. A tool is a handler and a text
// renderer (tools/<name>.h); its schemas are the embedded files schemas/<name>.{input,output}.json.
#include <map>
#include <mutex>

#include "core/base/error.h"
#include "tools/common/tool.h"

#include "tools/list/list.h"
#include "tools/search/search.h"
#include "tools/show/show.h"
#include "tools/stats/stats.h"
#include "tools/whoami/whoami.h"

namespace csift {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_schemas();

namespace {

std::vector<ToolSpec> build_table() {
  std::vector<ToolSpec> table;
  table.push_back({"list", &run_list, &render_list_text, true});
  table.push_back({"search", &run_search, &render_search_text, true});
  table.push_back({"show", &run_show, &render_show_text, true});
  table.push_back({"stats", &run_stats, &render_stats_text, true});
  table.push_back({"whoami", &run_whoami, &render_whoami_text, true});
  return table;
}

// Every embedded schema file, parsed once, keyed by file name ("list.input.json").
const std::map<std::string, json, std::less<>>& parsed_schemas() {
  static const std::map<std::string, json, std::less<>> schemas = [] {
    std::map<std::string, json, std::less<>> out;
    for (const auto& [name, text] : embedded_schemas()) {
      try {
        out.emplace(std::string(name), json::parse(text));
      } catch (const json::exception& e) {
        failure_error("embedded schema " + std::string(name) + " is not valid JSON: " + e.what());
      }
    }
    return out;
  }();
  return schemas;
}

// A tool whose schema file has not landed yet still validates (anything object-shaped) instead of failing.
const json& schema_file(std::string_view tool, std::string_view suffix) {
  static const json permissive = json::object({{"type", "object"}});
  const auto& schemas = parsed_schemas();
  const auto it = schemas.find(std::string(tool) + std::string(suffix));
  return it == schemas.end() ? permissive : it->second;
}

void strip_cli_annotations(json& node) {
  if (node.is_array()) {
    for (auto& item : node)
      strip_cli_annotations(item);
    return;
  }
  if (!node.is_object()) return;
  for (auto it = node.begin(); it != node.end();) {
    if (it.key().rfind("x-cli", 0) == 0) {
      it = node.erase(it);
    } else {
      strip_cli_annotations(it.value());
      ++it;
    }
  }
}

}  // namespace

const std::vector<ToolSpec>& tool_table() {
  static const std::vector<ToolSpec> table = build_table();
  return table;
}

const ToolSpec* find_tool(std::string_view name) {
  for (const auto& tool : tool_table()) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

const json& input_schema_annotated(std::string_view tool) {
  return schema_file(tool, ".input.json");
}

json input_schema_served(std::string_view tool) {
  json served = input_schema_annotated(tool);
  strip_cli_annotations(served);
  return served;
}

const json& output_schema(std::string_view tool) {
  return schema_file(tool, ".output.json");
}

std::string tool_title(std::string_view tool) {
  const json& schema = input_schema_annotated(tool);
  return schema.contains("title") ? schema["title"].get<std::string>() : std::string(tool);
}

std::string tool_description(std::string_view tool) {
  const json& schema = input_schema_annotated(tool);
  return schema.contains("description") ? schema["description"].get<std::string>() : std::string();
}

}  // namespace csift
