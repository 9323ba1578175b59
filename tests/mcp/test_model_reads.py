"""What a client hands its model (issue #32). Claude Code 2.1.332 hands the model a result's structuredContent,
serialised as JSON, in place of our text whenever the result has one (tests/mcp/claude_code/README.md). So for a
client known to do that (clientInfo.name "claude-code", from initialize or from a 2026-07-28 request's _meta),
tools/list declares no outputSchema and results carry no structuredContent: the model reads the text form. Every
other client keeps both (official SDK clients validate them: test_interop.py); `--structured-content
always|never` overrides. For every tool, over stdio and HTTP and in both kinds of revision, what Claude Code would
hand its model is no larger than the text form of the same rows.

And no answer over MCP is larger than what Claude Code passes on to its model (MAX_MCP_OUTPUT_TOKENS, 25,000
tokens unless set; SPEC §11): `max_chars: 0` or a budget over the ceiling pages at the ceiling, says so, and its
continuation reads everything; one row larger than the ceiling is windowed. The CLI keeps no ceiling.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from mcp_harness import (first_session_id, FIXTURE_HOME, LOCAL_ONLY_TOOLS, SANITIZED, STATELESS, HttpServer, StdioClient, binary, make_big_store,
                         meta, server_env, stateless_headers)

CLAUDE_CODE = {"name": "claude-code", "title": "Claude Code", "version": "2.1.332"}
OTHER = {"name": "csift-tests", "version": "1"}
CEILING = 45000  # answer_ceiling_for(25000): 2 characters a token, a tenth kept back for the notes
PASSED_WHOLE = 50000  # Claude Code passes a result of at most 2 characters a token on without counting it


def compact(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def text_form(result):
    """Our text form of a result: its text blocks as a client that reads content hands them on."""
    return "".join(c["text"] for c in result.get("content", []) if c.get("type") == "text")


def handed_over(result):
    """What Claude Code 2.1.332 hands its model: structuredContent as a JSON string when the result has one (an
    error result: its text), else the text blocks."""
    if "structuredContent" in result and not result.get("isError"):
        return compact(result["structuredContent"])
    return text_form(result)


def call_args(tool):
    """Arguments that give `tool` rows over the fixture home (the schema says which the tool takes)."""
    sid = first_session_id()
    props = tool["inputSchema"].get("properties", {})
    args = {"targets": ["@" + sid]} if "targets" in props else {}
    extra = {"search": {"pattern": "e"}, "show": {"turn": "-2.."}, "wait": {"timeout": 0.2},
             "sessions_mark": {"refs": ["claude-code:" + sid], "outcome": "skipped"},
             "sessions_digest": {"refs": ["claude-code:" + sid]}}
    args.update(extra.get(tool["name"], {}))
    return args


# ------------------------------------------------------------------------------ the four ways to call a tool
class Stdio:
    """A stdio server spoken to in a session revision (initialize names the client) or in 2026-07-28 (each
    request's _meta names it)."""

    def __init__(self, client, stateless, args=(), env=None):
        self.c = StdioClient(args=list(args), env=env, cwd=FIXTURE_HOME)
        self.client, self.stateless = client, stateless
        if not stateless:
            r = self.c.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                              "clientInfo": client})
            assert "result" in r, r
            self.c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def request(self, method, params):
        if self.stateless:
            params = dict(params, _meta=meta(**{"io.modelcontextprotocol/clientInfo": self.client}))
        r = self.c.request(method, params, timeout=120)
        assert "result" in r, r
        return r["result"]

    def tools(self):
        return self.request("tools/list", {})["tools"]

    def call(self, name, args):
        return self.request("tools/call", {"name": name, "arguments": args})

    def close(self):
        self.c.close()


