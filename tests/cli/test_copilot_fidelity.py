"""Copilot CLI at the reference's fidelity, over fixtures/fidelity/copilot (two sessions in the event shapes of
Copilot CLI 1.0.52 and 0.0.376, whose calls are named only by execution events): sessions_digest, search, show
and stats surface every failed, denied, interrupted and repeated call with its exit code and an excerpt of its
output (not the shell's exit-code trailer); a sub-agent's prompt is never the user's, and its calls are not the
session's. The fixture generator reproduces the committed store."""
import os
import shutil
import tempfile
import unittest

import harness as h

HOME = os.path.join(h.REPO, "fixtures", "fidelity", "copilot")
CURRENT = "copilot:c0f1de00-0000-4000-8000-00000000c052"
OLDER = "copilot:c0f1de00-0000-4000-8000-00000000c376"
MIGRATE_OUT = 'migrating 0042_orders.sql\nerror: relation "orders" already exists'
CART_OUT = "FAIL src/cart.test.js\n  expected 3 items, got 2"

# Per session: counts, then each failing call (span, tool, status, exit code, excerpt), then retries and flags.
EXPECTED = {
    CURRENT: {
        "counts": {"entries": 29, "prompts": 2, "tool_calls": 6, "tool_errors": 2, "interrupts": 1, "denials": 1,
                   "unparsed": 0},
        "calls": [("a05", "bash", "error", 2, MIGRATE_OUT),
                  ("a09", "bash", "error", 2, MIGRATE_OUT),
                  ("a13", "bash", "denied", None,
                   "denied-interactively-by-user: never drop tables, write a migration"),
                  ("a26", "bash", "interrupted", None, "aborted before the call returned")],
        "prompts": ["a02", "a28"],
        "retries": [{"span": "a09", "of_span": "a05", "tool": "bash"}],
        "denials": ["a13"],
        "flagged": [{"span": "a28", "phrase": "does not work"}],
        "final": "I wrote 0043_orders_fix.sql instead.",
    },
    OLDER: {
        "counts": {"entries": 25, "prompts": 2, "tool_calls": 7, "tool_errors": 2, "interrupts": 1, "denials": 1,
                   "unparsed": 0},
        "calls": [("b05", "bash", "error", 1, CART_OUT),
                  ("b07", "bash", "error", 1, CART_OUT),
                  ("b11", "bash", "denied", None, "The user rejected this tool call."),
                  ("b22", "bash", "interrupted", None, "aborted before the call returned")],
        "prompts": ["b02", "b24"],
        "retries": [{"span": "b07", "of_span": "b05", "tool": "bash"}],
        "denials": ["b11"],
        "flagged": [{"span": "b24", "phrase": "still fails"}],
        "final": "The cart test now passes; the watcher was stopped.",
    },
}


class CopilotFidelityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="csift-copilot-fidelity-")
        cls.env = h.test_env(COPILOT_HOME=HOME, CSIFT_STATE_DB=os.path.join(cls.tmp, "state.db"),
                             CSIFT_CONFIG=os.path.join(cls.tmp, "none.toml"),
                             XDG_DATA_HOME=os.path.join(cls.tmp, "data"), HOME=cls.tmp)
        for var in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "OPENCODE_DB", "XDG_CONFIG_HOME",
                    "CURSOR_CONFIG_DIR"):
            cls.env.pop(var, None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def run_json(self, tool, *args):
        code, header, rows, summary, err = h.run_json(tool, *args, env=self.env)
        self.assertEqual(code, 0, err)
        return header, rows, summary

    def test_generator_reproduces_the_store(self):
        h.assert_generator_reproduces(self, "make_copilot_fidelity_fixtures.py", HOME)

    def test_digest_surfaces_every_failed_denied_interrupted_and_repeated_call(self):
        _h, rows, _s = self.run_json("sessions_digest", CURRENT, OLDER)
        digests = {r["digest"]["ref"]: r["digest"] for r in rows if r["kind"] == "session"}
        self.assertEqual(set(digests), set(EXPECTED))
        for ref, want in EXPECTED.items():
            with self.subTest(ref=ref):
                d = digests[ref]
                self.assertEqual(d["counts"], want["counts"])
                calls = [(e["span"], e["tool"], e["status"], e["exit_code"], e["excerpt"])
                         for e in d["events"] if e["type"] == "tool_call"]
                self.assertEqual(calls, want["calls"])
                self.assertEqual([e["span"] for e in d["events"] if e["type"] == "prompt"], want["prompts"])
                self.assertEqual([{k: r[k] for k in ("span", "of_span", "tool")} for r in d["retries"]],
                                 want["retries"])
                self.assertEqual(d["denials"], want["denials"])
                self.assertEqual(d["flagged"], want["flagged"])
                self.assertEqual(d["final_excerpt"], want["final"])
                self.assertEqual(d["project"], "/home/[REDACTED:home-user]/projects/shop")  # a digest is scrubbed
                # The exit-code trailer is framing: it is in no excerpt.
                self.assertNotIn("exit code", " ".join(e.get("excerpt", "") for e in d["events"]))

    def test_show_renders_each_call_with_its_status(self):
        for ref, markers in ((CURRENT, ["[error · exit 2]", "[denied]", "[interrupted]"]),
                             (OLDER, ["[error · exit 1]", "[denied]", "[interrupted]"])):
            with self.subTest(ref=ref):
                code, out, err = h.run_cli("show", ref, "--turn", "..", env=self.env)
                self.assertEqual(code, 0, err)
                for marker in markers:
                    self.assertIn(marker, out)
                # The record keeps its text verbatim: the trailer is still there to read.
                self.assertIn("exit code", out)
                # The sub-agent's prompt is not shown as the user's.
                self.assertNotIn("the last listing was wrong", out)

    def test_search_finds_each_failure_paired_with_its_call_and_status(self):
        _h, rows, _s = self.run_json("search", "already exists|expected 3 items|never drop|rejected this|aborted before",
                                     "--harness", "copilot")
        hits = [hit for r in rows if r["kind"] == "exchange" for hit in r["hits"]]
        markers = {(hit["session_id"], hit["tool_use_id"]): hit["marker"] for hit in hits if hit["tool_use_id"]}
        self.assertEqual(markers, {(CURRENT, "c1"): "[error · exit 2]", (CURRENT, "c2"): "[error · exit 2]",
                                   (CURRENT, "c4"): "[denied]", (CURRENT, "c6"): "[interrupted]",
                                   (OLDER, "o1"): "[error · exit 1]", (OLDER, "o2"): "[error · exit 1]",
                                   (OLDER, "o4"): "[denied]", (OLDER, "o6"): "[interrupted]"})
        self.assertEqual({hit["pairing"] for hit in hits if hit["tool_use_id"]}, {"paired"})
        # The sub-agent's prompt is no user message of the session.
        _h, rows, _s = self.run_json("search", "the last listing was wrong", "--harness", "copilot",
                                     "--label", "user.message")
        self.assertEqual([r for r in rows if r["kind"] == "exchange"], [])

    def test_stats_counts_the_calls_the_log_holds(self):
        # Every call the session's own agent made, the user's `!` command included; not the sub-agent's, whose
        # tokens and prompt are not the session's either.
        for ref, tools, turns in ((CURRENT, {"bash": 4, "view": 1, "task": 1}, 2),
                                  (OLDER, {"bash": 5, "edit": 1, "reviewer": 1}, 2)):
            with self.subTest(ref=ref):
                _h, rows, _s = self.run_json("stats", ref)
                session = [r for r in rows if r["kind"] == "session"][0]
                self.assertEqual(session["tools"], tools)
                self.assertEqual(session["turns"], turns)
                self.assertNotIn("claude-haiku-4.5", session["tokens"])

if __name__ == "__main__":
    unittest.main()
