// The JSON-RPC layer and the transport helpers that need no process: message classification, framing,
// the progress gate, tools/list cursors and the HTTP access checks.
#include <doctest/doctest.h>

#include "server/http_security.h"
#include "server/inflight.h"
#include "server/jsonrpc.h"
#include "server/mcp_server.h"
#include "server/tool_listing.h"
#include "tools/dispatch/tool_table.h"

namespace jsonrpc_unit {

using csift::json;
namespace rpc = csift::rpc;

TEST_CASE("classify: requests, notifications, responses") {
  auto m = rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"));
  CHECK(m.kind == rpc::Kind::request);
  CHECK(m.id == 1);
  CHECK(m.params == json::object());
  m = rpc::classify(json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  CHECK(m.kind == rpc::Kind::notification);
  m = rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":"a","result":{}})"));
  CHECK(m.kind == rpc::Kind::response);
  m = rpc::classify(json::parse(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"));
  CHECK(m.kind == rpc::Kind::batch);
}

TEST_CASE("classify: invalid messages keep a readable id") {
  for (const char* text :
       {R"({"id":3,"method":"ping"})", R"({"jsonrpc":"1.0","id":3,"method":"ping"})",
        R"({"jsonrpc":"2.0","id":3,"method":5})", R"({"jsonrpc":"2.0","id":3,"method":"x","params":[]})",
        R"({"jsonrpc":"2.0","id":3})"}) {
    CAPTURE(text);
    auto m = rpc::classify(json::parse(text));
    CHECK(m.kind == rpc::Kind::invalid);
    CHECK(m.id == 3);
    CHECK_FALSE(m.reason.empty());
  }
  CHECK(rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":null,"method":"ping"})")).kind ==
        rpc::Kind::invalid);
  CHECK(rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")).kind ==
        rpc::Kind::invalid);
  CHECK(rpc::classify(json(42)).kind == rpc::Kind::invalid);
}

TEST_CASE("parse, replies and framing") {
  CHECK_FALSE(rpc::parse("{\"a\":").has_value());
  CHECK(rpc::parse("{\"a\":1}").value()["a"] == 1);
  const json err = rpc::make_error(7, rpc::kInvalidParams, "bad", json{{"x", 1}});
  CHECK(rpc::is_error(err));
  CHECK(rpc::error_code(err) == -32602);
  CHECK(err["error"]["data"]["x"] == 1);
  CHECK_FALSE(rpc::make_error(nullptr, rpc::kParseError, "p")["error"].contains("data"));
  CHECK(rpc::error_code(rpc::make_result(1, json::object())) == 0);
  const std::string line = rpc::encode(json{{"text", "a\nb\xff"}});
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find("\\n") != std::string::npos);
  CHECK(rpc::id_key(1) != rpc::id_key("1"));
}

TEST_CASE("progress gate: strictly increasing, nothing after finish or cancel") {
  std::vector<double> sent;
  csift::InFlight f(
      "tok",
      [&](const json& m) {
        sent.push_back(m["params"]["progress"].get<double>());
        return true;
      },
      std::chrono::milliseconds(0));
  f.report(1, 10, "");
  f.report(1, 10, "");
  f.report(0.5, 10, "");
  f.report(2, 10, "x");
  f.finish();
  f.report(3, 10, "");
  CHECK(sent == std::vector<double>{1, 2});
  csift::InFlight g(
      nullptr, [&](const json&) { return true; }, std::chrono::milliseconds(0));
  CHECK_FALSE(g.wants_progress());
}

TEST_CASE("progress gate: a gone client cancels the request") {
  csift::InFlight f(
      1, [](const json&) { return false; }, std::chrono::milliseconds(0));
  f.report(1, 2, "");
  CHECK(f.cancel.is_cancelled());
}

TEST_CASE("connection: cancel finds requests by id") {
  csift::Connection c;
  auto r = c.begin(5, nullptr, {}, std::chrono::milliseconds(0));
  REQUIRE(r);
  CHECK_FALSE(c.begin(5, nullptr, {}, std::chrono::milliseconds(0)));
  CHECK_FALSE(c.cancel("5"));
  CHECK(c.cancel(5));
  CHECK(r->cancel.is_cancelled());
  c.end(5);
  CHECK(c.size() == 0);
}

