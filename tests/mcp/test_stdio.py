"""MCP over stdio against the built binary: handshake per version, errors, paging, every tool's call and
schema, notifications, progress, cancellation and concurrency. Tools are enumerated from tools/list."""
import json
import os
import shutil
import tempfile
import time
import unittest

from mcp_harness import (REPO, STATE_WRITING_TOOLS, BigStore, SESSION_VERSIONS, SLOW, STATELESS, StdioClient,
                         cpu_seconds, make_big_store, meta, schema_errors, server_env, slow_call)


class StdioBase(unittest.TestCase):
    def setUp(self):
        self.c = StdioClient()
        self.addCleanup(self._finish)

    def _finish(self):
        rc = self.c.close()
        self.assertEqual(self.c.bad_lines, [], "stdout carried something other than one JSON message per line")
        self.assertEqual(rc, 0, self.c.stderr[-2000:])

    def tools(self, client=None):
        r = (client or self.c).request("tools/list")
        return r["result"]["tools"]

    def assertError(self, reply, code):
        self.assertIn("error", reply, reply)
        self.assertEqual(reply["error"]["code"], code, reply)
        self.assertTrue(reply["error"]["message"])


class Handshake(StdioBase):
    def test_each_supported_version_is_echoed(self):
        for v in SESSION_VERSIONS:
            c = StdioClient()
            r = c.initialize(v)["result"]
            self.assertEqual(r["protocolVersion"], v)
            self.assertEqual(r["serverInfo"]["name"], "csift-mcp")
            self.assertIn("tools", r["capabilities"])
            self.assertEqual(c.request("ping")["result"], {})
            self.assertEqual(c.close(), 0)

    def test_unknown_version_gets_latest(self):
        for v in ("1999-01-01", STATELESS):
            c = StdioClient()
            self.assertEqual(c.initialize(v)["result"]["protocolVersion"], "2025-11-25")
            c.close()

    def test_initialize_without_version_is_invalid_params(self):
        self.assertError(self.c.request("initialize", {}), -32602)

    def test_ping(self):
        self.c.initialize()
        self.assertEqual(self.c.request("ping")["result"], {})


class Errors(StdioBase):
    def test_unknown_method(self):
        self.assertError(self.c.request("no/such-method"), -32601)

    def test_bad_json(self):
        self.c.send(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"')
        r = self.c.wait_for(lambda m: "error" in m)
        self.assertEqual(r["error"]["code"], -32700)
        self.assertIsNone(r["id"])
        self.assertEqual(self.c.request("ping")["result"], {}, "the server keeps reading after bad JSON")

    def test_a_nul_byte_never_joins_two_messages(self):
        # The line with a NUL is one bad message; the ping on the next line is its own message and answered.
        self.c.send(b'{"jsonrpc": "2.0", "id": 7, "method": "pi\x00ng"}')
        self.assertEqual(self.c.request("ping", id=8)["result"], {})

    def test_batch_array_is_refused(self):
        self.c.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}])
        r = self.c.wait_for(lambda m: "error" in m)
        self.assertEqual(r["error"]["code"], -32600)

    def test_invalid_request(self):
        for bad, code in (({"id": 5, "method": "ping"}, -32600), ({"jsonrpc": "2.0", "id": 6, "method": 7}, -32600),
                          ({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1]}, -32600)):
            self.c.send(bad)
            r = self.c.wait_for(lambda m: "error" in m and m.get("id") == bad["id"])
            self.assertEqual(r["error"]["code"], code, bad)

    def test_notifications_get_no_reply(self):
        self.c.initialize()
        for method in ("notifications/initialized", "notifications/whatever", "notifications/cancelled",
                       "notifications/progress", "ping"):
            self.c.send({"jsonrpc": "2.0", "method": method, "params": {}})
        self.c.request("ping", id="after")
        time.sleep(0.3)
        replies = [m for _, m in self.c.log if m.get("id") != "after"]
        self.assertEqual([m for m in replies if m.get("id") is None and "error" not in m and "result" in m], [])
        ids = [m.get("id") for _, m in self.c.log]
        self.assertEqual(ids.count("after"), 1)
        self.assertEqual(len(self.c.log), 2, [m for _, m in self.c.log])  # initialize + ping replies only

    def test_tools_call_protocol_errors(self):
        self.c.initialize()
        self.assertError(self.c.request("tools/call", {"name": "no_such_tool", "arguments": {}}), -32602)
        self.assertError(self.c.request("tools/call", {"arguments": {}}), -32602)
        name = self.tools()[0]["name"]
        self.assertError(self.c.request("tools/call", {"name": name, "arguments": [1, 2]}), -32602)

    def test_clean_exit_on_eof(self):
        self.c.initialize()
        self.c.proc.stdin.close()
        self.assertEqual(self.c.proc.wait(timeout=10 * SLOW), 0)


