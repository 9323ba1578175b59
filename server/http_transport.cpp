#include "server/http_transport.h"

#include <cstdio>
#include <memory>
#include <mutex>

#include "core/base/text.h"
#include "server/dispatcher.h"
#include "server/http_security.h"
#include "server/http_server.h"
#include "server/http_sessions.h"

namespace csift {
namespace {

constexpr const char* kEndpoint = "/mcp";

std::string trimmed_header(const http::Request& req, const char* name) {
  return req.header(name);  // names are looked up lower-case; values come trimmed
}

http::Response json_response(int status, const json& body) {
  return http::Response{status, "application/json", rpc::encode(body), {}};
}

http::Response error_response(int status, const json& id, int code, const std::string& message) {
  return json_response(status, rpc::make_error(id, code, message));
}

// 2026-07-28 carries its errors in HTTP statuses too; the session revisions answer JSON-RPC errors with 200.
int stateless_status(const json& reply) {
  switch (rpc::error_code(reply)) {
    case 0:
      return 200;
    case rpc::kMethodNotFound:
      return 404;
    case rpc::kInternalError:
      return 500;
    default:
      return 400;
  }
}

// An SSE reply: opened by its first message, so a call that fails before any progress still streams.
class SseStream {
 public:
  explicit SseStream(http::ExchangePtr ex) : ex_(std::move(ex)) {}
  bool open() {
    std::lock_guard lock(mu_);
    return open_locked();
  }
  bool send(const json& message) {
    const std::string event = "event: message\ndata: " + rpc::encode(message) + "\n\n";
    std::lock_guard lock(mu_);
    return open_locked() && ex_->write(event);
  }

 private:
  bool open_locked() {
    if (!opened_) {
      opened_ = true;
      ok_ = ex_->begin_stream(200, "text/event-stream", {{"Cache-Control", "no-cache"}});
    }
    return ok_;
  }
  http::ExchangePtr ex_;
  std::mutex mu_;
  bool opened_ = false;
  bool ok_ = false;
};

class HttpTransport {
 public:
  HttpTransport(McpServer& server, const HttpOptions& options)
      : server_(server),
        options_(options),
        policy_{options.host, options.token},
        sessions_(options.max_sessions),
        dispatcher_(server, options.call_workers, options.max_queued_calls, options.blocking_workers) {}

  // DNS-rebinding protection and the token, on the headers alone, before any body byte is read: 403 / 401.
  std::optional<http::Response> guard(const http::Request& req) {
    const AccessDecision d =
        check_access(policy_, req.header("host"), req.header("origin"), req.header("authorization"));
    if (d.access == Access::allowed) return std::nullopt;
    if (d.access == Access::unauthorized) {
      auto res = error_response(401, nullptr, rpc::kInvalidRequest, "Unauthorized: " + d.reason);
      res.headers.emplace_back("WWW-Authenticate", "Bearer");
      return res;
    }
    return error_response(403, nullptr, rpc::kInvalidRequest, "Forbidden: " + d.reason);
  }

  // On the I/O thread: everything but a tool call is answered here and now; tool calls go to the pool.
  void handle(http::Request&& req, const http::ExchangePtr& ex) {
    try {
      if (req.path != kEndpoint) {
        return ex->reply(
            error_response(404, nullptr, rpc::kInvalidRequest, "not found: the endpoint is /mcp"));
      }
      if (req.method == "POST") return post(req, ex);
      if (req.method == "DELETE") return ex->reply(del(req));
      auto res = error_response(405, nullptr, rpc::kInvalidRequest,
                                req.method == "GET"
                                    ? "GET is not supported: this server sends no unprompted messages"
                                    : "method not allowed: POST or DELETE");
      res.headers.emplace_back("Allow", "POST, DELETE");
      ex->reply(std::move(res));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "csift-mcp: internal error: %s\n", e.what());
      ex->reply(error_response(500, nullptr, rpc::kInternalError, "internal error"));
    }
  }

  void shutdown() {
    dispatcher_.wait_idle();
    sessions_.end_all();
  }

 private:
  void post(const http::Request& req, const http::ExchangePtr& ex) {
    bool too_deep = false;
    auto parsed = rpc::parse(req.body, &too_deep);
    if (too_deep) {
      return ex->reply(error_response(
          400, nullptr, rpc::kInvalidRequest,
          "invalid request: JSON nested more than " + std::to_string(rpc::kMaxNesting) + " levels deep"));
    }
    if (!parsed)
      return ex->reply(
          error_response(400, nullptr, rpc::kParseError, "parse error: the body is not valid JSON"));
    rpc::Message m = rpc::classify(*parsed);
    if (m.kind == rpc::Kind::batch || m.kind == rpc::Kind::invalid) {
      return ex->reply(error_response(400, m.id, rpc::kInvalidRequest, "invalid request: " + m.reason));
    }
    const std::string session_id = trimmed_header(req, "mcp-session-id");
    const std::string version = trimmed_header(req, "mcp-protocol-version");
    const bool stateless = session_id.empty() && ((!version.empty() && !is_session_version(version)) ||
                                                  revision_of(m) == Revision::stateless);
    if (stateless) return post_stateless(req, ex, m);
    post_session(ex, m, session_id, version);
  }

