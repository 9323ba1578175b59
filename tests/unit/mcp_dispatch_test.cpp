// The MCP method table (server/mcp_methods.h) and the dispatcher both transports run requests through
// (server/dispatcher.h): the messages and capabilities generated from the table, the lane each request runs
// on, and the dispatcher's answers (at once, queued, id in use, busy), without a process or a socket.
#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <memory>

#include "server/dispatcher.h"
#include "server/mcp_methods.h"
#include "server/mcp_server.h"

namespace mcp_dispatch_unit {

using csift::json;
namespace rpc = csift::rpc;
using csift::DispatchReply;
using csift::Lane;
using csift::Revision;

rpc::Message request(const json& id, const std::string& method, json params = json::object()) {
  return rpc::classify(
      json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

json stateless_meta() {
  return json{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
              {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

TEST_CASE("method table: the -32601 messages list the methods of each revision on each transport") {
  // stdio can notify, so it has the subscription methods; HTTP has not, and its message does not name them.
  CHECK(
      csift::method_not_found("no/such", Revision::session, true) ==
      "method 'no/such' not found; this server has initialize, ping, tools/list, tools/call, resources/list, "
      "resources/templates/list, resources/read, resources/subscribe, resources/unsubscribe, "
      "prompts/list, prompts/get, completion/complete (and server/discover for protocol 2026-07-28)");
  CHECK(
      csift::method_not_found("no/such", Revision::session, false) ==
      "method 'no/such' not found; this server has initialize, ping, tools/list, tools/call, resources/list, "
      "resources/templates/list, resources/read, prompts/list, prompts/get, completion/complete (and "
      "server/discover for protocol 2026-07-28)");
  for (bool notify : {true, false})
    CHECK(csift::method_not_found("ping", Revision::stateless, notify) ==
          "method 'ping' not found in protocol 2026-07-28; this server has server/discover, tools/list, "
          "tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, "
          "completion/complete");
}

TEST_CASE("method table: capabilities name what the table serves; subscribe only where it can notify") {
  const json caps = csift::server_capabilities(false);
  CHECK(caps == json::parse(R"({"tools":{"listChanged":false},
                                "resources":{"subscribe":false,"listChanged":false},
                                "prompts":{"listChanged":false},"completions":{}})"));
  CHECK(csift::server_capabilities(true)["resources"]["subscribe"] == true);
}

TEST_CASE("method table: names are unique, and every method is in some revision") {
  const auto& all = csift::mcp_methods();
  for (size_t i = 0; i < all.size(); ++i) {
    CAPTURE(all[i].name);
    CHECK((all[i].session || all[i].stateless));
    CHECK(static_cast<bool>(all[i].handler));
    CHECK(csift::find_method(all[i].name) == &all[i]);
  }
  CHECK(csift::find_method("no/such") == nullptr);
}

TEST_CASE("method table: the lane a request runs on") {
  CHECK(csift::lane_of(request(1, "ping")) == Lane::reader);
  CHECK(csift::lane_of(request(1, "tools/list")) == Lane::reader);
  CHECK(csift::lane_of(request(1, "no/such")) == Lane::reader);
  CHECK(csift::lane_of(request(1, "resources/unsubscribe")) == Lane::reader);
  for (const char* slow : {"resources/list", "resources/read", "resources/subscribe", "completion/complete"})
    CHECK(csift::lane_of(request(1, slow)) == Lane::pool);
  CHECK(csift::lane_of(request(1, "tools/call", {{"name", "list"}})) == Lane::pool);
  CHECK(csift::lane_of(request(1, "tools/call", {{"name", "wait"}})) == Lane::blocking);
  CHECK(csift::lane_of(request(1, "tools/call", {{"name", 3}})) == Lane::pool);
}

TEST_CASE("method table: the value a 2026-07-28 request mirrors in Mcp-Name") {
  CHECK(csift::mirrored_name(request(1, "tools/call", {{"name", "list"}})) == "list");
  CHECK(csift::mirrored_name(request(1, "prompts/get", {{"name", "recap"}})) == "recap");
  CHECK(csift::mirrored_name(request(1, "resources/read", {{"uri", "csift://session/x"}})) ==
        "csift://session/x");
  CHECK(csift::mirrored_name(request(1, "tools/call", {{"name", 3}})).empty());
  CHECK(csift::mirrored_name(request(1, "tools/list", {{"name", "x"}})).empty());
}

TEST_CASE("dispatch: each revision answers its methods and refuses the other's") {
  csift::McpServer server{csift::ServerOptions{}};
  csift::Connection conn;
  auto reply = server.handle_request(request(1, "ping"), Revision::session, conn, {});
  REQUIRE(reply);
  CHECK((*reply)["result"] == json::object());
  reply =
      server.handle_request(request(2, "ping", {{"_meta", stateless_meta()}}), Revision::stateless, conn, {});
  REQUIRE(reply);
  CHECK(rpc::error_code(*reply) == rpc::kMethodNotFound);
  reply = server.handle_request(request(3, "server/discover", {{"_meta", stateless_meta()}}),
                                Revision::stateless, conn, {});
  REQUIRE(reply);
  CHECK((*reply)["result"]["supportedVersions"].size() == 4);
  CHECK((*reply)["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string());
  reply = server.handle_request(request(4, "server/discover"), Revision::session, conn, {});
  REQUIRE(reply);
  CHECK(rpc::error_code(*reply) == rpc::kMethodNotFound);
  // A stateless tools/list names the server in _meta.
  reply = server.handle_request(request(5, "tools/list", {{"_meta", stateless_meta()}}), Revision::stateless,
                                conn, {});
  REQUIRE(reply);
  CHECK((*reply)["result"]["_meta"].contains("io.modelcontextprotocol/serverInfo"));
  CHECK(conn.size() == 0);
}

// A dispatcher's reply, waited for when it comes from a worker.
struct Delivered {
  std::promise<DispatchReply> promise;
  std::future<DispatchReply> future = promise.get_future();
  csift::Dispatcher::Deliver deliver() {
    return [this](DispatchReply r) { promise.set_value(std::move(r)); };
  }
  DispatchReply get() {
    REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    return future.get();
  }
};

TEST_CASE("dispatcher: a quick method is answered at once; a slow one is admitted, queued and ended") {
  csift::McpServer server{csift::ServerOptions{}};
  csift::Dispatcher dispatcher(server, 1, 4, 1);
  auto conn = std::make_shared<csift::Connection>();
  {
    Delivered d;
    dispatcher.dispatch(request(1, "ping"), Revision::session, conn, {}, d.deliver());
    const DispatchReply r = d.get();
    CHECK(r.how == DispatchReply::How::at_once);
    REQUIRE(r.message);
    CHECK((*r.message)["id"] == 1);
  }
  {
    Delivered d;
    bool admitted = false;
    dispatcher.dispatch(request(2, "tools/call", {{"name", "no_such_tool"}}), Revision::session, conn, {},
                        d.deliver(),
                        [&](const std::shared_ptr<csift::InFlight>& in) { admitted = in != nullptr; });
    const DispatchReply r = d.get();
    CHECK(admitted);
    CHECK(r.how == DispatchReply::How::queued);
    REQUIRE(r.message);
    CHECK(rpc::error_code(*r.message) == rpc::kInvalidParams);
    dispatcher.wait_idle();
    CHECK(conn->size() == 0);  // its id is free again
  }
  {
    // A stateless call without its _meta is refused on the worker, and its id is still ended.
    Delivered d;
    dispatcher.dispatch(request(3, "tools/call", {{"name", "list"}}), Revision::stateless, conn, {},
                        d.deliver());
    const DispatchReply r = d.get();
    CHECK(r.how == DispatchReply::How::queued);
    CHECK(rpc::error_code(*r.message) == rpc::kInvalidParams);
    dispatcher.wait_idle();
    CHECK(conn->size() == 0);
  }
}

TEST_CASE("dispatcher: an id under way is refused at once, and a full queue is busy") {
  csift::McpServer server{csift::ServerOptions{}};
  auto conn = std::make_shared<csift::Connection>();
  {
    csift::Dispatcher dispatcher(server, 1, 4, 1);
    REQUIRE(conn->begin(7, nullptr, {}, std::chrono::milliseconds(50)));
    Delivered d;
    dispatcher.dispatch(request(7, "tools/call", {{"name", "list"}}), Revision::session, conn, {},
                        d.deliver());
    const DispatchReply r = d.get();
    CHECK(r.how == DispatchReply::How::at_once);
    CHECK(*r.message == rpc::make_error(7, rpc::kInvalidRequest, "request id 7 is already in use"));
    conn->end(7);
  }
  {
    csift::Dispatcher dispatcher(server, 1, 0, 0);  // no room in either queue
    for (const char* tool : {"list", "wait"}) {
      CAPTURE(tool);
      Delivered d;
      dispatcher.dispatch(request(8, "tools/call", {{"name", tool}}), Revision::session, conn, {},
                          d.deliver());
      const DispatchReply r = d.get();
      CHECK(r.how == DispatchReply::How::busy);
      CHECK(*r.message ==
            rpc::make_error(8, rpc::kInternalError, "server busy: too many calls under way; retry"));
      CHECK(conn->size() == 0);  // never queued, so never left registered
    }
  }
}

}  // namespace mcp_dispatch_unit