class ToolsList(StdioBase):
    def test_every_tool_is_described(self):
        tools = self.tools()
        self.assertTrue(tools, "the tool table is empty")
        names = [t["name"] for t in tools]
        self.assertEqual(len(names), len(set(names)))
        for t in tools:
            with self.subTest(tool=t["name"]):
                for key in ("title", "description", "inputSchema", "outputSchema", "annotations"):
                    self.assertIn(key, t)
                self.assertTrue(t["title"] and t["description"])
                self.assertEqual(t["inputSchema"].get("type"), "object")
                out = t["outputSchema"]
                self.assertEqual(out.get("type"), "object")
                for part in ("header", "rows", "summary"):
                    self.assertIn(part, out.get("properties", {}))
                self.assertIs(t["annotations"]["readOnlyHint"], t["name"] not in STATE_WRITING_TOOLS)
                self.assertIs(t["annotations"]["openWorldHint"], False)
                self.assertNotIn("x-cli", json.dumps(t["inputSchema"]), "CLI annotations leak into the served schema")

    def test_order_is_deterministic(self):
        self.assertEqual(self.tools(), self.tools())
        other = StdioClient()
        self.assertEqual(self.tools(other), self.tools())
        other.close()

    def test_paging_concatenates_to_the_whole_list(self):
        whole = self.tools()
        for size in (1, 2):
            c = StdioClient(env=server_env(CSIFT_MCP_PAGE_SIZE=size))
            pages, cursor = [], None
            for _ in range(len(whole) + 1):
                r = c.request("tools/list", {"cursor": cursor} if cursor else {})["result"]
                self.assertLessEqual(len(r["tools"]), size)
                pages += r["tools"]
                cursor = r.get("nextCursor")
                if not cursor:
                    break
            self.assertEqual(pages, whole)
            c.close()

    def test_bad_cursor(self):
        for cursor in ("garbage", "p0.0", "", 12):
            if cursor == "":
                continue
            self.assertError(self.c.request("tools/list", {"cursor": cursor}), -32602)


class ToolsCall(StdioBase):
    def call(self, name, arguments, client=None, **params):
        r = (client or self.c).request("tools/call", dict({"name": name, "arguments": arguments}, **params),
                                       timeout=120)
        self.assertIn("result", r, r)
        return r["result"]

    def check_result(self, tool, result):
        self.assertIsInstance(result["content"], list)
        self.assertEqual(result["content"][0]["type"], "text")
        self.assertIsInstance(result["content"][0]["text"], str)
        sc = result["structuredContent"]
        self.assertEqual(sorted(sc), ["header", "rows", "summary"])
        self.assertEqual(schema_errors(sc, tool["outputSchema"]), [], tool["name"])
        self.assertIsInstance(result["isError"], bool)

    def test_every_tool_on_the_fixtures(self):
        self.c.initialize()
        for tool in self.tools():
            with self.subTest(tool=tool["name"]):
                self.check_result(tool, self.call(tool["name"], {}))

    def test_format_json_puts_the_envelope_in_the_text(self):
        for tool in self.tools():
            with self.subTest(tool=tool["name"]):
                r = self.call(tool["name"], {"format": "json"})
                self.check_result(tool, r)
                lines = [json.loads(ln) for ln in r["content"][0]["text"].splitlines() if ln.strip()]
                sc = r["structuredContent"]
                self.assertEqual(lines, [sc["header"]] + sc["rows"] + [sc["summary"]])

    def test_bad_arguments_are_tool_errors(self):
        for tool in self.tools():
            with self.subTest(tool=tool["name"]):
                r = self.call(tool["name"], {"no_such_argument": 1})
                self.assertIs(r["isError"], True)
                self.check_result(tool, r)
                self.assertIn("no_such_argument", r["content"][0]["text"])
                self.assertIn("error", r["structuredContent"]["summary"])
                r = self.call(tool["name"], {"format": "yaml"})
                self.assertIs(r["isError"], True)
                self.check_result(tool, r)
                self.assertIn("json", r["content"][0]["text"], "the message names what is valid")


