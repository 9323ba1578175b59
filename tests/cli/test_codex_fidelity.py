"""Codex at the reference's fidelity, over fixtures/fidelity/codex (make_codex_fidelity_fixtures.py): a turn
recorded only through item events keeps its prompts and every failed, declined, spawn-failed and interrupted
call; the end events (exec_command_end, patch_apply_end, mcp_tool_call_end) are each call's result, joined by
call id and never counted twice; excerpts skip the `Chunk ID … Output:` header; a `.jsonl.zst` rollout is read in
place by list, search, show, stats and the sessions_* tools, and a cut-short frame is one counted skip; a frame
corrupt in its middle is one counted skip that list, search, show, agents and sessions_digest each name, after
every line decoded before it was read."""
import os
import re
import shutil
import tempfile
import unittest

import harness as h

STORE = os.path.join(h.REPO, "fixtures", "fidelity", "codex")
ITEMS = "codex:0199c0de-0000-7000-8000-0000000000a1"
EVENTS = "codex:0199c0de-0000-7000-8000-0000000000b2"
ZST = "codex:0199c0de-0000-7000-8000-0000000000c3"
CORRUPT = "codex:0199c0de-0000-7000-8000-0000000000d4"
APPLIED = "codex:0199c0de-0000-7000-8000-0000000000e5"  # patch_apply_end's changes (tests/cli/test_harness_fold.py)
BITFLIP = "codex:0199c0de-0000-7000-8000-0000000000f6"


class CodexFidelityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="csift-codex-fidelity-")
        cls.env = h.test_env(HOME=cls.tmp, CODEX_HOME=STORE, CSIFT_STATE_DB=os.path.join(cls.tmp, "s.db"),
                             CSIFT_CONFIG=os.path.join(cls.tmp, "none.toml"))
        code, _h, rows, _s, err = h.run_json("sessions_digest", ITEMS, EVENTS, ZST, CORRUPT, env=cls.env)
        assert code == 0, err
        cls.digests = {r["ref"]: r["digest"] for r in rows if r["kind"] == "session"}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def events(self, ref):
        return {e["span"]: e for e in self.digests[ref]["events"] if e["type"] == "tool_call"}

    def test_a_turn_recorded_through_items(self):
        d = self.digests[ITEMS]
        c = d["counts"]
        # Two prompts (the legacy user_message twin of the first is the same prompt), seven calls counted once.
        self.assertEqual((c["prompts"], c["tool_calls"], c["tool_errors"], c["denials"], c["interrupts"]),
                         (2, 7, 5, 1, 1), c)
        prompts = [e for e in d["events"] if e["type"] == "prompt"]
        self.assertEqual([p["span"] for p in prompts], ["user-item-1", "user-item-2"])
        ev = self.events(ITEMS)
        self.assertEqual((ev["call_i1"]["status"], ev["call_i1"]["exit_code"]), ("error", 2))
        self.assertIn("make: *** [all] Error 2", ev["call_i1"]["excerpt"])
        self.assertEqual(ev["call_i2"]["status"], "denied")
        self.assertEqual((ev["call_i3"]["status"], ev["call_i3"]["exit_code"]), ("error", -1))
        self.assertIn("No such file or directory", ev["call_i3"]["excerpt"])
        self.assertEqual(ev["call_i4"]["excerpt"], "MCP server docs: connection refused")
        self.assertEqual(ev["call_i4"]["tool"], "docs__search")
        self.assertIn("patch does not apply", ev["call_i5"]["excerpt"])
        self.assertEqual(ev["call_i7"]["status"], "interrupted")
        self.assertEqual(d["denials"], ["call_i2"])
        self.assertEqual([(r["span"], r["of_span"]) for r in d["retries"]], [("call_i6", "call_i1")])
        self.assertEqual(d["flagged"], [{"span": "user-item-2", "phrase": "wrong"}])
        self.assertEqual(d["final_excerpt"], "The build still fails: main.c line 3 needs a semicolon.")

    def test_end_events_are_results_joined_by_call_id(self):
        d = self.digests[EVENTS]
        c = d["counts"]
        self.assertEqual((c["prompts"], c["tool_calls"], c["tool_errors"], c["denials"]), (1, 7, 5, 1), c)
        ev = self.events(EVENTS)
        self.assertEqual(set(ev), {"call_e1", "call_e2", "call_e3", "call_e4", "call_e5", "call_e6"})
        self.assertEqual((ev["call_e1"]["exit_code"], ev["call_e1"]["error_class"]), (1, "exit"))
        self.assertTrue(ev["call_e1"]["excerpt"].startswith("F.\nFAILED tests/test_app.py"), ev["call_e1"])
        self.assertIn("Failed to find expected lines", ev["call_e2"]["excerpt"])  # patch_apply_end
        self.assertEqual(ev["call_e3"]["excerpt"], "tool call failed: docs server exited")  # mcp_tool_call_end Err
        self.assertEqual(ev["call_e4"]["status"], "denied")
        # Only the output records this exit code: read from its header, which the excerpt skips.
        self.assertEqual((ev["call_e5"]["exit_code"], ev["call_e5"]["excerpt"]), (127, "zsh:1: command not found: pnpm"))
        # The output reads as ok; the later item_completed says the spawn failed.
        self.assertEqual((ev["call_e6"]["status"], ev["call_e6"]["error_class"]), ("error", "tool_error"))
        self.assertEqual([(r["span"], r["of_span"]) for r in d["retries"]], [("call_e7", "call_e1")])

    def test_compressed_rollouts_read_in_place(self):
        d = self.digests[ZST]
        ev = self.events(ZST)
        self.assertEqual((ev["call_z1"]["exit_code"], d["counts"]["prompts"]), (1, 1))
        self.assertTrue(ev["call_z1"]["excerpt"].startswith("app.py:1:1: F401"), ev["call_z1"])
        bad = self.digests[CORRUPT]["counts"]
        self.assertEqual((bad["prompts"], bad["unparsed"]), (1, 1), bad)
        code, _h, rows, summary, err = h.run_json("sessions_list", "--harness", "codex", env=self.env)
        self.assertEqual(code, 0, err)
        listed = {r["ref"]: r for r in rows if r["kind"] == "session"}
        self.assertEqual(set(listed), {ITEMS, EVENTS, ZST, CORRUPT, APPLIED, BITFLIP})
        self.assertEqual(listed[ZST]["project"], "/home/[REDACTED:home-user]/projects/api")  # scrubbed
        self.assertEqual(listed[CORRUPT]["counts"]["unparsed"], 1)
        code, _h, rows, _s, err = h.run_json("search", "F401", "--harness", "codex", env=self.env)
        self.assertEqual(code, 0, err)
        self.assertIn(ZST, {r.get("session_id") for r in rows})

    def test_a_frame_corrupt_in_its_middle_is_named_by_every_tool(self):
        named = re.compile(re.escape(BITFLIP) + r": from line (\d+) on: corrupt zstd frame: [^\n]+"
                           r" \(that rest of the file is not read; the lines before it are\)")
        code, _h, rows, _s, err = h.run_json("sessions_digest", BITFLIP, env=self.env)
        self.assertEqual(code, 0, err)
        d = next(r["digest"] for r in rows if r["kind"] == "session")
        m = named.search(err)
        self.assertTrue(m, err)
        first_unread = int(m.group(1))
        # The first two frames (305 lines) and any block of the third before the flip are read; the rest is one skip.
        self.assertGreater(first_unread, 305)
        c = d["counts"]
        self.assertEqual((c["prompts"], c["unparsed"]), (1, 1), c)
        # lines 4, 6, 8, … are calls, each output on the next line: every call before the span is counted
        self.assertEqual(c["tool_calls"], (first_unread - 1) // 2 - 1, c)
        self.assertGreaterEqual(c["tool_errors"], c["tool_calls"] - 1, c)
        ev = self.events_of(d)
        self.assertEqual((ev["call_f0"]["status"], ev["call_f0"]["exit_code"]), ("error", 1))
        self.assertIn("TimeoutError", ev["call_f0"]["excerpt"])
        for args in (("list", "--harness", "codex"), ("search", "TimeoutError", "--harness", "codex"),
                     ("show", BITFLIP, "--turn", ".."), ("agents", BITFLIP)):
            code, out, err = h.run_cli(*args, env=self.env)
            self.assertEqual(code, 0, err)
            self.assertEqual([int(n) for n in named.findall(err)], [first_unread], (args, err))
            if args[0] in ("search", "show"):
                self.assertIn("TimeoutError", out)  # read before the corrupt span

    def events_of(self, d):
        return {e["span"]: e for e in d["events"] if e["type"] == "tool_call"}

    def test_show_and_stats(self):
        code, out, err = h.run_cli("show", ITEMS, "--turn", "..", env=self.env)
        self.assertEqual(code, 0, err)
        for marker in ("[error \u00b7 exit 2]", "[denied]", "[interrupted]", "[error \u00b7 exit -1]"):
            self.assertIn(marker, out)
        code, out, err = h.run_cli("show", ZST, "--turn", "..", env=self.env)
        self.assertEqual(code, 0, err)
        self.assertIn("[error \u00b7 exit 1]", out)
        code, _h, rows, summary, err = h.run_json("stats", "--harness", "codex", env=self.env)
        self.assertEqual(code, 0, err)
        self.assertEqual(summary["sessions"], 6)
        self.assertEqual(summary["skipped_lines"], 2)  # the cut-short frame and the corrupt one
        self.assertEqual(summary["line_types"].get("(corrupt)"), 2, summary["line_types"])
        self.assertEqual(summary["line_types"].get("compacted"), 1, summary["line_types"])
        self.assertEqual(summary["line_types"].get("event_msg.exec_command_end"), 2, summary["line_types"])


if __name__ == "__main__":
    unittest.main()
