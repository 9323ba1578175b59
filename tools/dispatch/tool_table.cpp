// The registry: one row per tool, in the order tools/list serves them. A tool is a handler and a text
// renderer (tools/<name>/<name>.h); its schemas are the embedded files schemas/<name>.{input,output}.json
// with schemas/common.{input,output}.json merged in (schemas/README.md). A tool without both is refused.
#include <map>
#include <mutex>

#include "core/base/error.h"
#include "tools/common/tool.h"
#include "tools/dispatch/tool_table.h"

#include "tools/agents/agents.h"
#include "tools/export/export.h"
#include "tools/files/files.h"
#include "tools/image/image.h"
#include "tools/list/list.h"
#include "tools/plan/plan.h"
#include "tools/recover/recover.h"
#include "tools/search/search.h"
#include "tools/sessions_digest/sessions_digest.h"
#include "tools/sessions_list/sessions_list.h"
#include "tools/sessions_mark/sessions_mark.h"
#include "tools/sessions_status/sessions_status.h"
#include "tools/show/show.h"
#include "tools/stats/stats.h"
#include "tools/status/status.h"
#include "tools/verbatim/verbatim.h"
#include "tools/wait/wait.h"
#include "tools/whoami/whoami.h"

namespace csift {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_schemas();
// The whole check of a table: each row needs a name (not "common"), a handler, a text renderer and both
// schema files, which must parse and merge; a failure is a ToolError naming what is missing. tool_table()
// checks its rows on first use, and the schemas only as each is used; check_tool_schemas() applies this to
// the table. Declared here, not in tool_table.h, since only the table and its tests call it.
void check_tool_table(const std::vector<ToolSpec>& table);
// A tool schema file with a common file (schemas/common.input.json / common.output.json) merged in, as
// schemas/README.md says; a redefinition of a common definition is a ToolError naming `file` and the path.
json merge_common_schema(json tool_schema, const json& common, std::string_view file);

namespace {

// One row per tool; a row spells only what differs from ToolSpec's defaults (read-only, not blocking, served
// over every transport).
std::vector<ToolSpec> build_table() {
  return {
      {.name = "list", .run = &run_list, .render_text = &render_list_text},
      {.name = "search", .run = &run_search, .render_text = &render_search_text},
      {.name = "show", .run = &run_show, .render_text = &render_show_text},
      {.name = "stats", .run = &run_stats, .render_text = &render_stats_text},
      {.name = "whoami", .run = &run_whoami, .render_text = &render_whoami_text},
      {.name = "agents", .run = &run_agents, .render_text = &render_agents_text},
      {.name = "files", .run = &run_files, .render_text = &render_files_text},
      {.name = "verbatim", .run = &run_verbatim, .render_text = &render_verbatim_text},
      {.name = "recover", .run = &run_recover, .render_text = &render_recover_text},
      {.name = "plan", .run = &run_plan, .render_text = &render_plan_text},
      {.name = "image", .run = &run_image, .render_text = &render_image_text},
      {.name = "status", .run = &run_status, .render_text = &render_status_text},
      {.name = "wait", .run = &run_wait, .render_text = &render_wait_text, .blocks = true},
      {.name = "export",
       .run = &run_export,
       .render_text = &render_export_text,
       .read_only = false,
       .local_only = true},
      {.name = "sessions_list",
       .run = &run_sessions_list,
       .render_text = &render_sessions_list_text,
       .local_only = true},
      {.name = "sessions_digest",
       .run = &run_sessions_digest,
       .render_text = &render_sessions_digest_text,
       .read_only = false,
       .local_only = true},
      {.name = "sessions_mark",
       .run = &run_sessions_mark,
       .render_text = &render_sessions_mark_text,
       .read_only = false,
       .local_only = true},
      {.name = "sessions_status",
       .run = &run_sessions_status,
       .render_text = &render_sessions_status_text,
       .read_only = false,
       .local_only = true},
  };
}

// A value built on its first use, once, by whichever thread asks first (a build that throws is retried by
// the next asker, as std::call_once does).
struct LazyJson {
  std::once_flag once;
  json value;
};

// Every embedded schema file, keyed by file name ("list.input.json"), parsed on its first use: a CLI run
// needs one tool's input schema and the common one, and parsing all 36 files at every start was most of a
// sanitized run's fixed cost (60,000 allocations for `--version`).
struct EmbeddedSchema {
  std::string_view text;
  LazyJson parsed;
};

std::map<std::string, EmbeddedSchema, std::less<>>& embedded_schema_files() {
  static std::map<std::string, EmbeddedSchema, std::less<>> files = [] {
    std::map<std::string, EmbeddedSchema, std::less<>> out;
    for (const auto& [name, text] : embedded_schemas())
      out[std::string(name)].text = text;
    return out;
  }();
  return files;
}

// One embedded file, parsed; nullptr when no file has that name.
const json* parsed_schema(std::string_view name) {
  auto& files = embedded_schema_files();
  const auto it = files.find(name);
  if (it == files.end()) return nullptr;
  EmbeddedSchema& file = it->second;
  std::call_once(file.parsed.once, [&] {
    try {
      file.parsed.value = json::parse(file.text);
    } catch (const json::exception& e) {
      failure_error("embedded schema " + std::string(name) + " is not valid JSON: " + e.what());
    }
  });
  return &file.parsed.value;
}

constexpr std::string_view kInputSuffix = ".input.json";
constexpr std::string_view kOutputSuffix = ".output.json";
constexpr std::string_view kCommonTool = "common";
// On a common property: each tool gives its own description, and only that (schemas/README.md).
constexpr std::string_view kDescribePerTool = "x-describe-per-tool";

bool is_definition_map(std::string_view key) {
  return key == "properties" || key == "$defs";
}

// Only `properties`: adds to the tool's definition of the same name instead of defining it.
bool is_extension(const json& definition) {
  return definition.is_object() && definition.size() == 1 && definition.contains("properties");
}

bool describes_only(const json& definition) {
  return definition.is_object() && definition.size() == 1 && definition.contains("description") &&
         definition["description"].is_string();
}

void merge_into(json& tool, const json& common, const std::string& path, std::string_view file);

void merge_definitions(json& tool_map, const json& common_map, const std::string& path,
                       std::string_view file) {
  for (const auto& [name, definition] : common_map.items()) {
    const std::string where = path + "/" + name;
    const bool per_tool_description =
        definition.is_object() && definition.value(std::string(kDescribePerTool), false);
    if (!tool_map.contains(name)) {
      if (per_tool_description) {
        failure_error(std::string(file) + " must describe the common " + where +
                      " with {\"description\": ...} (schemas/README.md)");
      }
      tool_map[name] = definition;
      continue;
    }
    json& own = tool_map[name];
    if (per_tool_description && describes_only(own)) {
      json merged = definition;
      merged.erase(std::string(kDescribePerTool));
      merged["description"] = own["description"];
      own = std::move(merged);
    } else if (is_extension(definition) && own.is_object()) {
      merge_into(own, definition, where, file);
    } else {
      failure_error(std::string(file) + " redefines " + where + ", which the common schema file defines" +
                    (per_tool_description ? " (a tool gives only its description)" : "") + "; drop it from " +
                    std::string(file) + " (schemas/README.md)");
    }
  }
}

void merge_into(json& tool, const json& common, const std::string& path, std::string_view file) {
  for (const auto& [key, value] : common.items()) {
    if (key == "$comment") continue;
    if (!is_definition_map(key) || !value.is_object()) {
      failure_error("common schema " + path + "/" + key + ": only properties and $defs can be shared");
    }
    json& own = tool[key];
    if (own.is_null()) own = json::object();
    if (!own.is_object()) failure_error(std::string(file) + ": " + path + "/" + key + " is not an object");
    merge_definitions(own, value, path + "/" + key, file);
  }
}

// schemas/<tool>.input.json / .output.json with schemas/common.input.json / .output.json merged in, built on
// first use. A tool with no schema file is refused, never given a permissive stand-in.
const json& schema_file(std::string_view tool, std::string_view suffix) {
  static std::map<std::string, LazyJson, std::less<>> merged = [] {
    std::map<std::string, LazyJson, std::less<>> out;
    for (const auto& [name, file] : embedded_schema_files()) {
      for (const std::string_view kind : {kInputSuffix, kOutputSuffix}) {
        if (name.ends_with(kind) && name != std::string(kCommonTool) + std::string(kind)) out[name];
      }
    }
    return out;
  }();
  const std::string name = std::string(tool) + std::string(suffix);
  const auto it = merged.find(name);
  if (it == merged.end()) {
    failure_error("tool " + std::string(tool) + " has no schema file schemas/" + name +
                  " (every tool needs both <tool>.input.json and <tool>.output.json)");
  }
  std::call_once(it->second.once, [&] {
    const json* common = parsed_schema(std::string(kCommonTool) + std::string(suffix));
    const json& own = *parsed_schema(name);
    it->second.value = common ? merge_common_schema(own, *common, name) : own;
  });
  return it->second.value;
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

json merge_common_schema(json tool_schema, const json& common, std::string_view file) {
  if (!tool_schema.is_object() || !common.is_object())
    failure_error(std::string(file) + ": not a JSON object");
  merge_into(tool_schema, common, "", file);
  return tool_schema;
}

namespace {

void check_tool_rows(const std::vector<ToolSpec>& table) {
  for (size_t i = 0; i < table.size(); ++i) {
    const ToolSpec& tool = table[i];
    if (tool.name.empty() || tool.name == kCommonTool || !tool.run || !tool.render_text) {
      failure_error("tool table row " + std::to_string(i) + " (" + std::string(tool.name) +
                    "): a tool needs a name other than common, a handler and a text renderer");
    }
    for (size_t j = 0; j < i; ++j) {
      if (table[j].name == tool.name)
        failure_error("tool " + std::string(tool.name) + " is registered twice");
    }
  }
}

}  // namespace

void check_tool_table(const std::vector<ToolSpec>& table) {
  check_tool_rows(table);
  for (const ToolSpec& tool : table) {
    schema_file(tool.name, kInputSuffix);
    schema_file(tool.name, kOutputSuffix);
  }
}

const std::vector<ToolSpec>& tool_table() {
  static const std::vector<ToolSpec> table = [] {
    std::vector<ToolSpec> built = build_table();
    check_tool_rows(built);
    return built;
  }();
  return table;
}

void check_tool_schemas() {
  check_tool_table(tool_table());
}

const ToolSpec* find_tool(std::string_view name) {
  for (const auto& tool : tool_table()) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

const json& input_schema_annotated(std::string_view tool) {
  return schema_file(tool, kInputSuffix);
}

json input_schema_served(std::string_view tool) {
  json served = input_schema_annotated(tool);
  // A property marked `cli_only` is a human's decision at the command line: the served schema leaves it out.
  if (served.contains("properties"))
    for (auto it = served["properties"].begin(); it != served["properties"].end();) {
      const json cli = it->is_object() ? it->value("x-cli", json::object()) : json::object();
      it = cli.value("cli_only", false) ? served["properties"].erase(it) : std::next(it);
    }
  strip_cli_annotations(served);
  return served;
}

const json& output_schema(std::string_view tool) {
  return schema_file(tool, kOutputSuffix);
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
