"""Claude Code itself as the client (tests/mcp/claude_code: the npm package pinned by a committed lockfile, installed
with `npm ci` when node_modules is missing; the model is a scripted loopback stand-in, so nothing leaves the
machine). Per transport (stdio spawned by Claude Code, HTTP started here): `claude mcp add --scope user` in an
isolated HOME, `claude mcp list` says Connected, then one `claude -p` conversation that loads the deferred csift
tools with ToolSearch and, on the very session Claude Code is writing, calls whoami first (bare: found by the
call's own tool_use id; then with a marker), search @self, list, search, show, stats and status, and spawns a
subagent (Agent) whose own whoami names its lane. Over stdio one more whoami reaches the server without its
tool_use id (stdio_tap.py strips it) and must be answered from Claude Code's session registry row.

What this does not assert (the model being handed structuredContent instead of the text form, the calling
record's landing lag in numbers) is measured by tests/mcp/claude_code/measure.py.
"""
import json
import os
import re
import subprocess
import sys
import time
import unittest
import uuid

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code")
sys.path.insert(0, HERE)

from claude_code import (ClaudeCodeCase, SURFACE_BUDGET, as_sent, converse, csift_names, definition_chars,  # noqa: E402
                         envelope, token_totals, usage_totals)
from mcp_harness import SLOW, HttpServer, StdioClient, binary, server_env  # noqa: E402
from scripted_api import FINAL_TEXT, DEFAULT_USAGE, result_text, tool_results, tool_use_id  # noqa: E402

# A word nothing else in the store holds: search and show must find it in the prompt Claude Code recorded.
WORD = "QuillonZephyrMarsh"
PROMPT = f"Look up {WORD} in my sessions with csift."
MARKER = "CopperLanternMoss3917"
# The subagent's prompt holds this, so the stand-in knows its requests from the main conversation's.
LANE_KEY = "LanternLaneOrchid5281"
LANE = "sub"
TAP = os.path.join(HERE, "stdio_tap.py")


def tool(name, **args):
    return {"type": "tool_use", "name": "mcp__csift__" + name, "input": args}


def usage(i, o, cr=0, cc=0):
    return {"input_tokens": i, "output_tokens": o, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cc}


def script_for(names, sid, stdio):
    """The conversation: ToolSearch select of every csift tool, then one call a step, whoami first; the last step
    spawns a subagent (in the foreground) whose own script is returned too. `calls` maps a label to (step, tool
    name), so each result can be found by the id the stand-in assigns."""
    steps = [
        {"content": [{"type": "text", "text": "Loading the csift tools."},
                     {"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:" + ",".join("mcp__csift__" + n for n in names)}}],
         "usage": usage(1200, 40, 0, 9000)},
    ]
    calls = {}

    def add(label, name, args):
        n = len(steps)
        calls[label] = (n, name)
        steps.append({"content": [tool(name, **args)], "usage": usage(280 + 10 * n, 20 + 2 * n, 9000 + 200 * n,
                                                                       100 + 10 * n)})

    add("whoami", "whoami", {})  # the first csift call: no marker, no self
    add("whoami_marker", "whoami", {"marker": MARKER, "format": "json"})
    add("search_self", "search", {"pattern": WORD, "targets": ["@self"]})
    add("list", "list", {})
    add("search", "search", {"pattern": WORD, "targets": ["@" + sid]})
    add("show", "show", {"targets": ["@" + sid], "turn": "0"})
    add("stats", "stats", {"targets": ["@" + sid], "format": "json"})
    add("status", "status", {"targets": ["@" + sid]})
    if stdio:  # stdio_tap.py strips this call's tool_use id: the registry row must answer
        add("whoami_registry", "whoami", {"self": "@main", "format": "json"})
    calls["agent"] = (len(steps), "Agent")
    steps.append({"content": [{"type": "tool_use", "name": "Agent", "input": {
        "description": "identify the lane", "prompt": f"{LANE_KEY}: which session am I?",
        "subagent_type": "general-purpose", "run_in_background": False}}], "usage": usage(400, 30, 12000, 200)})
    lane = [{"content": [{"type": "tool_use", "name": "ToolSearch", "input": {"query": "select:mcp__csift__whoami"}}]},
            {"content": [tool("whoami", format="json")]}]
    return steps, calls, lane


