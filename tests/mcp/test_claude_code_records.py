"""The transcript Claude Code itself writes (tests/mcp/claude_code: the pinned npm package, a scripted loopback
model), read back by csift-mcp: every record labelled, stats tokens equal to the scripted usage, and no false
definitive absence for text Claude Code kept only in mcpMeta and in the file it saved a too-large result to.

One conversation over stdio: ToolSearch loads show, then show with max_chars 0 over a large session of the same
store, from a server started as older servers behaved: `--max-answer-chars 0` (no answer ceiling; a server of today pages
such an answer itself) and `--structured-content always` (today Claude Code gets our text only, so there is no
mcpMeta.structuredContent). Transcripts written with older servers or other MCP servers hold Claude Code's own
fallback, and that is what this test reads. Its result is larger than Claude Code hands the model, so Claude Code writes "Output has been saved to
<session>/tool-results/mcp-csift-show-….txt" as the tool_result and keeps the result in mcpMeta.structuredContent.
A word of the large session is then in the fresh transcript only there (and in the saved file).
"""
import json
import os
import subprocess
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code"))

from claude_code import ClaudeCodeCase, converse, token_totals, usage_totals  # noqa: E402
from mcp_harness import SLOW, binary, server_env  # noqa: E402
from scripted_api import DEFAULT_USAGE, FINAL_TEXT  # noqa: E402

WORD = "ObsidianLedgerTwelve"  # only in the large session, so in the fresh one only inside the saved result
BIG = "b16b16b1-6b16-4b16-8b16-b16b16b16b16"


def usage(i, o, cr=0, cc=0):
    return {"input_tokens": i, "output_tokens": o, "cache_read_input_tokens": cr, "cache_creation_input_tokens": cc}


def write_big_session(claude):
    """A session whose whole `show` is far past Claude Code's 25,000-token limit (200 rows of ~1.2 KB)."""
    d = os.path.join(claude, "projects", "-home-dev-big")
    os.makedirs(d)
    pad = "lorem ipsum dolor sit amet " * 40
    with open(os.path.join(d, BIG + ".jsonl"), "w") as f:
        parent = None
        for n in range(120):
            for role in ("user", "assistant"):
                u = f"b16{n:05d}-0000-4000-8000-{len(role):06d}{n:06d}"
                text = (f"{WORD} " if n == 0 else "") + f"{role} {n} {pad}"
                msg = {"role": role, "content": text}
                if role == "assistant":
                    msg = {"id": f"msg_big_{n}", "type": "message", "role": role, "model": "claude-big",
                           "content": [{"type": "text", "text": text}],
                           "usage": {"input_tokens": 1, "output_tokens": 1}}
                f.write(json.dumps({"parentUuid": parent, "isSidechain": False, "type": role, "message": msg,
                                    "uuid": u, "timestamp": f"2026-11-01T10:{n // 60:02d}:{n % 60:02d}.000Z",
                                    "sessionId": BIG, "cwd": "/home/dev/big", "version": "2.1.332"}) + "\n")
                parent = u