  void post_session(const http::ExchangePtr& ex, const rpc::Message& m, const std::string& session_id,
                    const std::string& version) {
    if (!version.empty() && !is_session_version(version)) {
      return ex->reply(error_response(400, m.id, rpc::kInvalidRequest,
                                      "unsupported MCP-Protocol-Version '" + version + "'"));
    }
    if (m.kind == rpc::Kind::request && m.method == "initialize") return ex->reply(initialize(m));
    if (session_id.empty()) {
      return ex->reply(
          error_response(400, m.id, rpc::kInvalidRequest,
                         "Mcp-Session-Id header required: send initialize first and echo the id it returns"));
    }
    auto session = sessions_.find(session_id);
    if (!session) {
      return ex->reply(error_response(404, m.id, rpc::kSessionNotFound,
                                      "session not found (ended or unknown): initialize a new one"));
    }
    if (m.kind == rpc::Kind::notification) server_.handle_notification(m, session->conn);
    if (m.kind != rpc::Kind::request) return ex->reply(accepted());
    std::shared_ptr<Connection> conn(session, &session->conn);  // keeps the session alive while answering
    respond(ex, m, Revision::session, std::move(conn));
  }

  http::Response initialize(const rpc::Message& m) {
    auto session = sessions_.create();
    auto reply = server_.handle_request(m, Revision::session, session->conn, {});
    if (!reply || rpc::is_error(*reply)) {
      sessions_.end(session->id);
      return reply ? json_response(200, *reply) : accepted();
    }
    auto res = json_response(200, *reply);
    res.headers.emplace_back("Mcp-Session-Id", session->id);
    return res;
  }

  void post_stateless(const http::Request& req, const http::ExchangePtr& ex, const rpc::Message& m) {
    if (m.kind == rpc::Kind::response) return ex->reply(accepted());
    const std::string method_header = trimmed_header(req, "mcp-method");
    if (method_header != m.method) {
      return ex->reply(error_response(
          400, m.id, rpc::kHeaderMismatch,
          "Mcp-Method header '" + method_header + "' must equal the body's method '" + m.method + "'"));
    }
    const std::string name = mirrored_name(m);
    if (!name.empty() && trimmed_header(req, "mcp-name") != name) {
      return ex->reply(error_response(400, m.id, rpc::kHeaderMismatch,
                                      "Mcp-Name header must equal the body's name '" + name + "'"));
    }
    if (m.kind == rpc::Kind::notification) return ex->reply(accepted());
    const std::string version = trimmed_header(req, "mcp-protocol-version");
    const std::string meta_version = meta_protocol_version(m);
    if (!meta_version.empty() && version != meta_version) {
      return ex->reply(error_response(400, m.id, rpc::kHeaderMismatch,
                                      "MCP-Protocol-Version header '" + version +
                                          "' must equal params._meta protocol version '" + meta_version +
                                          "'"));
    }
    respond(ex, m, Revision::stateless, std::make_shared<Connection>());
  }

  http::Response reply_response(const json& reply, Revision rev) {
    return json_response(rev == Revision::stateless ? stateless_status(reply) : 200, reply);
  }

  // A request's reply, run by the dispatcher: quick methods are answered at once on the I/O thread, slow ones
  // on a worker, as JSON or as an SSE stream when they asked for progress. A queued request is cancelled if
  // its client closes the connection before the reply. A cancelled request gets no JSON-RPC reply (an empty
  // body, or an SSE stream that ends).
  void respond(const http::ExchangePtr& ex, const rpc::Message& m, Revision rev,
               std::shared_ptr<Connection> conn) {
    const bool streams = m.params.contains("_meta") && m.params["_meta"].is_object() &&
                         m.params["_meta"].contains("progressToken");
    auto stream = std::make_shared<SseStream>(ex);
    Emit emit;
    if (streams) emit = [stream](const json& message) { return stream->send(message); };
    auto deliver = [this, ex, rev, stream, streams](DispatchReply r) {
      if (r.how == DispatchReply::How::busy) {
        auto res = reply_response(*r.message, rev);
        res.status = 503;
        res.headers.emplace_back("Retry-After", "1");
        return ex->reply(std::move(res));
      }
      if (r.how == DispatchReply::How::queued && streams) {
        if (r.message) stream->send(*r.message);
        stream->open();  // a cancelled call sent nothing: its stream opens and ends empty
        return ex->end();
      }
      if (!r.message) return ex->reply(http::Response{200, "text/event-stream", "", {}});
      ex->reply(reply_response(*r.message, rev));
    };
    dispatcher_.dispatch(m, rev, std::move(conn), std::move(emit), std::move(deliver),
                         [&ex](const std::shared_ptr<InFlight>& admitted) {
                           ex->on_abort([admitted] { admitted->cancel.cancelled.store(true); });
                         });
  }

  static http::Response accepted() { return http::Response{202, "", "", {}}; }

  http::Response del(const http::Request& req) {
    const std::string session_id = trimmed_header(req, "mcp-session-id");
    if (session_id.empty())
      return error_response(400, nullptr, rpc::kInvalidRequest, "Mcp-Session-Id header required");
    if (!sessions_.end(session_id)) {
      return error_response(404, nullptr, rpc::kSessionNotFound, "session not found (ended or unknown)");
    }
    return http::Response{200, "", "", {}};
  }

  McpServer& server_;
  HttpOptions options_;
  AccessPolicy policy_;
  SessionTable sessions_;
  Dispatcher dispatcher_;  // last: its workers are joined first, while the members their jobs use still exist
};

}  // namespace

int serve_http(McpServer& server, const HttpOptions& options, const std::atomic<bool>& stop_requested,
               const std::function<void(int)>& on_listening) {
  HttpTransport transport(server, options);
  http::Server svr(
      options.limits, [&](const http::Request& req) { return transport.guard(req); },
      [&](http::Request&& req, http::ExchangePtr ex) { transport.handle(std::move(req), ex); });
  const int port = svr.bind(options.host, options.port);
  if (port <= 0) return 1;
  if (on_listening) on_listening(port);
  // On stop: no new connection is accepted, and the calls under way finish and are answered.
  svr.run(stop_requested);
  transport.shutdown();
  return 0;
}

}  // namespace csift
