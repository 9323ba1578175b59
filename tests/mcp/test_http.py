"""MCP over Streamable HTTP (127.0.0.1 only) against the built binary: sessions, headers, security, errors,
every tool's call, progress streams, cancellation, concurrency, the stateless 2026-07-28 shape and
signal draining."""
import json
import signal
import subprocess
import threading
import time
import unittest

from mcp_harness import (BigStore, SESSION_VERSIONS, SLOW, STATELESS, HttpServer, binary, meta, schema_errors,
                         cpu_seconds, server_env, slow_call, stateless_headers, http_slow_call_seconds)

PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}


class HttpBase(unittest.TestCase):
    args = ()
    env = None

    def setUp(self):
        self.s = HttpServer(self.args, env=self.env)
        self.addCleanup(self._finish)

    def _finish(self):
        self.assertEqual(self.s.stop(), 0, self.s.stderr[-2000:])

    def session(self, version="2025-11-25"):
        sid, init = self.s.initialize(version)
        self.assertTrue(sid)
        return sid, {"MCP-Protocol-Version": init["result"]["protocolVersion"]}

    def rpc(self, sid, method, params=None, id=3, headers=None):
        body = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            body["params"] = params
        return self.s.post(body, session=sid, headers=headers)

    def assertRpcError(self, body, code):
        self.assertIsInstance(body, dict, body)
        self.assertEqual(body.get("error", {}).get("code"), code, body)


class Sessions(HttpBase):
    def test_handshake_each_version(self):
        for v in SESSION_VERSIONS:
            sid, init = self.s.initialize(v)
            self.assertEqual(init["result"]["protocolVersion"], v)
            self.assertRegex(sid, r"^[\x21-\x7e]+$")
            st, _, body = self.rpc(sid, "ping", headers={"MCP-Protocol-Version": v})
            self.assertEqual((st, body["result"]), (200, {}))

    def test_missing_unknown_and_ended_session(self):
        st, _, body = self.s.post(PING)
        self.assertEqual(st, 400)
        self.assertRpcError(body, -32600)
        st, _, _ = self.s.post(PING, session="0" * 32)
        self.assertEqual(st, 404)
        sid, h = self.session()
        st, _, _ = self.s.call("DELETE", headers=dict(h, **{"Mcp-Session-Id": sid}))
        self.assertEqual(st, 200)
        st, _, _ = self.s.post(PING, session=sid, headers=h)
        self.assertEqual(st, 404)
        st, _, _ = self.s.call("DELETE", headers={"Mcp-Session-Id": sid})
        self.assertEqual(st, 404)
        st, _, _ = self.s.call("DELETE")
        self.assertEqual(st, 400)

    def test_invalid_protocol_version_header(self):
        sid, _ = self.session()
        st, _, _ = self.s.post(PING, session=sid, headers={"MCP-Protocol-Version": "1999-01-01"})
        self.assertEqual(st, 400)

    def test_notification_is_202_with_empty_body(self):
        sid, h = self.session()
        for method in ("notifications/initialized", "notifications/unknown", "notifications/cancelled"):
            st, _, body = self.s.post({"jsonrpc": "2.0", "method": method, "params": {}}, session=sid, headers=h)
            self.assertEqual((st, body), (202, None))

    def test_get_is_405(self):
        sid, h = self.session()
        st, hdrs, _ = self.s.call("GET", headers=dict(h, **{"Mcp-Session-Id": sid, "Accept": "text/event-stream"}))
        self.assertEqual(st, 405)
        self.assertIn("POST", hdrs.get("allow", ""))

    def test_unknown_method_and_bad_messages(self):
        sid, h = self.session()
        st, _, body = self.rpc(sid, "no/such-method", headers=h)
        self.assertRpcError(body, -32601)
        st, _, body = self.s.post(b'{"jsonrpc":"2.0","id":1,', raw=True, session=sid, headers=h)
        self.assertEqual(st, 400)
        self.assertRpcError(body, -32700)
        st, _, body = self.s.post([PING, PING], session=sid, headers=h)
        self.assertEqual(st, 400)
        self.assertRpcError(body, -32600)
        st, _, body = self.s.post({"id": 1, "method": "ping"}, session=sid, headers=h)
        self.assertEqual(st, 400)
        self.assertRpcError(body, -32600)

    def test_oversized_body_is_413(self):
        big = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * (5 << 20) + b'"}}'
        try:
            st, _, _ = self.s.post(big, raw=True)
        except (BrokenPipeError, ConnectionResetError):
            self.fail("the server dropped the connection instead of answering 413")
        self.assertEqual(st, 413)

    def test_paging_and_bad_cursor(self):
        sid, h = self.session()
        st, _, body = self.rpc(sid, "tools/list", {"cursor": "nope"}, headers=h)
        self.assertRpcError(body, -32602)