class Http:
    def __init__(self, client, stateless, args=(), env=None):
        self.s = HttpServer(args=list(args), env=env or server_env())
        self.client, self.stateless, self.session, self.version = client, stateless, None, STATELESS
        self.next_id = 1
        if not stateless:
            st, h, body = self.s.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                       "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                                  "clientInfo": client}})
            assert st == 200, (st, body)
            self.session, self.version = h["mcp-session-id"], body["result"]["protocolVersion"]
            self.s.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session=self.session,
                        headers={"MCP-Protocol-Version": self.version})

    def request(self, method, params, name=None):
        self.next_id += 1
        if self.stateless:
            params = dict(params, _meta=meta(**{"io.modelcontextprotocol/clientInfo": self.client}))
            headers = stateless_headers(method, name)
        else:
            headers = {"MCP-Protocol-Version": self.version}
        st, _, body = self.s.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
                                  session=self.session, headers=headers, timeout=120)
        assert st == 200 and "result" in body, (st, body)
        return body["result"]

    def tools(self):
        return self.request("tools/list", {})["tools"]

    def call(self, name, args):
        return self.request("tools/call", {"name": name, "arguments": args}, name=name)

    def close(self):
        self.s.stop()


WAYS = {"stdio 2025-11-25": (Stdio, False), "stdio 2026-07-28": (Stdio, True),
        "http 2025-11-25": (Http, False), "http 2026-07-28": (Http, True)}
# Paging reads a 405,000-character JSON answer page by page (a search of the whole session each time): the Release
# pass pages every way; the sanitized pass, whose subject is memory safety and which runs it ten times slower,
# one way per transport, each revision once.
PAGING_WAYS = {k: WAYS[k] for k in ("stdio 2025-11-25", "http 2026-07-28")} if SANITIZED else WAYS


def each_way(test, client, body, args=(), env=None):
    """body(way, connection) for each transport and revision, each as a subtest."""
    for way, (make, stateless) in WAYS.items():
        with test.subTest(way=way, client=client["name"], args=args):
            conn = make(client, stateless, args=args, env=env)
            try:
                body(way, conn)
            finally:
                conn.close()


class WhatTheModelReads(unittest.TestCase):
    def test_claude_code_is_handed_no_more_than_the_text_form_for_every_tool(self):
        def body(way, conn):
            tools = conn.tools()
            names = [t["name"] for t in tools]
            self.assertEqual(len(names), 13 if way.startswith("http") else 18, names)
            self.assertFalse([n for n in names if way.startswith("http") and n in LOCAL_ONLY_TOOLS])
            larger, structured = {}, []
            for tool in tools:
                r = conn.call(tool["name"], call_args(tool))
                self.assertTrue(text_form(r).strip(), tool["name"])
                if len(handed_over(r)) > len(text_form(r)):
                    larger[tool["name"]] = (len(handed_over(r)), len(text_form(r)))
                structured += [tool["name"]] if "structuredContent" in r else []
            self.assertEqual(larger, {}, f"{way}: characters handed over vs the text form")
            # A tool without outputSchema need not send structuredContent: the listing says none comes.
            self.assertEqual(structured, [])
            self.assertEqual([t["name"] for t in tools if "outputSchema" in t], [])
        each_way(self, CLAUDE_CODE, body)

    def test_other_clients_keep_structured_content_and_output_schemas(self):
        def body(way, conn):
            tools = {t["name"]: t for t in conn.tools()}
            self.assertEqual([n for n, t in tools.items() if "outputSchema" not in t], [])
            r = conn.call("stats", call_args(tools["stats"]))
            self.assertEqual(r["structuredContent"]["summary"]["kind"], "summary")
        each_way(self, OTHER, body)

    def test_the_flag_overrides_the_client(self):
        def structured(expected):
            def body(way, conn):
                tools = {t["name"]: t for t in conn.tools()}
                self.assertEqual("outputSchema" in tools["list"], expected)
                self.assertEqual("structuredContent" in conn.call("list", {}), expected)
            return body
        each_way(self, CLAUDE_CODE, structured(True), args=["--structured-content", "always"])
        each_way(self, OTHER, structured(False), args=["--structured-content=never"])

    def test_a_bad_flag_value_stops_the_server(self):
        for mode in ([], ["--http", "--port", "0"]):
            for flag, said in ((["--structured-content", "sometimes"], "takes auto, always or never"),
                               (["--max-answer-chars=-1"], "0..1000000000 (0: no ceiling)")):
                p = subprocess.run([binary()] + mode + flag, capture_output=True, text=True, env=server_env(),
                                   timeout=60, stdin=subprocess.DEVNULL)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(said, p.stderr)


