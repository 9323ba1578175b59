// resources/list, resources/templates/list and resources/read: the protocol side of sessions as resources.
// What a session is, its title and its text come from tools/resources; this file only pages and frames.
#include <functional>

#include "core/cache/disk_cache.h"
#include "core/cache/result_memo.h"
#include "core/cache/scan_memo.h"
#include "core/scrub/scrubber.h"
#include "server/mcp_server.h"
#include "server/resource_watch.h"
#include "tools/resources/session_resources.h"

namespace csift {
namespace {

constexpr int kResourceNotFound = -32002;  // MCP: resources/read of an unknown URI

json not_offered(const rpc::Message& m) {
  return rpc::make_error(m.id, rpc::kMethodNotFound,
                         m.method +
                             " is not offered on this transport: it sends no message the client did not "
                             "ask for (subscribe is false in the capabilities); read the resource again "
                             "to see it grow");
}

// The session list gains a row whenever a session starts and a row's title moves as its session goes on: a
// few seconds of reuse spare a client listing twice for one @-mention menu. It is the user's own sessions, so
// no shared cache may hand it to another caller.
constexpr CacheHint kSessionList{5000, "private"};
// A transcript is never final: Claude Code appends to it while its session runs, and again whenever the
// session is resumed, days later or not at all. A read is stale at once (reading again shows it grow, as
// subscribing would on stdio), and private for the same reason as the list.
constexpr CacheHint kTranscriptRead{0, "private"};

}  // namespace

json McpServer::run_registered(McpCall& call, const std::function<json(ToolContext&)>& body) {
  const rpc::Message& m = call.m;
  std::shared_ptr<InFlight> request =
      call.admitted ? std::move(call.admitted) : admit(m, call.conn, call.emit);
  if (!request) return id_in_use(m.id);
  struct Ender {
    Connection& conn;
    const json& id;
    ~Ender() { conn.end(id); }
  } ender{call.conn, m.id};
  if (request->cancel.is_cancelled()) {  // cancelled while it waited in a queue: it never runs
    call.cancelled = true;
    return json();
  }
  ToolContext ctx;
  ctx.env = options_.env;
  ctx.cancel = &request->cancel;
  // The caches this server installed (install_memos) reach the call's core code through its context.
  ctx.scan_memo = process_scan_memo();
  ctx.result_memo = process_result_memo();
  ctx.disk_cache = process_disk_cache();
  ctx.after_reply = call.after_reply;
  if (request->wants_progress()) {
    ctx.progress = [&request](double done, double total, const std::string& message) {
      request->report(done, total, message);
    };
  }
  json reply = body(ctx);
  request->finish();
  call.cancelled = request->cancel.is_cancelled();
  return reply;
}

json McpServer::list_resources(const rpc::Message& m, bool stateless, ToolContext& ctx) {
  size_t offset = 0;
  if (m.params.contains("cursor")) {
    const json& c = m.params["cursor"];
    const std::string s = c.is_string() ? c.get<std::string>() : "";
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 9) {
      return rpc::make_error(m.id, rpc::kInvalidParams,
                             "invalid cursor: pass a nextCursor from a previous resources/list, or none");
    }
    offset = std::stoul(s);
  }
  const SessionResources all = list_session_resources(ctx);
  if (!all.error.empty()) return rpc::make_error(m.id, rpc::kInternalError, all.error);
  json resources = json::array();
  const size_t page = options_.page_size ? options_.page_size : 100;
  for (size_t i = offset; i < all.items.size() && i < offset + page; ++i) {
    const SessionResource& r = all.items[i];
    // Over HTTP every text from a transcript is scrubbed, as tool output is (SPEC.md §13.4).
    const bool scrub = ctx.env.caller == CallerLink::network;
    resources.push_back(json{{"uri", r.uri},
                             {"name", r.name},
                             {"title", scrub ? default_scrubber().scrub(r.title) : r.title},
                             {"description", scrub ? default_scrubber().scrub(r.description) : r.description},
                             {"mimeType", "text/plain"},
                             {"annotations", {{"audience", {"user", "assistant"}}}}});
  }
  json result{{"resources", std::move(resources)}};
  if (offset + page < all.items.size()) result["nextCursor"] = std::to_string(offset + page);
  return rpc::make_result(
      m.id, with_cache_hint(with_result_type(std::move(result), stateless), stateless, kSessionList));
}

json McpServer::list_resource_templates(const rpc::Message& m, bool stateless) {
  json templates = json::array(
      {json{{"uriTemplate", std::string(kSessionUriPrefix) + "{id}"},
            {"name", "session"},
            {"title", "Claude Code session"},
            {"description", "A session transcript by id or unique id prefix, rendered turn by turn"},
            {"mimeType", "text/plain"}},
       json{{"uriTemplate", std::string(kAgentUriPrefix) + "{id}"},
            {"name", "agent"},
            {"title", "Claude Code subagent transcript"},
            {"description", "A subagent's transcript by agent id, rendered turn by turn"},
            {"mimeType", "text/plain"}}});
  return rpc::make_result(
      m.id, with_cache_hint(with_result_type(json{{"resourceTemplates", std::move(templates)}}, stateless),
                            stateless, kFixedByBinary));
}

json McpServer::read_resource(const rpc::Message& m, bool stateless, ToolContext& ctx) {
  if (!m.params.contains("uri") || !m.params["uri"].is_string()) {
    return rpc::make_error(m.id, rpc::kInvalidParams, "resources/read needs params.uri (a string)");
  }
  const std::string uri = m.params["uri"].get<std::string>();
  const ResourceText r = read_session_resource(uri, options_.default_max_chars, ctx);
  // 2026-07-28 (SEP-2164) asks for -32602 for a resource that does not exist; earlier revisions used -32002.
  if (!r.error.empty())
    return rpc::make_error(m.id, stateless ? rpc::kInvalidParams : kResourceNotFound, r.error,
                           json{{"uri", uri}});
  const std::string text = ctx.env.caller == CallerLink::network ? default_scrubber().scrub(r.text) : r.text;
  json contents = json::array({json{{"uri", uri}, {"mimeType", "text/plain"}, {"text", text}}});
  return rpc::make_result(
      m.id, with_cache_hint(with_result_type(json{{"contents", std::move(contents)}}, stateless), stateless,
                            kTranscriptRead));
}

}  // namespace csift

namespace csift {

json McpServer::unsubscribe(const rpc::Message& m, Connection& conn) {
  if (!conn.watch()) return not_offered(m);
  if (!m.params.contains("uri") || !m.params["uri"].is_string()) {
    return rpc::make_error(m.id, rpc::kInvalidParams, "resources/unsubscribe needs params.uri (a string)");
  }
  conn.watch()->unsubscribe(m.params["uri"].get<std::string>());  // unsubscribing twice is no error
  return rpc::make_result(m.id, json::object());
}

json McpServer::subscribe(const rpc::Message& m, Connection& conn, ToolContext& ctx) {
  if (!conn.watch()) return not_offered(m);
  if (!m.params.contains("uri") || !m.params["uri"].is_string()) {
    return rpc::make_error(m.id, rpc::kInvalidParams, "resources/subscribe needs params.uri (a string)");
  }
  const std::string uri = m.params["uri"].get<std::string>();
  const ResourceFile file = session_resource_file(uri, ctx);
  if (!file.error.empty()) return rpc::make_error(m.id, kResourceNotFound, file.error, json{{"uri", uri}});
  conn.watch()->subscribe(uri, file.path);
  return rpc::make_result(m.id, json::object());
}

}  // namespace csift