class Security(HttpBase):
    def test_foreign_origin_and_host_are_403(self):
        for headers in ({"Origin": "http://evil.example.com"}, {"Host": "evil.example.com"},
                        {"Host": "evil.example.com", "Origin": "http://evil.example.com"}, {"Origin": "null"}):
            st, _, _ = self.s.post(PING, headers=headers)
            self.assertEqual(st, 403, headers)

    def test_local_origin_is_fine(self):
        for origin in (f"http://localhost:{self.s.port}", f"http://127.0.0.1:{self.s.port}", "http://[::1]:9"):
            st, _, body = self.s.post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                       "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                                  "clientInfo": {"name": "t", "version": "1"}}},
                                      headers={"Origin": origin})
            self.assertEqual(st, 200, origin)

    def test_non_loopback_bind_needs_a_token(self):
        p = subprocess.run([binary(), "--http", "--host", "0.0.0.0", "--port", "0"], capture_output=True,
                           timeout=30, env=server_env())
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"token", p.stderr)


class Token(HttpBase):
    args = ("--token", "s3cret-token")

    def test_missing_or_wrong_token_is_401(self):
        for auth in (None, "Bearer wrong", "Bearer s3cret-toke", "Basic s3cret-token", "Bearer s3cret-token2"):
            st, hdrs, _ = self.s.post(PING, headers={"Authorization": auth} if auth else {})
            self.assertEqual(st, 401, auth)
            self.assertIn("Bearer", hdrs.get("www-authenticate", ""))

    def test_right_token_is_served(self):
        st, _, body = self.s.post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                              "clientInfo": {"name": "t", "version": "1"}}},
                                  headers={"Authorization": "Bearer s3cret-token"})
        self.assertEqual(st, 200)


class TokenFromEnvironment(HttpBase):
    env = server_env(CSIFT_MCP_TOKEN="from-env")

    def test_env_token(self):
        self.assertEqual(self.s.post(PING)[0], 401)
        self.assertEqual(self.s.post(PING, headers={"Authorization": "Bearer from-env"})[0], 400)  # no session


class Tools(HttpBase):
    def test_every_tool_over_http(self):
        sid, h = self.session()
        st, _, body = self.rpc(sid, "tools/list", headers=h)
        tools = body["result"]["tools"]
        self.assertTrue(tools)
        for tool in tools:
            with self.subTest(tool=tool["name"]):
                self.assertIs(tool["annotations"]["readOnlyHint"], True)
                st, hdrs, body = self.rpc(sid, "tools/call", {"name": tool["name"], "arguments": {}}, headers=h)
                self.assertEqual(st, 200)
                self.assertTrue(hdrs["content-type"].startswith("application/json"))
                sc = body["result"]["structuredContent"]
                self.assertEqual(schema_errors(sc, tool["outputSchema"]), [])
                st, _, body = self.rpc(sid, "tools/call", {"name": tool["name"], "arguments": {"bogus": 1}},
                                       headers=h)
                self.assertIs(body["result"]["isError"], True)
                self.assertEqual(schema_errors(body["result"]["structuredContent"], tool["outputSchema"]), [])
        st, _, body = self.rpc(sid, "tools/call", {"name": "nope", "arguments": {}}, headers=h)
        self.assertRpcError(body, -32602)


class Stateless(HttpBase):
    def post(self, method, params, id=9, **hdr):
        return self.s.post({"jsonrpc": "2.0", "id": id, "method": method, "params": params},
                           headers=dict(stateless_headers(method, params.get("name")), **hdr))

    def test_discover_list_call(self):
        st, hdrs, body = self.post("server/discover", {"_meta": meta()})
        self.assertEqual(st, 200)
        self.assertNotIn("mcp-session-id", hdrs)
        r = body["result"]
        self.assertIn(STATELESS, r["supportedVersions"])
        self.assertEqual(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "csift-mcp")
        st, _, body = self.post("tools/list", {"_meta": meta()})
        tools = body["result"]["tools"]
        self.assertEqual(body["result"]["resultType"], "complete")
        self.assertIn(body["result"]["cacheScope"], ("public", "private"))
        st, _, body = self.post("tools/call", {"name": tools[0]["name"], "arguments": {}, "_meta": meta()})
        self.assertEqual(st, 200)
        self.assertEqual(body["result"]["resultType"], "complete")
        self.assertEqual(schema_errors(body["result"]["structuredContent"], tools[0]["outputSchema"]), [])

    def test_header_checks(self):
        body = {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": meta()}}
        for headers in ({"MCP-Protocol-Version": STATELESS},
                        stateless_headers("prompts/list"), stateless_headers("TOOLS/LIST")):
            st, _, r = self.s.post(body, headers=headers)
            self.assertEqual(st, 400, headers)
            self.assertRpcError(r, -32020)
            self.assertEqual(r["id"], 4)
        st, _, r = self.s.post(body, headers={"mcp-protocol-version": STATELESS, "mcp-method": " tools/list "})
        self.assertEqual(st, 200)
        call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "whatever", "arguments": {}, "_meta": meta()}}
        st, _, r = self.s.post(call, headers=stateless_headers("tools/call"))
        self.assertEqual(st, 400)
        self.assertRpcError(r, -32020)
        st, _, r = self.s.post(call, headers=stateless_headers("tools/call", "other"))
        self.assertRpcError(r, -32020)

    def test_meta_and_version_errors(self):
        st, _, r = self.post("server/discover", {})
        self.assertEqual(st, 400)
        self.assertRpcError(r, -32602)
        st, _, r = self.post("server/discover", {"_meta": meta("v999")}, **{"MCP-Protocol-Version": "v999"})
        self.assertEqual(st, 400)
        self.assertRpcError(r, -32022)
        self.assertEqual(r["error"]["data"]["requested"], "v999")
        st, _, r = self.post("server/discover", {"_meta": meta("v999")})
        self.assertEqual(st, 400)
        self.assertRpcError(r, -32020)
        for removed in ("initialize", "ping", "logging/setLevel", "unknown/method"):
            st, _, r = self.post(removed, {"_meta": meta()})
            self.assertEqual(st, 404, removed)
            self.assertRpcError(r, -32601)

    def test_notification_is_202(self):
        st, _, body = self.s.post({"jsonrpc": "2.0", "method": "notifications/x", "params": {"_meta": meta()}},
                                  headers=stateless_headers("notifications/x"))
        self.assertEqual((st, body), (202, None))