class Stateless(StdioBase):
    def test_discover_and_list(self):
        r = self.c.request("server/discover", {"_meta": meta()})["result"]
        self.assertIn(STATELESS, r["supportedVersions"])
        self.assertEqual(r["resultType"], "complete")
        self.assertIn("tools", r["capabilities"])
        r = self.c.request("tools/list", {"_meta": meta()})["result"]
        self.assertEqual(r["resultType"], "complete")
        self.assertEqual(r["tools"], self.tools())
        name = r["tools"][0]["name"]
        r = self.c.request("tools/call", {"name": name, "arguments": {}, "_meta": meta()})["result"]
        self.assertEqual(r["resultType"], "complete")

    def test_meta_errors(self):
        self.assertEqual(self.c.request("server/discover", {})["error"]["code"], -32602)
        r = self.c.request("server/discover", {"_meta": meta("v999")})
        self.assertEqual(r["error"]["code"], -32022)
        self.assertEqual(r["error"]["data"]["requested"], "v999")
        self.assertEqual(self.c.request("ping", {"_meta": meta()})["error"]["code"], -32601)


class LongCalls(StdioBase):
    """Progress, cancellation and concurrency need a call that takes a while: the slowest tool over a big
    generated store. One uncancelled run in setUpClass measures how long "a while" is."""

    @classmethod
    def setUpClass(cls):
        def measure(home):
            c = StdioClient(env=server_env(home))
            cls.name, cls.args = slow_call(c.request("tools/list")["result"]["tools"])
            t0 = time.monotonic()
            c.request("tools/call", {"name": cls.name, "arguments": cls.args}, timeout=300)
            seconds = time.monotonic() - t0
            c.close()
            return seconds
        cls.home, cls.full = BigStore.calibrated(measure)

    @classmethod
    def tearDownClass(cls):
        BigStore.cleanup()

    def setUp(self):
        self.c = StdioClient(env=server_env(self.home))
        self.addCleanup(self._finish)
        self.c.initialize()

    def start_slow(self, token=None, id="slow"):
        params = {"name": self.name, "arguments": dict(self.args)}
        if token is not None:
            params["_meta"] = {"progressToken": token}
        self.c.send({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})

    def cancel(self, id="slow"):
        self.c.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})

    def test_progress_is_increasing_and_precedes_the_reply(self):
        self.start_slow(token="tok-1")
        reply = self.c.wait_for(lambda m: m.get("id") == "slow", timeout=300)
        self.assertIn("result", reply)
        time.sleep(0.3)
        log = [m for _, m in self.c.log]
        at = log.index(reply)
        progress = [m["params"] for m in log if m.get("method") == "notifications/progress"]
        self.assertTrue(progress, "a long scan with a progressToken sends progress")
        self.assertTrue(all(p["progressToken"] == "tok-1" for p in progress))
        values = [p["progress"] for p in progress]
        self.assertEqual(values, sorted(set(values)), "progress strictly increases")
        after = [m for m in log[at + 1:] if m.get("method") == "notifications/progress"]
        self.assertEqual(after, [], "nothing after the response")

    def test_ping_and_list_answered_while_a_call_runs(self):
        self.start_slow(token=7)
        self.c.wait_for(lambda m: m.get("method") == "notifications/progress", timeout=60)
        self.assertEqual(self.c.request("ping", id="p")["result"], {})
        self.assertIn("tools", self.c.request("tools/list", id="l")["result"])
        self.assertNotIn("slow", [m.get("id") for _, m in self.c.log], "the call ended before ping proved anything")
        self.cancel()

    def test_cancellation_stops_the_scan_and_sends_no_reply(self):
        self.start_slow(token="c2")
        self.c.wait_for(lambda m: m.get("method") == "notifications/progress", timeout=60)
        t1 = time.monotonic()
        self.cancel()
        # The scan stops: from the cancellation on, the server sits idle for half a second (about 10 ms of CPU),
        # where a scan running on (its reply dropped) burns its share of that half second on every core it has.
        # CPU is work, which a loaded machine does not inflate; the call was calibrated to take at least a second.
        cpu0 = cpu_seconds(self.c.proc.pid)
        time.sleep(0.5)
        burned = cpu_seconds(self.c.proc.pid) - cpu0
        self.assertLess(burned, 0.1 * SLOW, f"{burned:.2f} s of CPU after the cancellation")
        self.c.proc.stdin.close()
        self.assertEqual(self.c.proc.wait(timeout=60 * SLOW), 0)  # a hang guard
        # At EOF the server cancels what is still under way and says so when a call outlives its exit grace: a
        # scan that ignored the cancellation would still be running, however loaded the machine.
        self.assertNotIn("still running", self.c.proc.stderr.read().decode("utf-8", "replace"))
        self.c._reader.join(timeout=5)
        self.assertNotIn("slow", [m.get("id") for _, m in self.c.log], "a cancelled request gets no response")
        late = [m for ts, m in self.c.log if m.get("method") == "notifications/progress" and ts > t1 + 0.1]
        self.assertEqual(late, [], "no progress after the cancellation took effect")


