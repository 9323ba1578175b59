"""wait over MCP on a live session: progress notifications seen by the official SDK client while a simulator
appends to the session, waits that never hold the workers other calls need, and a cancellation that ends the
call within a second (observed over HTTP, where the call's SSE stream closes when the call ends)."""
import http.client
import json
import os
import select
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))

from live_session import LiveSession  # noqa: E402
from mcp_harness import SLOW, HttpServer, binary, server_env  # noqa: E402
from test_interop import INTEROP, NODE, ensure_installed, node_env  # noqa: E402


class LiveWaitMcp(unittest.TestCase):
    def setUp(self):
        self.sim = LiveSession()
        self.sim.prompt("start")
        self.sim.tool_use("Bash", {"command": "make"})

    def tearDown(self):
        self.sim.cleanup()

    def test_sdk_client_sees_progress_and_the_condition_fire(self):
        ensure_installed()
        p = subprocess.Popen([NODE, "sdk_wait.mjs", binary(), self.sim.home, self.sim.id], cwd=INTEROP,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=node_env())
        events = []
        try:
            for raw in p.stdout:
                event = json.loads(raw)
                events.append(event)
                if event["event"] == "progress" and "watching" in event["message"]:
                    self.sim.tool_use("Read", {"file_path": "/tmp/live/sim/a.py"})  # a change, not a condition
                elif event["event"] == "progress" and " 1 record(s) since the baseline" in event["message"]:
                    self.sim.sidecar("pending", "toolu_live_ask")
                if event["event"] in ("blockers", "error"):
                    break
            p.wait(timeout=60 * SLOW)
        finally:
            if p.poll() is None:
                p.kill()
        err = p.stderr.read().decode("utf-8", "replace")
        kinds = [e["event"] for e in events]
        self.assertNotIn("error", kinds, events[-1:] + [err[-2000:]])
        status = next(e for e in events if e["event"] == "status-while-blocked")
        self.assertEqual(status["verdict"], "running")  # served while six waits blocked
        progress = [e for e in events if e["event"] == "progress"]
        self.assertIn("watching", progress[0]["message"])
        # What changed is reported before the condition fires.
        self.assertTrue(any(" 1 record(s) since the baseline" in e["message"] for e in progress), progress)
        self.assertEqual([e["progress"] for e in progress], sorted(set(e["progress"] for e in progress)))
        result = next(e for e in events if e["event"] == "result")
        self.assertFalse(result["isError"])
        self.assertEqual((result["row"]["fired"], result["row"]["verdict"]), ("auq", "waiting-hitl"))
        self.assertEqual(result["row"]["activity"]["tool_calls"], {"Read": 1})
        blockers = next(e for e in events if e["event"] == "blockers")
        self.assertEqual(len(blockers["outcomes"]), 6)
        self.assertTrue(all(o.startswith("rejected") for o in blockers["outcomes"]), blockers)

    def test_cancellation_ends_the_call(self):
        server = HttpServer(env=server_env(self.sim.home))
        try:
            sid, init = server.initialize()
            headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                       "Mcp-Session-Id": sid, "MCP-Protocol-Version": init["result"]["protocolVersion"]}
            conn = http.client.HTTPConnection(server.host, server.port, timeout=30 * SLOW)
            conn.request("POST", "/mcp", headers=headers, body=json.dumps({
                "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
                    "name": "wait", "_meta": {"progressToken": "w"},
                    "arguments": {"targets": ["@" + self.sim.id], "until": ["stop"], "timeout": 60}}}))
            resp = conn.getresponse()
            self.assertEqual(resp.status, 200)
            first = resp.readline()
            while not first.startswith(b"data:"):
                first = resp.readline()
            self.assertIn(b"notifications/progress", first)
            cancel = http.client.HTTPConnection(server.host, server.port, timeout=30)
            cancel.request("POST", "/mcp", headers=headers, body=json.dumps({
                "jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}))
            self.assertEqual(cancel.getresponse().status, 202)
            rest = b""
            while True:  # the stream ends when the call does
                line = resp.readline()
                if not line:
                    break
                rest += line
            # The wait's own end (its 60 s timeout, or "stop") would be a reply with a result: a stream that ends
            # without one was ended by the cancellation. The socket's timeout is only a hang guard.
            self.assertNotIn(b'"result"', rest)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