class LongCalls(HttpBase):
    @classmethod
    def setUpClass(cls):
        home, cls.full = BigStore.calibrated(http_slow_call_seconds)
        cls.env = server_env(home)

    @classmethod
    def tearDownClass(cls):
        BigStore.cleanup()

    def setUp(self):
        super().setUp()
        self.sid, self.h = self.session()
        st, _, body = self.rpc(self.sid, "tools/list", headers=self.h)
        self.name, self.args = slow_call(body["result"]["tools"])

    def call_in_thread(self, params, out, id="slow"):
        def run():
            out["t0"] = time.monotonic()
            out["reply"] = self.rpc(self.sid, "tools/call", params, id=id, headers=self.h)
            out["t1"] = time.monotonic()
        t = threading.Thread(target=run)
        t.start()
        return t

    def test_progress_streams_as_sse_ending_with_the_reply(self):
        st, hdrs, events = self.rpc(self.sid, "tools/call", {"name": self.name, "arguments": self.args,
                                                             "_meta": {"progressToken": "p"}}, headers=self.h)
        self.assertEqual(st, 200)
        self.assertTrue(hdrs["content-type"].startswith("text/event-stream"))
        self.assertEqual(events[-1].get("id"), 3)
        self.assertIn("result", events[-1])
        progress = [e["params"]["progress"] for e in events[:-1]]
        self.assertTrue(progress)
        self.assertTrue(all(e.get("method") == "notifications/progress" for e in events[:-1]))
        self.assertEqual(progress, sorted(set(progress)))

    def test_ping_answered_while_a_call_runs(self):
        out = {}
        t = self.call_in_thread({"name": self.name, "arguments": self.args}, out)
        # A quarter into the call (its duration was calibrated on this store): a fixed 0.8 s under the
        # sanitizer raced a call calibrated to about 1 s.
        time.sleep(min(0.2 * SLOW, self.full / 4))
        st, _, body = self.rpc(self.sid, "ping", id="p", headers=self.h)
        pinged = time.monotonic()
        st2, _, listed = self.rpc(self.sid, "tools/list", id="l", headers=self.h)
        t.join(timeout=300)
        self.assertEqual(body["result"], {})
        self.assertIn("tools", listed["result"])
        self.assertLess(pinged, out["t1"], "ping waited for the slow call")
        self.assertIn("result", out["reply"][2])

    def test_cancellation_ends_the_call_without_a_reply(self):
        duration = self.full
        out = {}
        t = self.call_in_thread({"name": self.name, "arguments": self.args}, out)
        time.sleep(min(0.2, duration / 4))
        st, _, _ = self.s.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                "params": {"requestId": "slow"}}, session=self.sid, headers=self.h)
        cpu0 = cpu_seconds(self.s.proc.pid)
        self.assertEqual(st, 202)
        t.join(timeout=300)
        st, hdrs, body = out["reply"]
        self.assertFalse(body, f"a cancelled request gets no JSON-RPC response: {body}")
        # The scan stopped: from the cancellation until half a second after the (empty) reply the server sits
        # idle (about 10 ms of CPU), where a scan that ran on, to its reply or past it, burns most of a call's.
        # CPU is work, which a loaded machine does not inflate as it does a wall clock.
        time.sleep(0.5)
        burned = cpu_seconds(self.s.proc.pid) - cpu0
        self.assertLess(burned, 0.1 * SLOW, f"{burned:.2f} s of CPU after the cancellation")

    def test_sigterm_drains_calls_under_way(self):
        out = {}
        t = self.call_in_thread({"name": self.name, "arguments": self.args}, out)
        time.sleep(0.2)
        self.s.proc.send_signal(signal.SIGTERM)
        t.join(timeout=300)
        self.assertIn("result", out["reply"][2], "the call under way still got its reply")
        self.assertEqual(self.s.proc.wait(timeout=30 * SLOW), 0)


class Signals(unittest.TestCase):
    def test_sigint_and_sigterm_exit_cleanly(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            s = HttpServer()
            self.assertEqual(s.stop(sig), 0)
            self.assertIn("draining", s.stderr)


if __name__ == "__main__":
    unittest.main()
