#include "server/cli_model.h"

#include <algorithm>

#include "tools/dispatch/schema_validator.h"

namespace csift {
namespace {

void add_types_of(const json& root, const json& schema_in, std::vector<std::string>& out) {
  const json& schema = resolve_schema_ref(root, schema_in);
  if (!schema.is_object()) return;
  auto add = [&](const std::string& t) {
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  if (schema.contains("type") && schema["type"].is_string()) add(schema["type"].get<std::string>());
  if (schema.contains("type") && schema["type"].is_array()) {
    for (const auto& t : schema["type"])
      add(t.get<std::string>());
  }
  if (!schema.contains("type") && schema.contains("enum")) add("string");
  for (const char* combinator : {"anyOf", "oneOf", "allOf"}) {
    if (!schema.contains(combinator)) continue;
    for (const auto& alternative : schema[combinator])
      add_types_of(root, alternative, out);
  }
}

CliOption option_for(const json& root, const std::string& property, const json& prop_in) {
  CliOption o;
  o.property = property;
  o.flag = flag_for_property(property);
  o.schema = resolve_schema_ref(root, prop_in);
  std::vector<std::string> own_types;
  add_types_of(root, o.schema, own_types);
  o.is_array = std::find(own_types.begin(), own_types.end(), "array") != own_types.end();
  o.is_boolean = own_types.size() == 1 && own_types.front() == "boolean";
  if (o.is_array && o.schema.contains("items")) {
    add_types_of(root, o.schema["items"], o.types);
  } else {
    o.types = own_types;
  }
  const json cli = o.schema.value("x-cli", json::object());
  o.positional = cli.value("positional", false);
  o.split_commas = cli.value("split", true);
  const std::string short_name = cli.value("short", "");
  if (short_name.size() == 1) o.short_name = short_name.front();
  const std::string negate = cli.value("negate", "");
  if (!negate.empty()) o.negate_flag = flag_for_property(negate);
  for (const auto& alias : cli.value("aliases", json::array())) {
    if (alias.is_string()) o.alias_flags.push_back(flag_for_property(alias.get<std::string>()));
  }
  return o;
}

}  // namespace

std::string flag_for_property(std::string_view property, char short_name) {
  if (short_name) return std::string("-") + short_name;
  std::string flag = "--" + std::string(property);
  for (auto& c : flag)
    c = c == '_' ? '-' : c;
  return flag;
}

CliModel build_cli_model(const json& input_schema) {
  CliModel model;
  if (!input_schema.is_object() || !input_schema.contains("properties")) return model;
  const json required = input_schema.value("required", json::array());
  for (const auto& [property, prop] : input_schema["properties"].items()) {
    CliOption o = option_for(input_schema, property, prop);
    o.required = std::find(required.begin(), required.end(), property) != required.end();
    model.options.push_back(std::move(o));
  }
  return model;
}

const CliOption* CliModel::by_flag(std::string_view flag) const {
  for (const auto& o : options) {
    if (o.positional) continue;
    if (o.flag == flag) return &o;
    if (std::find(o.alias_flags.begin(), o.alias_flags.end(), flag) != o.alias_flags.end()) return &o;
  }
  return nullptr;
}

const CliOption* CliModel::by_negate_flag(std::string_view flag) const {
  for (const auto& o : options) {
    if (!o.negate_flag.empty() && o.negate_flag == flag) return &o;
  }
  return nullptr;
}

const CliOption* CliModel::by_short(char c) const {
  for (const auto& o : options) {
    if (o.short_name == c) return &o;
  }
  return nullptr;
}

std::vector<const CliOption*> CliModel::positionals() const {
  std::vector<const CliOption*> out;
  for (const auto& o : options) {
    if (o.positional) out.push_back(&o);
  }
  return out;
}

std::vector<std::string> CliModel::all_flags() const {
  std::vector<std::string> out;
  for (const auto& o : options) {
    if (o.positional) continue;
    out.push_back(o.flag);
    if (!o.negate_flag.empty()) out.push_back(o.negate_flag);
    out.insert(out.end(), o.alias_flags.begin(), o.alias_flags.end());
  }
  out.push_back("--help");
  return out;
}

}  // namespace csift
