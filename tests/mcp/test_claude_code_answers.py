"""Claude Code itself (tests/mcp/claude_code, pinned) reads our text form (issue #32): one `claude -p` conversation
over stdio, through stdio_tap.py so each reply the server sent is known, calling list, search, show, stats and
status on the session Claude Code is writing, then search with max_chars 0 on a session whose whole answer is
about 290,000 characters. For each call the tool_result Claude Code handed its model is no larger than the text
content of our reply (the text itself: we send no structuredContent to Claude Code), and the unlimited search
arrives whole, under the ceiling, paged with our note and continuation, not saved to a file by Claude Code.

test_model_reads.py checks the same over both transports and revisions with our own client, for every tool.
"""
import json
import os
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code"))

from claude_code import ClaudeCodeCase, converse  # noqa: E402
from mcp_harness import SLOW, binary, make_big_store  # noqa: E402
from scripted_api import result_text, tool_results, tool_use_id  # noqa: E402

TAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code", "stdio_tap.py")
WORD = "QuillonZephyrMarsh"
CEILING = 45000  # what the server allows an answer with MAX_MCP_OUTPUT_TOKENS unset (SPEC §11)
PASSED_WHOLE = 50000  # Claude Code passes a result of at most this many characters on without counting it


def read_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def replies_by_call(entries):
    """[(tool name, the server's reply)] in call order, from the tap's log."""
    asked, replies = {}, {}
    for e in entries:
        m = e.get("from_client")
        if isinstance(m, dict) and m.get("method") == "tools/call":
            asked[json.dumps(m["id"])] = m["params"]["name"]
        m = e.get("from_server")
        if isinstance(m, dict) and json.dumps(m.get("id")) in asked and "result" in m:
            replies[json.dumps(m["id"])] = m["result"]
    return [(asked[k], replies.get(k)) for k in asked]


class ClaudeCodeReadsOurText(ClaudeCodeCase):
    def test_the_model_reads_no_more_than_our_text(self):
        make_big_store(self.home.claude, projects=1, sessions=1, turns=400)
        big = os.listdir(os.path.join(self.home.claude, "projects", "-home-dev-big-0"))[0][:-6]
        log = os.path.join(self.home.root, "tap.jsonl")
        rc, out, err, _ = self.home.claude_cmd(["mcp", "add", "--scope", "user", "csift", "--", sys.executable, TAP,
                                                log, self.home.claude, "--", os.path.abspath(binary()), "--claude-home",
                                                self.home.claude])
        self.assertEqual(rc, 0, out + err)
        sid = str(uuid.uuid4())
        at = ["@" + sid]
        calls = [("list", {}), ("search", {"pattern": WORD, "targets": at}), ("show", {"targets": at, "turn": "0"}),
                 ("stats", {"targets": at}), ("status", {"targets": at}),
                 ("search", {"pattern": "lorem", "targets": ["@" + big], "max_chars": 0})]
        names = sorted({n for n, _ in calls})
        steps = [{"content": [{"type": "tool_use", "name": "ToolSearch",
                               "input": {"query": "select:" + ",".join("mcp__csift__" + n for n in names)}}]}]
        steps += [{"content": [{"type": "tool_use", "name": "mcp__csift__" + n, "input": a}]} for n, a in calls]
        api, rc, events, err, secs = converse(self.home, steps, sid, f"Look up {WORD} in my sessions with csift.")
        self.assertEqual(rc, 0, err[-3000:])
        convo = api.conversation
        self.assertEqual(len(convo), len(steps) + 1, [r["path"] for r in api.requests])

        replies = replies_by_call(read_log(log))
        self.assertEqual([n for n, _ in replies], [n for n, _ in calls])
        sizes = {}
        for step, ((name, args), (_, reply)) in enumerate(zip(calls, replies), start=1):
            block = tool_results(convo[step + 1]).get(tool_use_id(step, 0))
            self.assertIsNotNone(block, f"{name}: no tool_result in the next request")
            handed = result_text(block)
            self.assertFalse(block.get("is_error"), f"{name}: {handed[:2000]}")
            ours = "".join(c["text"] for c in reply["content"] if c.get("type") == "text")
            sizes[f"{name} {json.dumps(args)[:60]}"] = (len(handed), len(ours))
            self.assertLessEqual(len(handed), len(ours), f"{name}: handed over {handed[:300]!r}")
            self.assertFalse("structuredContent" in reply, name)
            self.assertTrue(handed.strip(), name)
        print(f"\nconversation {secs:.1f} s; (handed to the model, our text) per call: {sizes}", file=sys.stderr)

        # The unlimited search reached the model: its first page under the ceiling, saying how it was paged and
        # how to read on, instead of Claude Code's note that the result was saved to a file.
        handed = result_text(tool_results(convo[len(calls) + 1]).get(tool_use_id(len(calls), 0)))
        self.assertLessEqual(len(handed), PASSED_WHOLE)
        self.assertIn(f"was lowered to {CEILING}", handed)
        self.assertRegex(handed, r"more row\(s\) cut by max_chars=45000; continue with row_offset=\d+: search ")
        self.assertNotIn("tool-results", handed)
        self.assertIn(WORD, result_text(tool_results(convo[3]).get(tool_use_id(2, 0))))
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)


if __name__ == "__main__":
    unittest.main()
