"""Claude Code itself as the client (tests/mcp/claude_code: the npm package pinned by a committed lockfile, installed
with `npm ci` when node_modules is missing; the model is a scripted loopback stand-in, so nothing leaves the
machine). Per transport (stdio spawned by Claude Code, HTTP started here): `claude mcp add --scope user` in an
isolated HOME, `claude mcp list` says Connected, then one `claude -p` conversation that loads the deferred csift
tools with ToolSearch and calls list, search, show, stats and status on the very session Claude Code is writing.

What this asserts is what holds with Claude Code as of the pinned version; what does not hold yet (whoami's marker
on the first call, the registry row's new format, the model being handed structuredContent instead of the text
form) is measured by tests/mcp/claude_code/measure.py, not asserted here.
"""
import json
import os
import re
import subprocess
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code"))

from claude_code import (SURFACE_BUDGET, Home, as_sent, converse, csift_names, definition_chars,  # noqa: E402
                         ensure_installed, envelope, token_totals, usage_totals)
from mcp_harness import SLOW, HttpServer, StdioClient, binary, server_env  # noqa: E402
from scripted_api import FINAL_TEXT, DEFAULT_USAGE, result_text, tool_results, tool_use_id  # noqa: E402

# A word nothing else in the store holds: search and show must find it in the prompt Claude Code recorded.
WORD = "QuillonZephyrMarsh"
PROMPT = f"Look up {WORD} in my sessions with csift."


def tool(name, **args):
    return {"type": "tool_use", "name": "mcp__csift__" + name, "input": args}


def usage(i, o, cr=0, cc=0):
    return {"input_tokens": i, "output_tokens": o, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cc}


def script_for(names, sid):
    """The conversation: ToolSearch select of every csift tool, then one call a step. (step, call name) of each
    call is returned alongside, so the results can be found by the ids the stand-in assigns."""
    steps = [
        {"content": [{"type": "text", "text": "Loading the csift tools."},
                     {"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:" + ",".join("mcp__csift__" + n for n in names)}}],
         "usage": usage(1200, 40, 0, 9000)},
        {"content": [tool("list")], "usage": usage(300, 25, 9000, 2000)},
        {"content": [tool("search", pattern=WORD, targets=["@" + sid])], "usage": usage(310, 27, 11000, 150)},
        {"content": [tool("show", targets=["@" + sid], turn="0")], "usage": usage(320, 29, 11150, 160)},
        {"content": [tool("stats", targets=["@" + sid], format="json")], "usage": usage(330, 31, 11310, 170)},
        {"content": [tool("status", targets=["@" + sid])], "usage": usage(340, 33, 11480, 180)},
    ]
    calls = {"list": 1, "search": 2, "show": 3, "stats": 4, "status": 5}
    return steps, calls


class ClaudeCodeClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ensure_installed()

    def setUp(self):
        self.home = Home()
        self.started = time.monotonic()

    def tearDown(self):
        self.home.cleanup()

    def registered_and_connected(self, add):
        rc, out, err, _ = add
        self.assertEqual(rc, 0, out + err)
        rc, out, err, secs = self.home.claude_cmd(["mcp", "list"])
        self.assertEqual(rc, 0, out + err)
        self.assertRegex(out, re.compile(r"^csift: .* - ✔ Connected$", re.M), out + err)

    def conversation(self, names):
        sid = str(uuid.uuid4())
        steps, calls = script_for(names, sid)
        api, rc, events, err, secs = converse(self.home, steps, sid, PROMPT)
        print(f"\nconversation: {secs:.1f} s, {len(api.conversation)} conversation requests, "
              f"{len(api.requests) - len(api.conversation)} other requests", file=sys.stderr)
        self.assertEqual(rc, 0, err[-3000:])
        final = [e for e in events if e.get("type") == "result"]
        self.assertEqual(len(final), 1, err[-3000:])
        self.assertEqual(final[0].get("subtype"), "success", final[0])
        self.assertEqual(final[0].get("result"), FINAL_TEXT)
        self.assertEqual(final[0].get("session_id"), sid)
        convo = api.conversation
        # Each step's tool_results arrive in the next request, and the final answer needs one more.
        self.assertEqual(len(convo), len(steps) + 1, [r["path"] for r in api.requests])
        prefixed = ["mcp__csift__" + n for n in names]

        # Deferred: the first request names every csift tool (in its text) but defines none of them.
        first = convo[0]
        defined = [t["name"] for t in first.get("tools", [])]
        self.assertFalse([n for n in defined if n.startswith("mcp__csift__")], defined)
        dumped = json.dumps(first)
        self.assertEqual([n for n in prefixed if n not in dumped], [], "deferred tools the first request does not name")

        # ToolSearch's answer references every selected tool, and the next request defines each of them (deferred).
        refs = tool_results(convo[1]).get(tool_use_id(0, 1))
        self.assertIsNotNone(refs, "no ToolSearch result")
        self.assertFalse(refs.get("is_error"), refs)
        self.assertEqual(sorted(b.get("tool_name") for b in refs["content"] if b.get("type") == "tool_reference"),
                         sorted(prefixed))
        for body in convo[1:]:
            csift = {t["name"]: t for t in body.get("tools", []) if t["name"].startswith("mcp__csift__")}
            self.assertEqual(sorted(csift), sorted(prefixed))
            for t in csift.values():
                self.assertTrue(t.get("description"), t["name"])
                self.assertEqual(t["input_schema"].get("type"), "object", t["name"])
                self.assertIs(t.get("defer_loading"), True, t["name"])

        # The tool surface as Claude Code sent it: within the budget, counted exactly as test_tool_surface.py counts
        # it from tools/list (so that cheap test measures what the model receives), no description repeated in
        # input_schema, nothing Claude Code had to rewrite (every string ASCII).
        sent = [t for t in convo[1]["tools"] if t["name"].startswith("mcp__csift__")]
        sent_chars = sum(definition_chars(t["name"], t["description"], t["input_schema"]) for t in sent)
        c = StdioClient()
        try:
            ours = {t["name"]: t for t in c.request("tools/list")["result"]["tools"]}
        finally:
            c.close()
        self.assertEqual(sent_chars, sum(definition_chars(*as_sent(ours[n])) for n in names))
        self.assertLessEqual(sent_chars, SURFACE_BUDGET)
        print(f"tool surface as sent: {sent_chars} characters for {len(sent)} tools", file=sys.stderr)
        for t in sent:
            self.assertNotIn("description", t["input_schema"], t["name"])
            self.assertTrue(json.dumps(t, ensure_ascii=False).isascii(), t["name"])
            self.assertEqual(t["description"], ours[t["name"][len("mcp__csift__"):]]["description"])

        # Every call's result reached the model (in the request after its step), not as an error.
        results = {}
        for name, step in calls.items():
            block = tool_results(convo[step + 1]).get(tool_use_id(step, 0))
            self.assertIsNotNone(block, f"{name}: no tool_result in the next request")
            text = result_text(block)
            self.assertFalse(block.get("is_error"), f"{name}: {text[:2000]}")
            self.assertTrue(text.strip(), name)
            results[name] = text
        self.assertIn(sid, results["list"])
        self.assertIn(WORD, results["search"])
        self.assertIn(WORD, results["show"])
        self.assertIn(sid, results["status"])

        # stats during the conversation counts the usage of the turns Claude Code had written by then. Claude Code
        # flushes its transcript about every 100 ms, so how many of the steps up to the stats call's own had
        # reached the file varies from run to run (the real-client issue measured the lag); what never varies is
        # that the count is the scripted usage of a whole prefix of the steps: nothing counted twice or in part.
        _, summary = envelope(results["stats"])
        self.assertIsNotNone(summary, results["stats"][:2000])
        seen = token_totals(summary["tokens"])
        prefixes = [usage_totals([s["usage"] for s in steps[:k]]) for k in range(0, calls["stats"] + 2)]
        self.assertIn(seen, prefixes)
        print(f"stats mid-conversation saw {prefixes.index(seen)} of the {calls['stats'] + 1} steps up to its own",
              file=sys.stderr)

        # stats over the finished transcript: exactly the scripted usage, the final answer's included.
        transcripts = self.home.transcripts()
        self.assertEqual([os.path.basename(t) for t in transcripts], [sid + ".jsonl"])
        argv = [binary(), "--cli", "stats", "@" + sid, "--claude-home", self.home.claude, "--format", "json"]
        p = subprocess.run(argv, capture_output=True, env=server_env(self.home.claude), timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        _, summary = envelope(p.stdout.decode())
        self.assertEqual(token_totals(summary["tokens"]),
                         usage_totals([s["usage"] for s in steps] + [DEFAULT_USAGE]))
        self.assertEqual(summary["tools"], dict({"ToolSearch": 1}, **{"mcp__csift__" + n: 1 for n in calls}))
        return secs

    def test_tool_search_finds_the_tool_for_a_users_words(self):
        """Claude Code's ToolSearch (keyword form, not select:) ranks the right csift tool first for the words a
        user says; it scores names, descriptions and _meta["anthropic/searchHint"]."""
        self.registered_and_connected(self.home.add_stdio())
        asks = {"search my session history": "search", "which files did I change": "files",
                "recover a file": "recover", "is that session done": "status", "which session am I": "whoami"}
        steps = [{"content": [{"type": "tool_use", "name": "ToolSearch", "input": {"query": q, "max_results": 3}}]}
                 for q in asks] + [None]
        api, rc, events, err, secs = converse(self.home, steps, str(uuid.uuid4()), PROMPT)
        self.assertEqual(rc, 0, err[-3000:])
        found = {}
        for i, q in enumerate(asks):
            block = tool_results(api.conversation[i + 1]).get(tool_use_id(i, 0)) or {}
            found[q] = [b.get("tool_name") for b in block.get("content") or []
                        if isinstance(b, dict) and b.get("type") == "tool_reference"]
        self.assertEqual({q: (f[:1] or [None])[0] for q, f in found.items()},
                         {q: "mcp__csift__" + t for q, t in asks.items()}, found)

    def test_stdio(self):
        self.registered_and_connected(self.home.add_stdio())
        self.conversation(csift_names())
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)

    def test_http(self):
        s = HttpServer(args=["--claude-home", self.home.claude], env=server_env(self.home.claude))
        try:
            self.registered_and_connected(self.home.add_http(f"http://127.0.0.1:{s.port}/mcp"))
            self.conversation(csift_names(http=True))
        finally:
            self.assertEqual(s.stop(), 0)
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)


if __name__ == "__main__":
    unittest.main()
