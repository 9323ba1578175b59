// The tool contract's few definitions (tools/common/tool.h): how a context spells a follow-up call or an
// argument for its caller, and follow-up calls as data.
#include "tools/common/tool.h"

namespace csift {

json with_carried(const json& args, const json& carried) {
  if (!args.is_object() || carried.empty()) return args;
  json out = args;
  for (const auto& [key, value] : carried.items()) {
    if (!out.contains(key)) out[key] = value;
  }
  return out;
}

std::string ToolContext::call_text(std::string_view tool, const json& args) const {
  const json full = with_carried(args, carried_args);
  if (spell_call) return spell_call(tool, full);
  return std::string(tool) + " " + dump_json(full);
}

std::string ToolContext::arg_text(std::string_view tool, std::string_view property, bool prefer_short) const {
  if (spell_arg) return spell_arg(tool, property, prefer_short);
  return std::string(property);
}

json follow_up_call(std::string_view tool, json arguments) {
  return json{{"tool", std::string(tool)}, {"arguments", std::move(arguments)}};
}

std::string follow_up_text(const json& call, const ToolContext& ctx) {
  return ctx.call_text(call.value("tool", ""), call.value("arguments", json::object()));
}

}  // namespace csift