class ClaudeCodeRecords(ClaudeCodeCase):
    def cli(self, *args):
        p = subprocess.run([binary(), "--cli", *args, "--claude-home", self.home.claude, "--format", "json"],
                           capture_output=True, env=server_env(self.home.claude), timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr.decode()[-3000:])
        rows, header, summary = [], None, None
        for line in p.stdout.decode().splitlines():
            r = json.loads(line)
            if r.get("kind") == "header":
                header = r
            elif r.get("kind") == "summary":
                summary = r
            else:
                rows.append(r)
        return rows, summary, p.stderr.decode()

    def test_the_transcript_claude_code_writes(self):
        write_big_session(self.home.claude)
        rc, out, err, _ = self.home.add_stdio(extra=["--max-answer-chars", "0", "--structured-content", "always"])
        self.assertEqual(rc, 0, out + err)
        sid = str(uuid.uuid4())
        steps = [
            {"content": [{"type": "text", "text": "Loading show."},
                         {"type": "tool_use", "name": "ToolSearch", "input": {"query": "select:mcp__csift__show"}}],
             "usage": usage(1200, 40, 0, 9000)},
            {"content": [{"type": "tool_use", "name": "mcp__csift__show",
                          "input": {"targets": ["@" + BIG], "turn": "..", "max_chars": 0}}],
             "usage": usage(300, 25, 9000, 2000)},
        ]
        api, rc, events, err, secs = converse(self.home, steps, sid, "Show me the big session.")
        self.assertEqual(rc, 0, err[-3000:])
        self.assertEqual([e.get("result") for e in events if e.get("type") == "result"], [FINAL_TEXT])
        path = [t for t in self.home.transcripts() if os.path.basename(t) == sid + ".jsonl"]
        self.assertEqual(len(path), 1, self.home.transcripts())
        with open(path[0]) as f:
            recs = [json.loads(line) for line in f]

        # Claude Code kept the result out of the model's way: the pointer it wrote, the file it names, the copy.
        carrier = [r for r in recs if r.get("type") == "user" and "mcpMeta" in r]
        self.assertEqual(len(carrier), 1, [r.get("type") for r in recs])
        pointer = carrier[0]["message"]["content"][0]["content"]
        self.assertIn("exceeds maximum allowed tokens. Output has been saved to ", pointer)
        saved = pointer.split("Output has been saved to ", 1)[1].split("\n", 1)[0].rstrip(".")
        self.assertTrue(os.path.isfile(saved), saved)
        self.assertNotIn(WORD, pointer)
        self.assertIn(WORD, json.dumps(carrier[0]["mcpMeta"]["structuredContent"]))

        # Every record labelled: show renders every line (a content-less queue dequeue as bookkeeping).
        rows, summary, _ = self.cli("show", "@" + sid, "--line", "..", "--max-count", "0")
        shown = {r["line"] for r in rows if r.get("label")}
        unshown = [(i + 1, r["type"], r.get("operation")) for i, r in enumerate(recs) if i + 1 not in shown]
        self.assertEqual(unshown, [], "records no label reaches")
        self.assertIn("api-request", {r["type"] for r in recs})  # the new shapes are there to be labelled

        # stats: exactly the scripted usage (the final answer's included), as cost-state tallies it.
        _, summary, _ = self.cli("stats", "@" + sid)
        want = usage_totals([s["usage"] for s in steps] + [DEFAULT_USAGE])
        self.assertEqual(token_totals(summary["tokens"]), want)
        cost = [r for r in recs if r.get("type") == "cost-state"]
        if cost:  # written as Claude Code exits
            # stats shows Claude Code's own figure beside its cost.
            row = [r for r in self.cli("stats", "@" + sid)[0] if r.get("kind") == "session"][0]
            self.assertEqual(row["harness_cost_usd"], cost[-1]["totalCostUSD"])
            tally = list(cost[-1]["modelUsage"].values())
            self.assertEqual(sum(m["inputTokens"] for m in tally), want["input_tokens"])
            self.assertEqual(sum(m["outputTokens"] for m in tally), want["output_tokens"])

        # No false definitive absence: the word is only in mcpMeta and the saved file.
        rows, summary, note = self.cli("search", WORD, "@" + sid)
        self.assertEqual(summary["matched_records"], 0)
        self.assertIs(summary["definitive_absence"], False, note)
        self.assertIn("--resolve-persisted", note)
        rows, summary, note = self.cli("search", WORD, "@" + sid, "--resolve-persisted")
        lines = [x["line"] for r in rows if r.get("kind") == "exchange" for x in r["hits"]]
        self.assertEqual(lines, [recs.index(carrier[0]) + 1], note)
        self.assertLess(time.monotonic() - self.started, 60 * SLOW)


if __name__ == "__main__":
    unittest.main()