class DefaultBudget(StdioBase):
    """Every tool's default answer stays small on a store whose full answers are large. 80 transcripts of 20 turns
    are enough for list, stats and search to cut their rows; LongCalls' calibrated store is far bigger than this
    needs and made this test most of the suite's stdio time."""

    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.mkdtemp(prefix="csift-mcp-budget-")
        make_big_store(cls.home, sessions=40, turns=20)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def setUp(self):
        self.c = StdioClient(env=server_env(self.home))
        self.addCleanup(self._finish)
        self.c.initialize()

    def test_default_budget_keeps_results_small(self):
        cut = None
        for tool in self.tools():
            for args in ({}, {"format": "json"}):
                r = self.c.request("tools/call", {"name": tool["name"], "arguments": args}, timeout=300)["result"]
                self.assertLess(len(json.dumps(r)), 80000, "a whole result stays well under 25,000 tokens")
                summary = r["structuredContent"]["summary"]
                if summary.get("rows_omitted"):
                    cut = tool["name"]
                    self.assertIn("continue_with", summary, "a cut result says how to continue")
                    self.assertFalse(any(m.get("method") == "notifications/progress" for _, m in self.c.log),
                                     "no progress without a progressToken")
        self.assertTrue(cut, "the big store should make some tool cut its rows")
        small = self.c.request("tools/call", {"name": cut, "arguments": {"max_chars": 2000}}, timeout=300)["result"]
        self.assertLess(len(small["content"][0]["text"]), 4000, "max_chars moves the budget")


class McpJson(unittest.TestCase):
    """mcp.json at the top level is a Claude Code project MCP config that starts the built binary."""

    def test_config_starts_the_server(self):
        with open(os.path.join(REPO, "mcp.json")) as f:
            config = json.load(f)
        servers = config["mcpServers"]
        self.assertEqual(len(servers), 1)
        (name, entry), = servers.items()
        self.assertEqual(entry.get("type", "stdio"), "stdio")
        self.assertEqual(os.path.basename(entry["command"]), "csift-mcp")
        self.assertEqual(os.path.normpath(entry["command"]), os.path.join("build", "csift-mcp"),
                         "the command is the binary `make build` produces, relative to the project")
        # This run's binary may live in another build dir: start it with the config's arguments.
        c = StdioClient(entry.get("args", []), env=dict(server_env(), **entry.get("env", {})), cwd=REPO)
        self.assertEqual(c.initialize()["result"]["serverInfo"]["name"], "csift-mcp")
        self.assertTrue(c.request("tools/list")["result"]["tools"])
        self.assertEqual(c.close(), 0)


if __name__ == "__main__":
    unittest.main()
