#include "server/mcp_server.h"

#include <algorithm>

#include "server/tool_listing.h"
#include "server/version.h"

namespace csift {
namespace {

constexpr const char* kInstructions =
    "Read-only tools over the Claude Code transcript store (~/.claude/projects): find sessions, search "
    "them, show turns and count. Results are budgeted; when summary.rows_omitted is set, repeat the call "
    "with the arguments in summary.continue_with to read on.";

// The 2026-07-28 _meta keys.
constexpr const char* kMetaVersion = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kMetaCapabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
constexpr const char* kMetaClientInfo = "io.modelcontextprotocol/clientInfo";

// Clients known to hand a result's structuredContent to the model, serialised as JSON, in place of its text
// (Claude Code 2.1.332, measured: tests/mcp/claude_code/README.md). Its text-first path sits behind a switch
// its server side turns on, so either may reach a user; without structuredContent both read the text.
constexpr std::string_view kModelReadsStructured[] = {"claude-code"};

std::string client_name_in(const json& info) {
  if (!info.is_object() || !info.contains("name") || !info["name"].is_string()) return "";
  return info["name"].get<std::string>();
}

json server_info() {
  return json{{"name", kServerName}, {"title", "csift"}, {"version", server_version()}};
}

const json* meta_of(const rpc::Message& m) {
  if (!m.params.contains("_meta") || !m.params["_meta"].is_object()) return nullptr;
  return &m.params["_meta"];
}

// The per-request _meta every 2026-07-28 request carries: -32602 when it is missing or incomplete, -32022
// when it names a version this server does not serve.
std::optional<json> check_stateless_meta(const rpc::Message& m) {
  const json* meta = meta_of(m);
  if (!meta) {
    return rpc::make_error(m.id, rpc::kInvalidParams,
                           std::string("params._meta is required in protocol ") +
                               std::string(kStatelessVersion) + ": it carries " + kMetaVersion + " and " +
                               kMetaCapabilities);
  }
  if (!meta->contains(kMetaVersion) || !(*meta)[kMetaVersion].is_string()) {
    return rpc::make_error(m.id, rpc::kInvalidParams,
                           std::string("params._meta.") + kMetaVersion + " (a string) is required");
  }
  if (!meta->contains(kMetaCapabilities) || !(*meta)[kMetaCapabilities].is_object()) {
    return rpc::make_error(m.id, rpc::kInvalidParams,
                           std::string("params._meta.") + kMetaCapabilities + " (an object) is required");
  }
  const std::string requested = (*meta)[kMetaVersion].get<std::string>();
  if (requested != kStatelessVersion) {
    return rpc::make_error(m.id, rpc::kUnsupportedProtocolVersion,
                           "unsupported protocol version '" + requested + "'",
                           json{{"supported", supported_versions()}, {"requested", requested}});
  }
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& session_versions() {
  static const std::vector<std::string> v{"2025-03-26", "2025-06-18", std::string(kLatestSessionVersion)};
  return v;
}

const std::vector<std::string>& supported_versions() {
  static const std::vector<std::string> v = [] {
    auto all = session_versions();
    all.emplace_back(kStatelessVersion);
    return all;
  }();
  return v;
}

bool is_session_version(std::string_view v) {
  const auto& s = session_versions();
  return std::find(s.begin(), s.end(), v) != s.end();
}

Revision revision_of(const rpc::Message& m) {
  // A method only 2026-07-28 has (server/discover) speaks it whatever its _meta says.
  const McpMethod* method = find_method(m.method);
  if (method && method->stateless && !method->session) return Revision::stateless;
  const json* meta = meta_of(m);
  return meta && meta->contains(kMetaVersion) ? Revision::stateless : Revision::session;
}

std::string meta_protocol_version(const rpc::Message& m) {
  const json* meta = meta_of(m);
  if (!meta || !meta->contains(kMetaVersion) || !(*meta)[kMetaVersion].is_string()) return "";
  return (*meta)[kMetaVersion].get<std::string>();
}

std::optional<StructuredMode> structured_mode_of(std::string_view word) {
  if (word == "auto") return StructuredMode::automatic;
  if (word == "always") return StructuredMode::always;
  if (word == "never") return StructuredMode::never;
  return std::nullopt;
}

int64_t answer_ceiling(const Environment& env) {
  const auto v = env.get("MAX_MCP_OUTPUT_TOKENS");
  const bool digits = v && v->size() <= 9 && v->find_first_not_of("0123456789") == std::string::npos;
  const int64_t tokens = digits ? std::stoll(*v) : 0;
  return answer_ceiling_for(tokens > 0 ? tokens : kDefaultMcpOutputTokens);
}

json with_result_type(json result, bool stateless) {
  if (stateless) result["resultType"] = "complete";
  return result;
}

json with_cache_hint(json result, bool stateless, CacheHint hint) {
  if (!stateless) return result;
  result["ttlMs"] = hint.ttl_ms;
  result["cacheScope"] = std::string(hint.scope);
  return result;
}

McpServer::McpServer(ServerOptions options) : options_(std::move(options)) {}

std::optional<json> McpServer::handle_request(const rpc::Message& m, Revision rev, Connection& conn,
                                              const Emit& emit, std::shared_ptr<InFlight> admitted,
                                              AfterReply* after_reply) {
  McpCall call{m, conn, emit, rev == Revision::stateless, std::move(admitted), false, after_reply};
  json reply = dispatch(call);
  if (call.cancelled) return std::nullopt;
  return reply;
}

json McpServer::dispatch(McpCall& call) {
  const rpc::Message& m = call.m;
  const McpMethod* method = find_method(m.method);
  // A slow request was registered on its connection before it was queued; one answered here without running
  // is ended here, or its id would stay taken on a long-lived connection (stdio).
  const bool admitted = method && method->lane != Lane::reader;
  if (call.stateless) {
    if (auto bad = check_stateless_meta(m)) {
      if (admitted) call.conn.end(m.id);
      return *bad;
    }
  }
  // initialize, ping, logging/setLevel and the subscription methods do not exist in 2026-07-28;
  // server/discover exists only there.
  if (!method || !(call.stateless ? method->stateless : method->session)) {
    if (admitted) call.conn.end(m.id);
    return rpc::make_error(
        m.id, rpc::kMethodNotFound,
        method_not_found(m.method, call.stateless ? Revision::stateless : Revision::session,
                         call.conn.watch() != nullptr));
  }
  json reply = method->handler(*this, call);
  // Every 2026-07-28 result names the server in _meta: there is no initialize to have said it.
  if (call.stateless && reply.contains("result") && reply["result"].is_object())
    reply["result"]["_meta"][kMetaServerInfo] = server_info();
  return reply;
}

void McpServer::handle_notification(const rpc::Message& m, Connection& conn) {
  // notifications/initialized needs no action; unknown notifications are ignored, as JSON-RPC asks.
  if (m.method != "notifications/cancelled") return;
  if (m.params.contains("requestId")) conn.cancel(m.params["requestId"]);
}

json McpServer::initialize(const rpc::Message& m, Connection& conn) {
  const json& requested = m.params.contains("protocolVersion") ? m.params["protocolVersion"] : json();
  if (!requested.is_string()) {
    return rpc::make_error(m.id, rpc::kInvalidParams, "initialize needs params.protocolVersion (a string)");
  }
  // Echo a version served with a handshake; otherwise offer the latest one (the client may then disconnect).
  const std::string asked = requested.get<std::string>();
  const std::string version = is_session_version(asked) ? asked : std::string(kLatestSessionVersion);
  conn.set_protocol_version(version);
  conn.set_client_name(client_name_in(m.params.value("clientInfo", json())));
  return rpc::make_result(m.id, json{{"protocolVersion", version},
                                     {"capabilities", server_capabilities(conn.watch() != nullptr)},
                                     {"serverInfo", server_info()},
                                     {"instructions", kInstructions}});
}

json McpServer::discover(const rpc::Message& m) {
  json result{{"resultType", "complete"},
              {"supportedVersions", supported_versions()},
              {"capabilities", server_capabilities(false)},
              {"instructions", kInstructions},
              {"_meta", {{kMetaServerInfo, server_info()}}}};
  return rpc::make_result(m.id, with_cache_hint(std::move(result), true, kFixedByBinary));
}

bool McpServer::sends_structured(const rpc::Message& m, Connection& conn) const {
  if (options_.structured != StructuredMode::automatic) return options_.structured == StructuredMode::always;
  const json* meta = meta_of(m);
  const std::string name =
      meta && meta->contains(kMetaClientInfo) ? client_name_in((*meta)[kMetaClientInfo]) : conn.client_name();
  return std::find(std::begin(kModelReadsStructured), std::end(kModelReadsStructured), name) ==
         std::end(kModelReadsStructured);
}

json McpServer::list_tools(const rpc::Message& m, Connection& conn, bool stateless) {
  std::string cursor;
  if (m.params.contains("cursor")) {
    if (!m.params["cursor"].is_string()) {
      return rpc::make_error(m.id, rpc::kInvalidParams, "params.cursor must be a string from nextCursor");
    }
    cursor = m.params["cursor"].get<std::string>();
  }
  auto page = tool_page(cursor, options_.page_size, options_.env.caller == CallerLink::network);
  if (!page) {
    return rpc::make_error(m.id, rpc::kInvalidParams,
                           "invalid cursor '" + cursor + "': pass a nextCursor from a previous tools/list, " +
                               "or no cursor for the first page");
  }
  // A tool that declares an outputSchema must send structuredContent that conforms; one that sends none
  // declares none. The listing then depends on who asks, so a 2026-07-28 client may not share it.
  const bool structured = sends_structured(m, conn);
  if (!structured) {
    for (json& tool : page->tools)
      tool.erase("outputSchema");
  }
  json result = with_result_type(json::object(), stateless);
  result["tools"] = std::move(page->tools);
  if (!page->next_cursor.empty()) result["nextCursor"] = page->next_cursor;
  // The listing differs between transports (HTTP has no local-only tools), and between callers where the
  // output schemas are left out for a client that hands structuredContent to its model: private then.
  const CacheHint hint = structured ? kFixedByBinary : CacheHint{kFixedByBinary.ttl_ms, "private"};
  return rpc::make_result(m.id, with_cache_hint(std::move(result), stateless, hint));
}

}  // namespace csift
