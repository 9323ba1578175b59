#include "server/mcp_methods.h"

#include <algorithm>

#include "server/mcp_server.h"

namespace csift {

const std::vector<McpMethod>& McpServer::method_table() {
  using S = McpServer;
  using enum Lane;
  constexpr bool kSession = true, kNotSession = false, kStateless = true, kNotStateless = false;
  constexpr bool kNotifying = true, kAnyTransport = false;
  // clang-format off
  static const std::vector<McpMethod> table{
      {"initialize", kSession, kNotStateless, kAnyTransport, reader, "", "", nullptr,
       [](S& s, McpCall& c) { return s.initialize(c.m, c.conn); }},
      {"ping", kSession, kNotStateless, kAnyTransport, reader, "", "", nullptr,
       [](S&, McpCall& c) { return rpc::make_result(c.m.id, json::object()); }},
      {"server/discover", kNotSession, kStateless, kAnyTransport, reader, "", "", nullptr,
       [](S& s, McpCall& c) { return s.discover(c.m); }},
      {"tools/list", kSession, kStateless, kAnyTransport, reader, "tools", "", nullptr,
       [](S& s, McpCall& c) { return s.list_tools(c.m, c.conn, c.stateless); }},
      {"tools/call", kSession, kStateless, kAnyTransport, pool, "tools", "name", &S::call_blocks,
       [](S& s, McpCall& c) { return s.call_tool(c); }},
      {"resources/list", kSession, kStateless, kAnyTransport, pool, "resources", "", nullptr,
       [](S& s, McpCall& c) {
         return s.run_registered(c, [&](ToolContext& t) { return s.list_resources(c.m, c.stateless, t); });
       }},
      {"resources/templates/list", kSession, kStateless, kAnyTransport, reader, "resources", "", nullptr,
       [](S& s, McpCall& c) { return s.list_resource_templates(c.m, c.stateless); }},
      {"resources/read", kSession, kStateless, kAnyTransport, pool, "resources", "uri", nullptr,
       [](S& s, McpCall& c) {
         return s.run_registered(c, [&](ToolContext& t) { return s.read_resource(c.m, c.stateless, t); });
       }},
      {"resources/subscribe", kSession, kNotStateless, kNotifying, pool, "resources", "", nullptr,
       [](S& s, McpCall& c) {
         return s.run_registered(c, [&](ToolContext& t) { return s.subscribe(c.m, c.conn, t); });
       }},
      {"resources/unsubscribe", kSession, kNotStateless, kNotifying, reader, "resources", "", nullptr,
       [](S& s, McpCall& c) { return s.unsubscribe(c.m, c.conn); }},
      {"prompts/list", kSession, kStateless, kAnyTransport, reader, "prompts", "", nullptr,
       [](S& s, McpCall& c) { return s.list_prompts(c.m, c.stateless); }},
      {"prompts/get", kSession, kStateless, kAnyTransport, reader, "prompts", "name", nullptr,
       [](S& s, McpCall& c) { return s.get_prompt(c.m, c.stateless); }},
      {"completion/complete", kSession, kStateless, kAnyTransport, pool, "completions", "", nullptr,
       [](S& s, McpCall& c) {
         return s.run_registered(c, [&](ToolContext& t) { return s.complete(c.m, c.stateless, t); });
       }},
  };
  // clang-format on
  return table;
}

const std::vector<McpMethod>& mcp_methods() {
  return McpServer::method_table();
}

const McpMethod* find_method(std::string_view name) {
  for (const McpMethod& method : mcp_methods())
    if (method.name == name) return &method;
  return nullptr;
}

Lane lane_of(const rpc::Message& m) {
  const McpMethod* method = find_method(m.method);
  if (!method) return Lane::reader;
  if (method->lane == Lane::pool && method->blocks && method->blocks(m)) return Lane::blocking;
  return method->lane;
}

std::string mirrored_name(const rpc::Message& m) {
  const McpMethod* method = find_method(m.method);
  if (!method || method->name_param.empty()) return "";
  const std::string field(method->name_param);
  if (!m.params.contains(field) || !m.params[field].is_string()) return "";
  return m.params[field].get<std::string>();
}

std::string method_not_found(std::string_view method, Revision rev, bool notify) {
  const auto& all = mcp_methods();
  const bool stateless = rev == Revision::stateless;
  // Only what this transport answers: over HTTP the subscription methods are not offered.
  auto in = [&](const McpMethod& x) {
    return (stateless ? x.stateless : x.session) && (notify || !x.notifying);
  };
  std::string names;
  for (const McpMethod& x : all)
    if (in(x)) names += (names.empty() ? "" : ", ") + std::string(x.name);
  if (stateless) {
    return "method '" + std::string(method) + "' not found in protocol " + std::string(kStatelessVersion) +
           "; this server has " + names;
  }
  std::string stateless_only;
  for (const McpMethod& x : all)
    if (x.stateless && !x.session)
      stateless_only += (stateless_only.empty() ? "" : ", ") + std::string(x.name);
  return "method '" + std::string(method) + "' not found; this server has " + names + " (and " +
         stateless_only + " for protocol " + std::string(kStatelessVersion) + ")";
}

json server_capabilities(bool notify) {
  const auto& all = mcp_methods();
  json caps = json::object();
  for (const McpMethod& method : all) {
    if (method.capability.empty() || caps.contains(std::string(method.capability))) continue;
    json cap = json::object();
    // `subscribe` where a method under the capability needs a transport that notifies (resources).
    const bool subscribable = std::any_of(all.begin(), all.end(), [&](const McpMethod& x) {
      return x.capability == method.capability && x.notifying;
    });
    if (subscribable) cap["subscribe"] = notify;
    // The lists never change while the binary runs; completions has no list.
    if (method.capability != "completions") cap["listChanged"] = false;
    caps[std::string(method.capability)] = std::move(cap);
  }
  return caps;
}

}  // namespace csift
