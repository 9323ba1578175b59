"""`csift-mcp --cli verbatim` (SPEC.md §9.8) on fixtures/home-compacted session C1, which has two compactions:
the turns the summaries clipped come back verbatim and in file order across both boundaries, within the
budget, with JSON accounting that adds up (rows' rendered_chars sum to chars_used; a truncated unit's kept
and elided characters sum to its full_chars); the round-trip floor, the agent_msgs modes, dedup against the
newest summary, the compaction cap, the turn window, and hook chunking (slice / slices / window / out).
"""
import os
import tempfile
import unittest

import harness as h
import media_fixture as mf

HOME = mf.COMPACTED_HOME
UNIT_KINDS = ("turn", "collapsed_agents", "compaction_boundary")


def verbatim_json(*args):
    return h.run_json("verbatim", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", *args)


def full_texts():
    """line -> the text a turn row must carry: a user prompt's text, or an assistant record's text blocks."""
    out = {}
    for line, r in mf.records(mf.C1_PATH):
        content = (r.get("message") or {}).get("content")
        if isinstance(content, str):
            out[line] = content.strip()
        elif isinstance(content, list):
            texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
            if texts:
                out[line] = "\n\n".join(texts).strip()
    return out


class Accounting(unittest.TestCase):
    def check_accounting(self, rows, budget):
        sessions = h.rows_of(rows, "session")
        self.assertEqual(len(sessions), 1)
        units = [r for r in rows if r["kind"] in UNIT_KINDS]
        self.assertEqual(sum(r["rendered_chars"] for r in units), sessions[0]["chars_used"])
        self.assertLessEqual(sessions[0]["chars_used"], budget)
        lines = [r["line"] for r in units]
        self.assertEqual(lines, sorted(lines))
        texts = full_texts()
        for r in h.rows_of(rows, "turn"):
            self.assertEqual(r["text"], texts[r["line"]], r["line"])
            self.assertEqual(r["full_chars"], len(r["text"]))
            if r["truncated"]:
                self.assertEqual(r["head_chars"] + r["tail_chars"] + r["elided_chars"], r["full_chars"])
            else:
                self.assertEqual(r["elided_chars"], 0)
        return sessions[0]

    def test_restores_across_two_compactions_within_budget(self):
        code, header, rows, summary, err = verbatim_json()
        self.assertEqual(code, 0, err)
        session = self.check_accounting(rows, header["budget"])
        self.assertEqual((session["boundaries_total"], session["boundaries_spanned"]), (2, 2))
        self.assertEqual([r["line"] for r in h.rows_of(rows, "compaction_boundary")], [14, 22])
        turns = {r["line"]: r for r in h.rows_of(rows, "turn")}
        # The long request the first summary clipped to a "..." bullet comes back whole, two boundaries back.
        summary_line = dict(mf.records(mf.C1_PATH))[14]["message"]["content"]
        clipped = [l for l in summary_line.splitlines() if "The CSV importer drops rows" in l][0]
        self.assertTrue(clipped.rstrip().endswith('..."'))
        self.assertGreater(len(turns[9]["text"]), len(clipped))
        self.assertEqual(turns[9]["compactions_before"], 2)
        self.assertTrue(turns[9]["truncated"])  # over the 600-character user cap: middle-elided
        self.assertTrue(turns[12]["truncated"])  # over the 900-character agent cap
        self.assertEqual(summary["chars_used"], session["chars_used"])

    def test_text_shows_banners_markers_and_placeholders(self):
        code, out, err = h.run_cli("verbatim", "--claude-home", HOME, "@" + mf.C1, "--no-subagents")
        self.assertEqual(code, 0, err)
        self.assertIn("\u2550\u2550 compaction boundary \u00b7 summary at L14 \u2550\u2550", out)
        self.assertIn("\u2550\u2550 compaction boundary \u00b7 summary at L22 \u2550\u2550", out)
        self.assertIn("\u25bd L9 USER", out)
        # The elision marker of the long request, computed here from its text: 600 kept (360 head, 240 tail).
        ask = full_texts()[9]
        middle = ask[360:len(ask) - 240]
        self.assertIn("\u2026 [+%d chars, %d lines elided] \u2026" % (len(middle), middle.count("\n")), out)
        self.assertIn("[1 tool call]", out)
        self.assertIn("\u25b3 L2\u2013L2 [1 agent message, 0 tool calls]", out)  # the "Let me look" opener
        self.assertIn("\u25bd L7 USER (2026-04-01 10:06:00 UTC(UTC+0)) [1 image(s): #1]", out)
        self.assertIn("spanned 2 of 2 compaction boundaries in scope", out)

    def test_dedup_flags_only_the_live_region(self):
        code, _h, rows, _s, err = verbatim_json()
        self.assertEqual(code, 0, err)
        flagged = {r["line"]: r["also_in_summary"] for r in h.rows_of(rows, "turn")}
        self.assertTrue(flagged[23])  # the preserved request, quoted by the newest summary
        self.assertTrue(flagged[24])  # and the answer it quotes
        self.assertFalse(flagged[17])  # the same words before the boundary are restoration, not a duplicate

    def test_small_budget_keeps_the_round_trip_floor(self):
        for budget in (400, 900, 1500):
            with self.subTest(budget=budget):
                code, _h, rows, _s, err = verbatim_json("--budget", str(budget))
                self.assertEqual(code, 0, err)
                session = self.check_accounting(rows, budget)
                self.assertGreaterEqual(session["selected_user"], 1)
                self.assertLess(session["selected_user"], session["candidate_user"])

    def test_agent_msgs_modes(self):
        counts = {}
        for mode in ("eot-only", "longest", "rich", "all"):
            code, _h, rows, _s, err = verbatim_json("--agent-msgs", mode, "--budget", "100000")
            self.assertEqual(code, 0, err)
            self.check_accounting(rows, 100000)
            counts[mode] = {r["line"] for r in h.rows_of(rows, "turn") if r["role"] == "assistant"}
        self.assertEqual(counts["all"], {2, 5, 6, 8, 12, 16, 20, 24, 26, 28, 30})
        self.assertEqual(counts["eot-only"], counts["all"] - {2, 5})
        self.assertEqual(counts["longest"], counts["all"] - {2, 6})
        self.assertEqual(counts["rich"], counts["all"])  # no run is longer than 6 messages

    def test_compaction_cap_and_turn_window(self):
        code, _h, rows, _s, err = verbatim_json("--max-compactions", "1")
        self.assertEqual(code, 0, err)
        self.assertTrue(all(r["compactions_before"] <= 1 for r in h.rows_of(rows, "turn")))
        self.assertEqual([r["line"] for r in h.rows_of(rows, "compaction_boundary")], [22])
        code, _h, rows, _s, err = verbatim_json("--turn", "6..")
        self.assertEqual(code, 0, err)
        self.assertEqual(min(r["turn_index"] for r in h.rows_of(rows, "turn")), 6)
        self.assertEqual(h.rows_of(rows, "compaction_boundary"), [])


class Chunking(unittest.TestCase):
    def document(self, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "doc.md")
            code, out, err = h.run_cli("verbatim", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", *args, "--out", path)
            self.assertEqual(code, 0, err)
            self.assertIn("wrote the document", out)
            with open(path, encoding="utf-8") as f:
                return f.read()

    def slices(self, *args):
        chunks = []
        for n in range(1, 50):
            code, out, err = h.run_cli("verbatim", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", *args, "--slice", str(n))
            self.assertEqual(code, 0, err)
            if not out:
                return chunks
            chunks.append(out)
        self.fail("no end to the slices")

    def test_slices_concatenate_to_the_document(self):
        document = self.document()
        chunks = self.slices("--window", "700")
        self.assertGreater(len(chunks), 3)
        self.assertEqual("".join(chunks), document)
        self.assertTrue(all(len(c) <= 700 for c in chunks))
        self.assertEqual(self.slices("--window", "700"), chunks)  # deterministic

    def test_fixed_fleet(self):
        chunks = self.slices("--window", "1500", "--slices", "3")
        self.assertLessEqual(len(chunks), 3)
        self.assertTrue(all(len(c) <= 1500 for c in chunks))
        self.assertIn("L30 ASSISTANT", chunks[-1])  # the newest turn is always in

    def test_refusals_and_notes(self):
        code, _o, err = h.run_cli("verbatim", "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("needs a target", err)
        code, _o, err = h.run_cli("verbatim", "--claude-home", HOME, "@" + mf.C1, "--slice", "1", "--format", "json")
        self.assertEqual(code, h.EXIT_USAGE)
        code, out, err = h.run_cli("verbatim", "--claude-home", HOME, "@" + mf.C2)
        self.assertEqual(code, 0, err)
        self.assertIn("has no compaction", err)
        self.assertIn("show @" + mf.C2, err)
        self.assertIn("-3..", err)


if __name__ == "__main__":
    unittest.main()