class ImagesAreCountedApart(unittest.TestCase):
    def test_an_attached_image_is_not_held_to_the_ceiling(self):
        """The ceiling bounds the text a page holds; an image travels as image content, which Claude Code counts
        apart (1,600 tokens each), so max_chars 0 still attaches one larger than the ceiling."""
        home = os.path.join(os.path.dirname(FIXTURE_HOME), "home-compacted")
        c = StdioClient(args=["--max-answer-chars", "100"], env=server_env(home))
        try:
            r = c.request("tools/call", {"name": "image", "arguments": {
                "targets": ["@c0ffee00-0000-4000-8000-0000000000c1"], "no_subagents": True, "id": ["L15i1"],
                "attach": True, "max_chars": 0}}, timeout=60)["result"]
        finally:
            c.close()
        self.assertFalse(r["isError"], r["content"][0]["text"])
        images = [x for x in r["content"] if x["type"] == "image"]
        self.assertEqual(len(images), 1)
        self.assertGreater(len(images[0]["data"]), 100)


class Ceiling(unittest.TestCase):
    """One session whose search for "lorem" renders about 112,000 characters (405,000 as JSON, the form paged
    here: 9 pages at the ceiling, more than twice what the tests ask), and one record longer than the
    ceiling."""

    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.mkdtemp(prefix="csift-mcp-ceiling-")
        make_big_store(cls.home, projects=1, sessions=1, turns=150)
        proj = os.path.join(cls.home, "projects", "-home-dev-big-0")
        cls.sid = [f[:-6] for f in os.listdir(proj)][0]
        cls.long_sid = "11111111-2222-4333-8444-555555555555"
        long_text = "".join(f"line {i} of a long answer. " for i in range(6000))  # ~160,000 characters
        with open(os.path.join(proj, cls.long_sid + ".jsonl"), "w") as f:
            f.write(json.dumps({"type": "user", "sessionId": cls.long_sid, "uuid": "u-1", "parentUuid": None,
                                "timestamp": "2026-03-01T00:00:00.000Z", "cwd": "/home/dev/big/0",
                                "message": {"role": "user", "content": long_text}}) + "\n")
        cls.long_text = long_text

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def env(self, **extra):
        return server_env(self.home, **extra)

    def cli_rows(self):
        p = subprocess.run([binary(), "--cli", "search", "lorem", "@" + self.sid, "--max-chars", "0", "--format",
                            "json", "--claude-home", self.home], capture_output=True, text=True, env=self.env(),
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [json.loads(ln) for ln in p.stdout.splitlines() if ln.strip()]
        return lines[1:-1], len(p.stdout)

    def read_paged(self, conn, args, ceiling, passed_whole):
        """Follows continue_with from `args` to the end; every answer stays under the ceiling (its notes under
        what Claude Code passes on whole)."""
        rows, pages, notes = [], 0, []
        while True:
            r = conn.call("search", args)
            self.assertFalse(r["isError"], text_form(r)[:2000])
            self.assertLessEqual(len(r["content"][0]["text"]), ceiling)
            self.assertLessEqual(len(handed_over(r)), passed_whole)
            lines = [json.loads(ln) for ln in r["content"][0]["text"].splitlines() if ln.strip()]
            summary = lines[-1]
            rows += lines[1:-1]
            notes += [c["text"] for c in r["content"][1:]]
            pages += 1
            if "continue_with" not in summary:
                return rows, pages, notes
            self.assertLess(pages, 100)
            args = summary["continue_with"]

    def test_unlimited_pages_under_the_ceiling_with_a_working_continuation(self):
        everything, cli_chars = self.cli_rows()
        self.assertGreater(cli_chars, 4 * CEILING)  # the CLI keeps no ceiling
        args = {"pattern": "lorem", "targets": ["@" + self.sid], "max_chars": 0, "format": "json"}
        for client in (CLAUDE_CODE, OTHER):
            for way, (make, stateless) in PAGING_WAYS.items():
                with self.subTest(client=client["name"], way=way):
                    conn = make(client, stateless, args=["--claude-home", self.home], env=self.env())
                    try:
                        rows, pages, notes = self.read_paged(conn, args, CEILING, PASSED_WHOLE)
                    finally:
                        conn.close()
                    self.assertGreater(pages, 4)
                    self.assertEqual([r.get("uuid") for r in rows], [r.get("uuid") for r in everything])
                    self.assertIn("max_chars 0 (no budget) was lowered to 45000", "".join(notes))

    def test_a_budget_over_the_ceiling_is_lowered_too_and_the_variable_sets_it(self):
        conn = Stdio(CLAUDE_CODE, False, args=["--claude-home", self.home], env=self.env(MAX_MCP_OUTPUT_TOKENS=20000))
        try:
            args = {"pattern": "lorem", "targets": ["@" + self.sid], "max_chars": 10 ** 9, "format": "json"}
            rows, pages, notes = self.read_paged(conn, args, 36000, 40000)  # 2 x 20,000, less a tenth
            self.assertEqual(len(rows), len(self.cli_rows()[0]))
            self.assertIn("max_chars 1000000000 was lowered to 36000", "".join(notes))
            self.assertGreater(pages, 5)
            # A budget under the ceiling is the call's own: no note.
            r = conn.call("search", dict(args, max_chars=12000))
            self.assertLessEqual(len(handed_over(r)), 12000)
            self.assertEqual(len(r["content"]), 1, r["content"][1:])
        finally:
            conn.close()
        # --max-answer-chars sets the ceiling whatever the environment says (an HTTP server's clients do not
        # share its environment); 0 takes it away.
        conn = Http(CLAUDE_CODE, True, args=["--claude-home", self.home, "--max-answer-chars", "20000"],
                    env=self.env(MAX_MCP_OUTPUT_TOKENS=20000))
        try:
            rows, pages, notes = self.read_paged(conn, dict(args, max_chars=0), 20000, 20500)
            self.assertEqual(len(rows), len(self.cli_rows()[0]))
            self.assertIn("max_chars 0 (no budget) was lowered to 20000", "".join(notes))
        finally:
            conn.close()
        conn = Stdio(CLAUDE_CODE, True, args=["--claude-home", self.home, "--max-answer-chars", "0"],
                     env=self.env())
        try:
            r = conn.call("search", dict(args, max_chars=0))
            self.assertGreater(len(text_form(r)), 4 * CEILING)
            self.assertNotIn("continue_with", json.loads(text_form(r).splitlines()[-1]))
        finally:
            conn.close()

    def test_one_row_over_the_ceiling_is_windowed_and_read_on(self):
        conn = Stdio(CLAUDE_CODE, True, args=["--claude-home", self.home], env=self.env())
        try:
            args = {"targets": ["@" + self.long_sid], "turn": "0", "max_chars": 0, "format": "json"}
            text, windows = "", 0
            while True:
                r = conn.call("show", args)
                self.assertFalse(r["isError"], text_form(r)[:2000])
                self.assertLessEqual(len(r["content"][0]["text"]), CEILING)
                self.assertLessEqual(len(handed_over(r)), PASSED_WHOLE)
                lines = [json.loads(ln) for ln in r["content"][0]["text"].splitlines() if ln.strip()]
                row, summary = lines[1], lines[-1]
                window = row["window"]
                field = row
                for key in window["field"].strip("/").split("/"):
                    field = field[int(key) if isinstance(field, list) else key]
                shown = field[field.find(") ") + 2:] if window["char_offset"] else field
                text += shown[:window["chars_shown"]]
                windows += 1
                if "continue_with" not in summary:
                    break
                args = summary["continue_with"]
            self.assertGreater(windows, 3)
            self.assertEqual(text, self.long_text)
        finally:
            conn.close()


if __name__ == "__main__":
    unittest.main()
