"""How results read (issue #18, "Answer well"): the first content block always says what happened, in MCP's
vocabulary; structuredContent is held to the same budget as the text, with the same continuation; 2026-07-28
results name the server in _meta."""
import json
import os
import subprocess
import time
import unittest

from mcp_harness import (FIXTURE_HOME, REPO, STATELESS, HttpServer, StdioClient, binary, meta, server_env,
                         stateless_headers)

SERVER_INFO = "io.modelcontextprotocol/serverInfo"


class Answers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = StdioClient(cwd=FIXTURE_HOME)
        cls.c.initialize()

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def call(self, name, args):
        return self.c.request("tools/call", {"name": name, "arguments": args}, timeout=60)["result"]

    def test_zero_match_says_so_first_in_argument_names(self):
        args = {"pattern": "zq-never-said-zq", "label": ["user.message"]}
        r = self.call("search", args)
        self.assertFalse(r["isError"])
        self.assertEqual(len(r["content"]), 1)
        first = r["content"][0]["text"]
        self.assertIn("0 matches", first)
        self.assertIn("label user.message", first)  # the argument, where the CLI says -t
        self.assertNotIn("-t ", first)
        self.assertNotIn("csift-mcp --cli", first)
        # The CLI keeps its own vocabulary: flags.
        p = subprocess.run([binary(), "--cli", "search", "zq-never-said-zq", "-t", "user.message"],
                           capture_output=True, text=True, env=server_env(), cwd=FIXTURE_HOME, timeout=60)
        self.assertEqual(p.stdout, "")
        self.assertIn("-t user.message", p.stderr)

    def test_structured_content_is_budgeted_with_the_text(self):
        budget = 6000  # one fixture row alone renders to about 4,000 characters of JSON
        r = self.call("search", {"pattern": "e", "max_chars": budget})
        structured = json.dumps(r["structuredContent"], ensure_ascii=False, separators=(",", ":"))
        text = r["content"][0]["text"]
        self.assertLessEqual(len(structured), budget)
        self.assertLessEqual(len(text), budget)
        summary = r["structuredContent"]["summary"]
        self.assertIn("continue_with", summary, "the fixture store has more than fits")
        offset = summary["continue_with"]["row_offset"]
        self.assertIn(f"row_offset={offset}", text, "one continuation for both halves")
        # Following it reads on from there.
        r2 = self.call("search", summary["continue_with"])
        self.assertEqual(r2["structuredContent"]["summary"]["rows_skipped"], offset)

    def test_one_row_larger_than_the_budget_is_windowed_in_both_halves(self):
        import os
        import tempfile
        body = "".join(f"row {i:05d} of one very large tool output\n" for i in range(5000))  # ~200 KB
        line = {"type": "user", "sessionId": "s", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
                "message": {"role": "user", "content": body}}
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write(json.dumps(line) + "\n")
        try:
            r = self.call("show", {"targets": [f.name], "line": ["1"]})  # the default 16,000-character budget
            structured = json.dumps(r["structuredContent"], ensure_ascii=False, separators=(",", ":"))
            self.assertLessEqual(len(r["content"][0]["text"]), 16000)
            self.assertLessEqual(len(structured), 16000)
            summary = r["structuredContent"]["summary"]
            self.assertGreater(summary["row_chars_omitted"], 150000)
            nxt = summary["continue_with"]
            self.assertEqual(nxt["char_offset"], r["structuredContent"]["rows"][0]["window"]["chars_shown"])
            r2 = self.call("show", nxt)
            w2 = r2["structuredContent"]["rows"][0]["window"]
            self.assertEqual(w2["char_offset"], nxt["char_offset"])
            self.assertLessEqual(len(r2["content"][0]["text"]), 16000)
        finally:
            os.unlink(f.name)


class StatelessMeta(unittest.TestCase):
    def test_results_carry_server_info(self):
        s = HttpServer()
        try:
            for method, params in (("tools/list", {}), ("tools/call", {"name": "whoami", "arguments": {}})):
                body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": dict(params, _meta=meta())}
                st, _, reply = s.post(body, headers=stateless_headers(method, params.get("name")))
                self.assertEqual(st, 200, reply)
                self.assertEqual(reply["result"]["_meta"][SERVER_INFO]["name"], "csift-mcp", method)
        finally:
            self.assertEqual(s.stop(), 0)


class EveryRefetchIsAnswered(unittest.TestCase):
    """Every unit search returns (a hit or a frame unit: a merged elicitation-sidecar record too) carries a
    refetch, and calling it as given answers that unit: on every fixture home, one server each."""

    HOMES = [FIXTURE_HOME] + [os.path.join(REPO, "fixtures", d)
                              for d in ("home-compacted", "agents-home", "records-home", "recover-home")]

    def test_fixture_homes(self):
        for home in self.HOMES:
            with self.subTest(home=os.path.basename(home)):
                c = StdioClient(env=server_env(claude_home=home))
                try:
                    c.initialize()
                    sidecar = self.check_home(c)
                    if home == FIXTURE_HOME:
                        self.assertGreater(sidecar, 0, "fixtures/home merges an elicitation sidecar")
                finally:
                    c.close()

    def check_home(self, c):
        def call(name, args):
            r = c.request("tools/call", {"name": name, "arguments": args}, timeout=60)["result"]
            self.assertFalse(r["isError"], (name, args, r["content"]))
            return r["structuredContent"]
        rows, args = [], {"pattern": "", "max_count": 0, "max_chars": 1 << 24}
        while args:  # every page of the answer
            page = call("search", args)
            rows += page["rows"]
            args = page["summary"].get("continue_with")
        units = [x for r in rows if r["kind"] == "exchange" for x in r["hits"] + r["frame"]]
        self.assertTrue(units)
        sidecar, asked = 0, set()
        for x in units:
            refetch = x["refetch"]
            self.assertIsNotNone(refetch, (x["session_id"], x["source"], x["uuid"]))
            if json.dumps(refetch, sort_keys=True) in asked:
                continue
            asked.add(json.dumps(refetch, sort_keys=True))
            (address, value), = [(k, v) for k, v in refetch["arguments"].items() if k != "targets"]
            got = call(refetch["tool"], dict(refetch["arguments"], max_chars=1 << 24))["rows"]
            field = {"line": "line", "uuid": "uuid", "turn": "turn_index"}[address]
            self.assertIn(x[field], [r[field] for r in got if r["kind"] == "record"], refetch)
            if x["source"] == "elicitation-sidecar":
                sidecar += 1
                self.assertEqual((address, value), ("uuid", [x["uuid"]]))
        return sidecar


if __name__ == "__main__":
    unittest.main()