def structured(text):
    """A format=json result the model was handed (our JSON lines: Claude Code gets no structuredContent from us) as
    {"rows", "summary"}; None when it holds no rows (an error, or the text form)."""
    rows, summary = envelope(text)
    return {"rows": rows, "summary": summary} if rows and summary else None


class ClaudeCodeClient(ClaudeCodeCase):
    def registered_and_connected(self, add):
        rc, out, err, _ = add
        self.assertEqual(rc, 0, out + err)
        rc, out, err, secs = self.home.claude_cmd(["mcp", "list"])
        self.assertEqual(rc, 0, out + err)
        self.assertRegex(out, re.compile(r"^csift: .* - ✔ Connected$", re.M), out + err)

    def conversation(self, names, stdio):
        sid = str(uuid.uuid4())
        steps, calls, lane = script_for(names, sid, stdio)
        api, rc, events, err, secs = converse(self.home, steps, sid, PROMPT, lanes={LANE: (LANE_KEY, lane)},
                                              allowed="mcp__csift__* Agent")
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
        for label, (step, name) in calls.items():
            block = tool_results(convo[step + 1]).get(tool_use_id(step, 0))
            self.assertIsNotNone(block, f"{label}: no tool_result in the next request")
            text = result_text(block)
            self.assertFalse(block.get("is_error"), f"{label}: {text[:2000]}")
            self.assertTrue(text.strip(), label)
            results[label] = text
        self.assertIn(sid, results["list"])
        self.assertIn(WORD, results["search"])
        self.assertIn(WORD, results["show"])
        self.assertIn(sid, results["status"])

        # whoami as the first csift call, with no argument: the session is found by the call's own tool_use id
        # (Claude Code names it in _meta), whatever the transport, although the record lands after the call.
        first = tool_use_id(calls["whoami"][0], 0)
        self.assertIn(sid, results["whoami"])
        self.assertIn(first, results["whoami"], "the answer names the tool_use it was found by")
        # The bare call is answered in text (what a user's model reads): the lane and how the call was found.
        self.assertIn("lane main: this call is in a top-level transcript", results["whoami"])
        self.assertRegex(results["whoami"], "found by this call's own tool_use " + first +
                         r" \((it landed \d+ ms after the call began|already on disk)\)")
        print("whoami (first call): " + results["whoami"].splitlines()[-1], file=sys.stderr)
        # The marker path (for clients that name no tool_use) finds the same transcript.
        marked = structured(results["whoami_marker"])
        self.assertIsNotNone(marked, results["whoami_marker"][:2000])
        self.assertEqual([(r["session_id"], r["source"]) for r in marked["rows"]], [(sid, "self")])
        # @self: the transcript holding the search call itself.
        self.assertIn(WORD, results["search_self"])
        # status on its own session names this very call as the current one, not the previous call.
        self.assertIn("this very call (mcp__csift__status", results["status"])
        self.assertNotIn("in a mcp__csift__stats call", results["status"])
        # Claude Code's registry row (current format: machine-id and pid-namespace domain, procStart in clock
        # ticks) is this machine's: its owner is probed, not passed over as foreign.
        self.assertNotIn("foreign-pid-domain", results["status"])
        self.assertIn(" alive ", results["status"])
        if stdio:
            # No tool_use id reached the server for this call: Claude Code's registry row names the session.
            reg = structured(results["whoami_registry"])
            self.assertIsNotNone(reg, results["whoami_registry"][:2000])
            self.assertEqual(reg["rows"][0]["session_id"], sid)
            self.assertTrue(reg["rows"][0]["source"].startswith("registry:" + self.home.claude + "/sessions/"),
                            reg["rows"][0]["source"])
            self.assertNotIn("caller_call", reg["summary"])

        # The subagent's own whoami names its lane: is_subagent, its parent session, depth 0.
        lane_convo = api.lane_conversation[LANE]
        self.assertEqual(len(lane_convo), len(lane) + 1, [r["kind"] for r in api.requests])
        block = tool_results(lane_convo[2]).get(tool_use_id(1, 0, LANE))
        self.assertIsNotNone(block, "the subagent's whoami has no result")
        self.assertFalse(block.get("is_error"), result_text(block)[:2000])
        lane_who = structured(result_text(block))
        self.assertIsNotNone(lane_who, result_text(block)[:2000])
        row = lane_who["rows"][0]
        self.assertEqual((row["is_subagent"], row["parent_session_id"], row["depth"]), (True, sid, 0))
        self.assertEqual(row["source"], "tool_use:" + tool_use_id(1, 0, LANE))
        self.assertEqual(lane_who["rows"][-1]["session_id"], sid)
        self.assertEqual(lane_who["summary"]["lane"], "subagent")
        lanes = [t for t in self.home.transcripts() if "/subagents/" in t]
        self.assertEqual([os.path.basename(t) for t in lanes], [f"agent-{row['session_id']}.jsonl"])

        # stats during the conversation counts the usage of the turns Claude Code had written by then. Claude Code
        # flushes its transcript about every 100 ms, so how many of the steps up to the stats call's own had
        # reached the file varies from run to run (the real-client issue measured the lag); what never varies is
        # that the count is the scripted usage of a whole prefix of the steps: nothing counted twice or in part.
        _, summary = envelope(results["stats"])
        self.assertIsNotNone(summary, results["stats"][:2000])
        seen = token_totals(summary["tokens"])
        stats_step = calls["stats"][0]
        prefixes = [usage_totals([s["usage"] for s in steps[:k]]) for k in range(0, stats_step + 2)]
        self.assertIn(seen, prefixes)
        print(f"stats mid-conversation saw {prefixes.index(seen)} of the {stats_step + 1} steps up to its own",
              file=sys.stderr)

        # stats over the finished main transcript: exactly the scripted usage, the final answer's included.
        transcripts = [t for t in self.home.transcripts() if "/subagents/" not in t]
        self.assertEqual([os.path.basename(t) for t in transcripts], [sid + ".jsonl"])
        argv = [binary(), "--cli", "stats", "@" + sid, "--no-subagents", "--claude-home", self.home.claude,
                "--format", "json"]
        p = subprocess.run(argv, capture_output=True, env=server_env(self.home.claude), timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        _, summary = envelope(p.stdout.decode())
        self.assertEqual(token_totals(summary["tokens"]),
                         usage_totals([s["usage"] for s in steps] + [DEFAULT_USAGE]))
        tools = {"ToolSearch": 1}
        for _, name in calls.values():
            key = name if name == "Agent" else "mcp__csift__" + name
            tools[key] = tools.get(key, 0) + 1
        self.assertEqual(summary["tools"], tools)
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
        # Through stdio_tap.py, which removes the tool_use id of the one call whose self is @main (and is
        # otherwise a plain pass-through): the server's parent is the tap, its grandparent Claude Code.
        self.registered_and_connected(self.home.claude_cmd(
            ["mcp", "add", "--scope", "user", "csift", "--", sys.executable, TAP, "-", self.home.claude, "--quiet",
             "--strip-tool-use-id-when", "self=@main", "--", binary(), "--claude-home", self.home.claude]))
        self.conversation(csift_names(), stdio=True)
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)

    def test_http(self):
        s = HttpServer(args=["--claude-home", self.home.claude], env=server_env(self.home.claude))
        try:
            self.registered_and_connected(self.home.add_http(f"http://127.0.0.1:{s.port}/mcp"))
            self.conversation(csift_names(http=True), stdio=False)
        finally:
            self.assertEqual(s.stop(), 0)
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)


if __name__ == "__main__":
    unittest.main()