TEST_CASE("tools/list pages concatenate to the table; foreign cursors are refused") {
  const json& all = csift::tool_descriptors();
  CHECK(all.size() == csift::tool_table().size());
  json joined = json::array();
  std::string cursor;
  for (size_t guard = 0; guard <= all.size(); ++guard) {
    auto page = csift::tool_page(cursor, 1);
    REQUIRE(page);
    for (auto& t : page->tools)
      joined.push_back(t);
    cursor = page->next_cursor;
    if (cursor.empty()) break;
  }
  CHECK(joined == all);
  for (const char* bad : {"x", "p", "p1", "p1.", "p0.1", "pzz.1", "p1.999", "p1.1 "}) {
    CAPTURE(bad);
    CHECK_FALSE(csift::tool_page(bad, 1).has_value());
  }
}

TEST_CASE("revisions: _meta or server/discover select 2026-07-28") {
  auto m = rpc::classify(json::parse(R"({"jsonrpc":"2.0","id":1,"method":"server/discover"})"));
  CHECK(csift::revision_of(m) == csift::Revision::stateless);
  m = rpc::classify(json::parse(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})"));
  CHECK(csift::revision_of(m) == csift::Revision::stateless);
  CHECK(csift::meta_protocol_version(m) == "2026-07-28");
  m = rpc::classify(json::parse(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}})"));
  CHECK(csift::revision_of(m) == csift::Revision::session);
  CHECK(csift::is_session_version("2025-03-26"));
  CHECK_FALSE(csift::is_session_version("2026-07-28"));
}

TEST_CASE("http access: hosts, origins and the token") {
  using csift::Access;
  CHECK(csift::is_loopback_host("localhost"));
  CHECK(csift::is_loopback_host("127.0.0.1"));
  CHECK(csift::is_loopback_host("127.5.6.7"));
  CHECK(csift::is_loopback_host("[::1]"));
  CHECK_FALSE(csift::is_loopback_host("127.0.0.1.evil.com"));
  CHECK_FALSE(csift::is_loopback_host("localhost.evil.com"));
  CHECK(csift::host_of_authority("LocalHost:8080") == "localhost");
  CHECK(csift::host_of_authority("[::1]:80") == "[::1]");
  const csift::AccessPolicy local{"127.0.0.1", ""};
  CHECK(csift::check_access(local, "127.0.0.1:9", "", "").access == Access::allowed);
  CHECK(csift::check_access(local, "localhost:9", "http://localhost:9", "").access == Access::allowed);
  CHECK(csift::check_access(local, "evil.com", "", "").access == Access::forbidden);
  CHECK(csift::check_access(local, "localhost", "http://evil.com", "").access == Access::forbidden);
  CHECK(csift::check_access(local, "localhost", "null", "").access == Access::forbidden);
  CHECK(csift::check_access(local, "", "", "").access == Access::forbidden);
  const csift::AccessPolicy guarded{"0.0.0.0", "tok"};
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "Bearer tok").access == Access::allowed);
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "Bearer to").access == Access::unauthorized);
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "").access == Access::unauthorized);
  // The scheme is case-insensitive (RFC 9110 §11.1); another scheme, or no token after it, is refused.
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "bearer tok").access == Access::allowed);
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "BEARER  tok").access == Access::allowed);
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "Basic tok").access == Access::unauthorized);
  CHECK(csift::check_access(guarded, "10.1.2.3:80", "", "Bearertok").access == Access::unauthorized);
  CHECK(csift::constant_time_equals("abc", "abc"));
  CHECK_FALSE(csift::constant_time_equals("abc", "abd"));
  CHECK_FALSE(csift::constant_time_equals("abc", "abcd"));
  CHECK_FALSE(csift::constant_time_equals("", "a"));
}

TEST_CASE("jsonrpc: nesting is bounded before parsing") {
  const auto nested = [](size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  CHECK(csift::rpc::nesting_within(nested(csift::rpc::kMaxNesting), csift::rpc::kMaxNesting));
  CHECK_FALSE(csift::rpc::nesting_within(nested(csift::rpc::kMaxNesting + 1), csift::rpc::kMaxNesting));
  // Brackets inside strings (escaped quotes included) do not count.
  CHECK(csift::rpc::nesting_within("[\"[[[[\\\"[[[\"]", 1));
  bool too_deep = false;
  CHECK_FALSE(csift::rpc::parse(nested(100000), &too_deep));
  CHECK(too_deep);
  CHECK(csift::rpc::parse(nested(100), &too_deep));
  CHECK_FALSE(too_deep);
  CHECK_FALSE(csift::rpc::parse("{", &too_deep));
  CHECK_FALSE(too_deep);
}

}  // namespace jsonrpc_unit
