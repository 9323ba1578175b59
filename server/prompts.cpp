// prompts/list, prompts/get and completion/complete: the protocol side. The prompts' words and the ids
// offered as completions come from tools/prompts and tools/resources.
#include "server/mcp_server.h"
#include "tools/prompts/argument_values.h"
#include "tools/prompts/session_prompts.h"
#include "tools/resources/session_resources.h"

namespace csift {
namespace {

constexpr size_t kMaxCompletions = 100;  // the most values one completion result may carry (MCP)

std::string string_param(const json& params, const char* key) {
  return params.contains(key) && params[key].is_string() ? params[key].get<std::string>() : "";
}

}  // namespace

json McpServer::list_prompts(const rpc::Message& m, bool stateless) {
  json prompts = json::array();
  for (const auto& p : session_prompts()) {
    json args = json::array();
    for (const auto& a : p.arguments)
      args.push_back(json{{"name", a.name}, {"description", a.description}, {"required", a.required}});
    prompts.push_back(json{{"name", p.name},
                           {"title", p.title},
                           {"description", p.description},
                           {"arguments", std::move(args)}});
  }
  json result = with_result_type(json{{"prompts", std::move(prompts)}}, stateless);
  return rpc::make_result(m.id, with_cache_hint(std::move(result), stateless, kFixedByBinary));
}

json McpServer::get_prompt(const rpc::Message& m, bool stateless) {
  const std::string name = string_param(m.params, "name");
  const SessionPrompt* prompt = find_session_prompt(name);
  if (!prompt) {
    std::string names;
    for (const auto& p : session_prompts())
      names += (names.empty() ? "" : ", ") + p.name;
    return rpc::make_error(m.id, rpc::kInvalidParams, "unknown prompt '" + name + "'; prompts are: " + names);
  }
  const json args = m.params.contains("arguments") ? m.params["arguments"] : json::object();
  const PromptText text = render_session_prompt(*prompt, args);
  if (!text.error.empty()) return rpc::make_error(m.id, rpc::kInvalidParams, text.error);
  json messages =
      json::array({json{{"role", "user"}, {"content", json{{"type", "text"}, {"text", text.text}}}}});
  return rpc::make_result(
      m.id, with_result_type(json{{"description", prompt->description}, {"messages", std::move(messages)}},
                             stateless));
}

json McpServer::complete(const rpc::Message& m, bool stateless, ToolContext& ctx) {
  const json ref = m.params.contains("ref") ? m.params["ref"] : json();
  const json argument = m.params.contains("argument") ? m.params["argument"] : json();
  if (!ref.is_object() || !argument.is_object()) {
    return rpc::make_error(m.id, rpc::kInvalidParams,
                           "completion/complete needs params.ref and params.argument");
  }
  const std::string type = string_param(ref, "type");
  const std::string arg = string_param(argument, "name");
  const std::string value = string_param(argument, "value");
  bool sessions = false, agents = false;
  std::vector<std::string> fixed;  // offered as they are when no ids are
  if (type == "ref/prompt") {
    const SessionPrompt* prompt = find_session_prompt(string_param(ref, "name"));
    if (!prompt) return rpc::make_error(m.id, rpc::kInvalidParams, "unknown prompt in params.ref.name");
    if (arg == "session") sessions = agents = true;
    if (arg == "turns") fixed = {"..", "-1..", "-3..", "-5..", "-10..", "0..", "0..5"};
    if (arg == "project") fixed = project_values(ctx);
    if (arg == "label") fixed = label_selector_values();
  } else if (type == "ref/resource") {
    const std::string uri = string_param(ref, "uri");
    if (arg == "id" && uri == std::string(kSessionUriPrefix) + "{id}") sessions = true;
    if (arg == "id" && uri == std::string(kAgentUriPrefix) + "{id}") agents = true;
    if (!sessions && !agents && uri.rfind("csift://", 0) != 0)
      return rpc::make_error(m.id, rpc::kInvalidParams, "unknown resource template in params.ref.uri");
  } else {
    return rpc::make_error(m.id, rpc::kInvalidParams, "params.ref.type must be ref/prompt or ref/resource");
  }
  json values = json::array();
  size_t total = 0;
  if (sessions || agents) {
    const IdCompletion ids = complete_transcript_ids(value, agents, sessions, kMaxCompletions, ctx);
    values = ids.values;
    total = ids.total;
  } else {
    for (const auto& f : fixed) {
      if (f.rfind(value, 0) != 0) continue;
      ++total;
      if (values.size() < kMaxCompletions) values.push_back(f);
    }
  }
  json completion{{"values", values}, {"total", total}, {"hasMore", total > values.size()}};
  return rpc::make_result(m.id, with_result_type(json{{"completion", std::move(completion)}}, stateless));
}

}  // namespace csift
