// The Debian libcpp-httplib is built with these; the header must see the same so its classes match the
// library.
#ifndef CPPHTTPLIB_OPENSSL_SUPPORT
#define CPPHTTPLIB_OPENSSL_SUPPORT
#endif
#ifndef CPPHTTPLIB_ZLIB_SUPPORT
#define CPPHTTPLIB_ZLIB_SUPPORT
#endif
#ifndef CPPHTTPLIB_BROTLI_SUPPORT
#define CPPHTTPLIB_BROTLI_SUPPORT
#endif
#include "server/http_transport.h"

#include <httplib.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "core/base/text.h"
#include "server/http_security.h"
#include "server/http_sessions.h"

namespace csift {
namespace {

constexpr const char* kEndpoint = "/mcp";

std::string trimmed_header(const httplib::Request& req, const char* name) {
  return std::string(trim(req.get_header_value(name), kBlanks));
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(rpc::encode(body), "application/json");
}

void send_error(httplib::Response& res, int status, const json& id, int code, const std::string& message) {
  send_json(res, status, rpc::make_error(id, code, message));
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

// The value a 2026-07-28 request mirrors in Mcp-Name ("" when its method has none).
std::string name_in_body(const rpc::Message& m) {
  const char* field = nullptr;
  if (m.method == "tools/call" || m.method == "prompts/get") field = "name";
  if (m.method == "resources/read") field = "uri";
  if (!field || !m.params.contains(field) || !m.params[field].is_string()) return "";
  return m.params[field].get<std::string>();
}

class HttpTransport {
 public:
  HttpTransport(McpServer& server, const HttpOptions& options)
      : server_(server),
        options_(options),
        policy_{options.host, options.token},
        sessions_(options.max_sessions) {}

  void install(httplib::Server& svr) {
    const size_t workers = options_.workers;
    svr.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
    svr.set_payload_max_length(options_.max_body_bytes);
    svr.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return guard(req, res) ? httplib::Server::HandlerResponse::Unhandled
                             : httplib::Server::HandlerResponse::Handled;
    });
    svr.Post(kEndpoint, [this](const httplib::Request& req, httplib::Response& res) { post(req, res); });
    svr.Delete(kEndpoint, [this](const httplib::Request& req, httplib::Response& res) { del(req, res); });
    svr.Get(kEndpoint, [](const httplib::Request&, httplib::Response& res) {
      res.set_header("Allow", "POST, DELETE");
      send_error(res, 405, nullptr, rpc::kInvalidRequest,
                 "GET is not supported: this server sends no unprompted messages");
    });
    svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown exception";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      std::fprintf(stderr, "csift-mcp: internal error: %s\n", what.c_str());
      send_error(res, 500, nullptr, rpc::kInternalError, "internal error");
    });
  }

  void shutdown() { sessions_.end_all(); }

 private:
  // DNS-rebinding protection and the token, before any routing: 403 / 401.
  bool guard(const httplib::Request& req, httplib::Response& res) {
    const AccessDecision d =
        check_access(policy_, req.get_header_value("Host"), req.get_header_value("Origin"),
                     req.get_header_value("Authorization"));
    if (d.access == Access::allowed) return true;
    if (d.access == Access::unauthorized) {
      res.set_header("WWW-Authenticate", "Bearer");
      send_error(res, 401, nullptr, rpc::kInvalidRequest, "Unauthorized: " + d.reason);
    } else {
      send_error(res, 403, nullptr, rpc::kInvalidRequest, "Forbidden: " + d.reason);
    }
    return false;
  }

  void post(const httplib::Request& req, httplib::Response& res) {
    auto parsed = rpc::parse(req.body);
    if (!parsed)
      return send_error(res, 400, nullptr, rpc::kParseError, "parse error: the body is not valid JSON");
    rpc::Message m = rpc::classify(*parsed);
    if (m.kind == rpc::Kind::batch || m.kind == rpc::Kind::invalid) {
      return send_error(res, 400, m.id, rpc::kInvalidRequest, "invalid request: " + m.reason);
    }
    const std::string session_id = trimmed_header(req, "Mcp-Session-Id");
    const std::string version = trimmed_header(req, "MCP-Protocol-Version");
    const bool stateless = session_id.empty() && ((!version.empty() && !is_session_version(version)) ||
                                                  revision_of(m) == Revision::stateless);
    if (stateless) return post_stateless(req, res, m);
    post_session(res, m, session_id, version);
  }

  void post_session(httplib::Response& res, const rpc::Message& m, const std::string& session_id,
                    const std::string& version) {
    if (!version.empty() && !is_session_version(version)) {
      return send_error(res, 400, m.id, rpc::kInvalidRequest,
                        "unsupported MCP-Protocol-Version '" + version + "'");
    }
    if (m.kind == rpc::Kind::request && m.method == "initialize") return initialize(res, m);
    if (session_id.empty()) {
      return send_error(res, 400, m.id, rpc::kInvalidRequest,
                        "Mcp-Session-Id header required: send initialize first and echo the id it returns");
    }
    auto session = sessions_.find(session_id);
    if (!session) {
      return send_error(res, 404, m.id, rpc::kSessionNotFound,
                        "session not found (ended or unknown): initialize a new one");
    }
    if (m.kind == rpc::Kind::notification) server_.handle_notification(m, session->conn);
    if (m.kind != rpc::Kind::request) return accepted(res);
    std::shared_ptr<Connection> conn(session, &session->conn);  // keeps the session alive while answering
    respond(res, m, Revision::session, std::move(conn));
  }

  void initialize(httplib::Response& res, const rpc::Message& m) {
    auto session = sessions_.create();
    auto reply = server_.handle_request(m, Revision::session, session->conn, {});
    if (!reply || rpc::is_error(*reply)) {
      sessions_.end(session->id);
      if (reply) send_json(res, 200, *reply);
      return;
    }
    res.set_header("Mcp-Session-Id", session->id);
    send_json(res, 200, *reply);
  }

  void post_stateless(const httplib::Request& req, httplib::Response& res, const rpc::Message& m) {
    if (m.kind == rpc::Kind::response) return accepted(res);
    const std::string method_header = trimmed_header(req, "Mcp-Method");
    if (method_header != m.method) {
      return send_error(
          res, 400, m.id, rpc::kHeaderMismatch,
          "Mcp-Method header '" + method_header + "' must equal the body's method '" + m.method + "'");
    }
    const std::string name = name_in_body(m);
    if (!name.empty() && trimmed_header(req, "Mcp-Name") != name) {
      return send_error(res, 400, m.id, rpc::kHeaderMismatch,
                        "Mcp-Name header must equal the body's name '" + name + "'");
    }
    if (m.kind == rpc::Kind::notification) return accepted(res);
    const std::string version = trimmed_header(req, "MCP-Protocol-Version");
    const std::string meta_version = meta_protocol_version(m);
    if (!meta_version.empty() && version != meta_version) {
      return send_error(res, 400, m.id, rpc::kHeaderMismatch,
                        "MCP-Protocol-Version header '" + version +
                            "' must equal params._meta protocol version '" + meta_version + "'");
    }
    respond(res, m, Revision::stateless, std::make_shared<Connection>());
  }

  // A request's reply: JSON, or an SSE stream when a tools/call asked for progress. A cancelled call gets an
  // SSE stream that ends without a reply.
  void respond(httplib::Response& res, const rpc::Message& m, Revision rev,
               std::shared_ptr<Connection> conn) {
    const bool streams = McpServer::is_slow(m) && m.params.contains("_meta") &&
                         m.params["_meta"].is_object() && m.params["_meta"].contains("progressToken");
    if (!streams) {
      auto reply = server_.handle_request(m, rev, *conn, {});
      if (!reply) return res.set_content("", "text/event-stream");
      return send_json(res, rev == Revision::stateless ? stateless_status(*reply) : 200, *reply);
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream", [this, m, rev, conn](size_t, httplib::DataSink& sink) {
          auto mu = std::make_shared<std::mutex>();
          auto emit = [&sink, mu](const json& message) {
            const std::string event = "event: message\ndata: " + rpc::encode(message) + "\n\n";
            std::lock_guard lock(*mu);
            return sink.write(event.data(), event.size());
          };
          if (auto reply = server_.handle_request(m, rev, *conn, emit)) emit(*reply);
          sink.done();
          return true;
        });
  }

  static void accepted(httplib::Response& res) {
    res.status = 202;
    res.body.clear();
  }

  void del(const httplib::Request& req, httplib::Response& res) {
    const std::string session_id = trimmed_header(req, "Mcp-Session-Id");
    if (session_id.empty())
      return send_error(res, 400, nullptr, rpc::kInvalidRequest, "Mcp-Session-Id header required");
    if (!sessions_.end(session_id)) {
      return send_error(res, 404, nullptr, rpc::kSessionNotFound, "session not found (ended or unknown)");
    }
    res.status = 200;
  }

  McpServer& server_;
  HttpOptions options_;
  AccessPolicy policy_;
  SessionTable sessions_;
};

}  // namespace

int serve_http(McpServer& server, const HttpOptions& options, const std::atomic<bool>& stop_requested,
               const std::function<void(int)>& on_listening) {
  httplib::Server svr;
  HttpTransport transport(server, options);
  transport.install(svr);
  int port = options.port;
  if (port == 0) {
    port = svr.bind_to_any_port(options.host);
    if (port <= 0) return 1;
  } else if (!svr.bind_to_port(options.host, port)) {
    return 1;
  }
  if (on_listening) on_listening(port);
  std::atomic<bool> done{false};
  // svr.stop() stops accepting; requests under way finish before listen_after_bind returns. It is a no-op
  // until the server is running, and a signal can arrive between binding and listening (the test suite
  // sends one right after the "serving" line): so it is repeated until listening has ended.
  std::thread stopper([&] {
    while (!done.load()) {
      if (stop_requested.load()) svr.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  svr.listen_after_bind();
  done.store(true);
  stopper.join();
  transport.shutdown();
  return 0;
}

}  // namespace csift
