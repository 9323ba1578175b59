// Renders an arguments object back into the equivalent `csift-mcp --cli` command line, so a cut result can
// tell a CLI reader exactly what to run next. The inverse of server/cli.cpp's parser, driven by the same
// `x-cli` annotations.
#include "server/cli.h"
#include "server/cli_model.h"
#include "tools/dispatch/schema_validator.h"
#include "tools/dispatch/tool_table.h"

namespace csift {
namespace {

bool is_shell_safe(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!plain && std::string_view("@%+=:,./_-").find(c) == std::string_view::npos) return false;
  }
  return true;
}

std::string shell_quote(std::string_view s) {
  if (is_shell_safe(s)) return std::string(s);
  std::string out = "'";
  for (const char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string scalar_text(const json& v) {
  return v.is_string() ? v.get<std::string>() : dump_json(v);
}

// `--flag value`, or `--flag=value` when the value would read as a flag.
std::string flag_with_value(const std::string& flag, const json& v) {
  const std::string text = scalar_text(v);
  if (!text.empty() && text.front() == '-') return " " + shell_quote(flag + "=" + text);
  return " " + flag + " " + shell_quote(text);
}

std::string render_flag(const std::string& property, const json& prop, const json& v) {
  const std::string flag = flag_for_property(property);
  const json cli = prop.value("x-cli", json::object());
  if (v.is_null()) return "";
  if (v.is_boolean()) {
    if (v.get<bool>()) return " " + flag;
    if (cli.contains("negate")) return " " + flag_for_property(cli["negate"].get<std::string>());
    return " " + flag + "=false";
  }
  if (!v.is_array()) return flag_with_value(flag, v);
  std::string out;
  for (const auto& item : v)
    out += flag_with_value(flag, item);
  return out;
}

}  // namespace

std::string spell_cli_arg(std::string_view tool, std::string_view property, bool prefer_short) {
  char short_name = 0;
  if (prefer_short && find_tool(tool)) {
    const json& schema = input_schema_annotated(tool);
    const json properties = schema.value("properties", json::object());
    const std::string key(property);
    if (properties.contains(key)) {
      const json& prop = resolve_schema_ref(schema, properties[key]);
      const std::string s = prop.is_object() ? prop.value("x-cli", json::object()).value("short", "") : "";
      if (s.size() == 1) short_name = s.front();
    }
  }
  return flag_for_property(property, short_name);
}

std::string render_continuation_cli(std::string_view tool, const json& args) {
  const json& schema = input_schema_annotated(tool);
  const json properties = schema.value("properties", json::object());
  std::string flags, positionals;
  bool positional_looks_like_flag = false;
  for (const auto& [key, value] : args.items()) {
    const json& prop =
        properties.contains(key) ? resolve_schema_ref(schema, properties[key]) : json::object();
    const bool positional =
        prop.is_object() && prop.value("x-cli", json::object()).value("positional", false);
    if (!positional) {
      flags += render_flag(key, prop.is_object() ? prop : json::object(), value);
      continue;
    }
    const json items = value.is_array() ? value : json::array({value});
    for (const auto& item : items) {
      const std::string text = scalar_text(item);
      positional_looks_like_flag = positional_looks_like_flag || (!text.empty() && text.front() == '-');
      positionals += " " + shell_quote(text);
    }
  }
  const std::string head = "csift-mcp --cli " + std::string(tool);
  if (positional_looks_like_flag) return head + flags + " --" + positionals;
  return head + positionals + flags;
}

}  // namespace csift
