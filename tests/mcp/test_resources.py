"""Sessions as MCP resources (issue #18, item 10): every session and subagent transcript of the store is listed
(paged) as csift://session/<id> or csift://agent/<id> with its first human message as title, two templates name
the same addresses, and each reads as the `show --turn ..` rendering. On stdio, over HTTP with a session and
stateless (2026-07-28)."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from mcp_harness import FIXTURE_HOME, HttpServer, StdioClient, binary, meta, server_env, stateless_headers


def transcripts_in_fixture():
    n = 0
    for root, _, files in os.walk(os.path.join(FIXTURE_HOME, "projects")):
        n += sum(1 for f in files if f.endswith(".jsonl"))
    return n


class Resources(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = StdioClient(env=server_env(CSIFT_MCP_PAGE_SIZE=5))
        cls.init = cls.c.initialize()

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def all_resources(self):
        out, cursor = [], None
        for _ in range(100):  # bounded: the fixture store has a few dozen transcripts at most
            r = self.c.request("resources/list", {"cursor": cursor} if cursor else {})["result"]
            self.assertLessEqual(len(r["resources"]), 5)
            out += r["resources"]
            cursor = r.get("nextCursor")
            if not cursor:
                return out
        self.fail("resources/list never ended")

    def test_capability_and_paged_listing(self):
        self.assertIn("resources", self.init["result"]["capabilities"])
        res = self.all_resources()
        uris = [r["uri"] for r in res]
        self.assertEqual(len(uris), len(set(uris)), "no resource listed twice across pages")
        self.assertGreater(len(uris), 5, "more than one page")
        self.assertTrue(any(u.startswith("csift://agent/") for u in uris))
        self.assertTrue(any(u.startswith("csift://session/") for u in uris))
        titled = {r["uri"]: r["title"] for r in res}
        self.assertEqual(titled["csift://session/55555555-5555-4555-8555-000000000005"],
                         "Fix the date parser in legacy-app; it breaks on ISO weeks.")
        bad = self.c.request("resources/list", {"cursor": "nope"})
        self.assertEqual(bad["error"]["code"], -32602)

    def test_every_resource_reads_as_show(self):
        for r in self.all_resources():
            with self.subTest(uri=r["uri"]):
                got = self.c.request("resources/read", {"uri": r["uri"]})
                self.assertIn("result", got, got)
                content = got["result"]["contents"][0]
                self.assertEqual((content["uri"], content["mimeType"]), (r["uri"], "text/plain"))
                self.assertTrue(content["text"].strip())
        # The same rendering the CLI gives for show --turn .., up to how each surface names the argument (the
        # header's address reads `turn ..` over MCP, `--turn ..` on the CLI).
        uri = "csift://session/55555555-5555-4555-8555-000000000005"
        text = self.c.request("resources/read", {"uri": uri})["result"]["contents"][0]["text"]
        p = subprocess.run([binary(), "--cli", "show", "@55555555-5555-4555-8555-000000000005", "--turn", ".."],
                           capture_output=True, text=True, env=server_env(), timeout=60)
        self.assertIn(" · turn .. · ", text)
        self.assertEqual(text, p.stdout.replace(" · --turn .. · ", " · turn .. · ", 1))

    def test_templates_and_unknown_addresses(self):
        t = self.c.request("resources/templates/list")["result"]["resourceTemplates"]
        self.assertEqual(sorted(x["uriTemplate"] for x in t), ["csift://agent/{id}", "csift://session/{id}"])
        # A uuid prefix works through the template.
        got = self.c.request("resources/read", {"uri": "csift://session/55555555"})
        self.assertIn("result", got)
        for uri in ("csift://session/0000dead", "file:///etc/passwd", "csift://session/-Users-dev-legacy-app",
                    "csift://session/"):
            with self.subTest(uri=uri):
                self.assertEqual(self.c.request("resources/read", {"uri": uri})["error"]["code"], -32002)


LIVE = "d0d0d0d0-0000-4000-8000-000000000001"


def live_line(n, text):
    return json.dumps({"type": "user", "sessionId": LIVE, "cwd": "/home/dev/live", "uuid": f"0-{n}",
                       "timestamp": f"2026-11-30T10:00:{n:02d}.000Z",
                       "message": {"role": "user", "content": text}}) + "\n"


class Subscriptions(unittest.TestCase):
    """resources/subscribe on a live session: notifications/resources/updated when its transcript grows."""

    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="csift-live-")
        self.path = os.path.join(self.home, "projects", "-home-dev-live", LIVE + ".jsonl")
        os.makedirs(os.path.dirname(self.path))
        with open(self.path, "w") as f:
            f.write(live_line(1, "watch me grow"))

    def tearDown(self):
        shutil.rmtree(self.home, ignore_errors=True)

    def grow(self, n):
        with open(self.path, "a") as f:
            f.write(live_line(n, f"line {n}"))

    def test_stdio_subscribe_notifies_growth(self):
        c = StdioClient(env=server_env(self.home))
        try:
            init = c.initialize()
            self.assertTrue(init["result"]["capabilities"]["resources"]["subscribe"])
            uri = "csift://session/" + LIVE
            updated = lambda m: m.get("method") == "notifications/resources/updated"  # noqa: E731
            # Subscribed through a prefix of the id: the notification names the address subscribed.
            self.assertEqual(c.request("resources/subscribe", {"uri": "csift://session/d0d0d0d0"})["result"], {})
            self.assertEqual(c.request("resources/subscribe", {"uri": uri})["result"], {})
            self.grow(2)
            seen = lambda: {m["params"]["uri"] for _, m in c.log if updated(m)}  # noqa: E731
            c.wait_for(lambda m: updated(m) and len(seen()) == 2, timeout=10)
            self.assertEqual(seen(), {uri, "csift://session/d0d0d0d0"})
            # After unsubscribing both, growth is silent: a ping sent after several watch intervals comes back
            # with no notification before it.
            for u in (uri, "csift://session/d0d0d0d0"):
                self.assertEqual(c.request("resources/unsubscribe", {"uri": u})["result"], {})
            before = sum(1 for _, m in c.log if updated(m))
            self.grow(3)
            time.sleep(1.5)
            c.request("ping")
            self.assertEqual(sum(1 for _, m in c.log if updated(m)), before)
            # An address that names no transcript is refused.
            bad = c.request("resources/subscribe", {"uri": "csift://session/0000dead"})
            self.assertEqual(bad["error"]["code"], -32002)
            # 2026-07-28 has no subscriptions; the refusal leaves the request id free for the next request.
            for _ in range(2):
                r = c.request("resources/subscribe", {"uri": uri, "_meta": meta()}, id=77)
                self.assertEqual(r["error"]["code"], -32601)
        finally:
            c.close()

    def test_http_does_not_offer_subscribe(self):
        s = HttpServer(env=server_env(self.home))
        try:
            sid, init = s.initialize()
            self.assertFalse(init["result"]["capabilities"]["resources"]["subscribe"])
            h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}
            st, _, body = s.post({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                                  "params": {"uri": "csift://session/" + LIVE}}, session=sid, headers=h)
            self.assertEqual((st, body["error"]["code"]), (200, -32601))
            # The id is free again: a refused subscribe left nothing registered.
            st, _, body = s.post({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                                  "params": {"uri": "csift://session/" + LIVE}}, session=sid, headers=h)
            self.assertEqual((st, body["error"]["code"]), (200, -32601))
        finally:
            s.stop()


class ResourcesOverHttp(unittest.TestCase):
    def test_session_and_stateless(self):
        s = HttpServer()
        try:
            sid, init = s.initialize()
            h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}
            st, _, body = s.post({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}, session=sid, headers=h)
            self.assertEqual(st, 200)
            uri = body["result"]["resources"][0]["uri"]
            st, _, body = s.post({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": uri}},
                                 session=sid, headers=h)
            self.assertEqual((st, body["result"]["contents"][0]["uri"]), (200, uri))
            params = {"uri": uri, "_meta": meta()}
            st, _, body = s.post({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": params},
                                 headers=stateless_headers("resources/read", uri))
            self.assertEqual(st, 200, body)
            self.assertEqual(body["result"]["resultType"], "complete")
            self.assertTrue(body["result"]["contents"][0]["text"].strip())
        finally:
            self.assertEqual(s.stop(), 0)


if __name__ == "__main__":
    unittest.main()
