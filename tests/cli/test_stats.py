"""`csift-mcp --cli stats` (spec §6.12) against the fixture store: tokens deduped per message id equal
fixtures/README.md's hand-computed values (and differ from the naive per-record sum), the whole-file line
census, turns, narration and tool counts, scope totals that sum rows, windows, the cap, and errors; and the
cost of a generated home (fixtures/make_cost_fixtures.py: subagent, resumed session, fork, both cache-write
lifetimes, long context, an unknown model, Claude Code's own cost-state) against hand-computed dollars.
"""
import importlib.util
import os
import tempfile
import unittest

import harness as h

HOME = h.FIXTURE_HOME
S1 = "11111111-1111-4111-8111-000000000001"
S2 = "22222222-2222-4222-8222-000000000002"
S4 = "44444444-4444-4444-8444-000000000004"
S7 = "77777777-7777-4777-8777-000000000007"
S9 = "99999999-9999-4999-8999-000000000009"
S10 = "aaaaaaaa-aaaa-4aaa-8aaa-000000000010"
OPUS, SONNET, HAIKU = "claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"


def t(inp, cache_creation, cache_read, out):
    return {"input_tokens": inp, "output_tokens": out, "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_creation}


# fixtures/README.md "Stats tokens", as (input, cache_creation, cache_read, output).
TOKENS = {
    S1: {OPUS: t(22, 9100, 124900, 1085)},
    S2: {OPUS: t(24, 1260, 15000, 510), SONNET: t(26, 0, 5200, 98)},
    "33333333-3333-4333-8333-000000000003": {OPUS: t(12, 1600, 54900, 300)},
    S4: {OPUS: t(6, 1200, 19000, 210)},
    "a1b2c3d4e5f60718": {HAIKU: t(12, 3200, 6100, 130)},
    "a9f8e7d6c5b4a3f2": {HAIKU: t(6, 1500, 0, 25)},
    "aTeamLead-68a2a1661c9390c1": {OPUS: t(4, 1000, 0, 30)},
    "b0b1b2b3b4b5b6b7": {SONNET: t(5, 2000, 0, 20)},
    "55555555-5555-4555-8555-000000000005": {"claude-sonnet-4-20250514": t(11, 2700, 4100, 145)},
    "66666666-6666-4666-8666-000000000006": {HAIKU: t(1, 100, 0, 5)},
    "a5e1f2a": {HAIKU: t(2, 300, 0, 12)},
    "a6d0c1e": {HAIKU: t(2, 300, 0, 12)},
    S7: {OPUS: t(6, 500, 2600, 50)},  # line 8 (raw 0xFF, repaired) is a record: its usage counts
    "88888888-8888-4888-8888-000000000008": {OPUS: t(1, 100, 3000, 12)},
    S9: {OPUS: t(1, 100, 3000, 8)},
    S10: {SONNET: t(5, 100, 200, 15)},
}
# The naive per-record sums the dedup must NOT produce (fixtures/README.md).
WRONG = {S2: {OPUS: t(56, 3510, 26000, 731), SONNET: t(66, 0, 15200, 258)},
         S1: {OPUS: t(28, 11500, 142900, 1505)}}
TURNS = {S1: 10, S2: 3, "33333333-3333-4333-8333-000000000003": 14, S4: 2, "aTeamLead-68a2a1661c9390c1": 2,
         "55555555-5555-4555-8555-000000000005": 2, S7: 3, S9: 2}  # 5: its inline sidechain seed opens none


def stats_json(*args, stdin=None):
    code, header, rows, summary, err = h.run_json("stats", "--claude-home", HOME, *args, stdin=stdin)
    assert code == 0, f"stats exited {code}: {err}"
    return header, rows, summary


class FixtureTotalsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.header, cls.rows, cls.summary = stats_json()
        cls.by_id = {r["session_id"]: r for r in cls.rows}

    def test_every_transcript_has_a_row(self):
        self.assertEqual(sorted(self.by_id), sorted(TOKENS))
        self.assertEqual(self.summary["sessions"], 16)
        self.assertEqual(self.summary["dropped_by_cap"], 0, "stats is uncapped by default")

    def test_tokens_equal_the_hand_computed_per_message_values(self):
        for sid, want in TOKENS.items():
            with self.subTest(session=sid):
                self.assertEqual(self.by_id[sid]["tokens"], want)
        for sid, wrong in WRONG.items():
            self.assertNotEqual(self.by_id[sid]["tokens"], wrong, "a per-record sum over-reads repeated usage")

    def test_total_sums_rows_without_cross_file_dedup(self):
        total = {}
        for want in TOKENS.values():
            for model, counts in want.items():
                acc = total.setdefault(model, dict.fromkeys(counts, 0))
                for k, v in counts.items():
                    acc[k] += v
        self.assertEqual(self.summary["tokens"], total)
        self.assertEqual(self.summary["turns"], sum(r["turns"] for r in self.rows))
        self.assertEqual(self.summary["skipped_lines"], 4)

    def test_line_census_and_turns(self):
        damaged = self.by_id[S7]
        self.assertEqual(damaged["lines"], 13)
        # 3 malformed + the torn tail; line 8 (raw 0xFF) is a repaired record, not skipped
        self.assertEqual(damaged["skipped_lines"], 4, "stats is the exact whole-file census")
        self.assertEqual(sum(damaged["line_types"].values()), 13)
        for sid, turns in TURNS.items():
            self.assertEqual(self.by_id[sid]["turns"], turns, sid)
        for row in self.rows:
            self.assertEqual(sum(row["line_types"].values()), row["lines"], row["session_id"])

    def test_narration_unknown_tags_and_tools(self):
        tokens = self.by_id[S2]
        self.assertEqual(tokens["narration_blocks"], {SONNET: 1})
        self.assertEqual(tokens["unknown_thinking_tags"], {"musing": 1})
        self.assertEqual(self.by_id[S1]["narration_blocks"], {}, "a plain thinking tag is not narration")
        self.assertGreater(sum(self.by_id[S1]["tools"].values()), 0)
        self.assertEqual(self.by_id[S2]["compactions"], 1)

    def test_id_trio_and_instants(self):
        row = self.by_id["a1b2c3d4e5f60718"]
        self.assertTrue(row["is_subagent"])
        self.assertEqual(row["parent_session_id"], S4)
        top = self.by_id[S2]
        self.assertEqual(top["first_utc"][:19], "2026-03-02T11:00:05")
        self.assertEqual(top["duration_ms"], 110000)

    def test_text_blocks_and_total(self):
        code, out, err = h.run_cli("stats", "--claude-home", HOME, "@" + S2)
        self.assertEqual(code, 0, err)
        self.assertIn(f"SESSION {S2}", out)
        self.assertIn(f"tokens {OPUS}: in 24 · out 510 · cache read 15,000 · cache write 1,260", out)
        self.assertIn(f"tokens {SONNET}: in 26 · out 98 · cache read 5,200 · cache write 0", out)
        self.assertIn("unknown thinking tags musing 1", out)
        self.assertNotIn("TOTAL", out, "one transcript has no TOTAL block")
        code, out, err = h.run_cli("stats", "--claude-home", HOME, "@" + S4)
        self.assertIn("TOTAL (5 transcripts)", out)


class WindowTest(unittest.TestCase):
    def test_since_bounds_counted_records_not_the_line_census(self):
        _h, rows, summary = stats_json("@" + S2, "--since", "2026-03-02T11:01:00Z")
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual(row["lines"], 23, "lines is a file fact")
        self.assertEqual(sum(row["line_types"].values()), 23)
        self.assertLess(row["assistant_records"], 15)
        self.assertGreaterEqual(row["first_utc"], "2026-03-02T11:01:00")

    def test_turn_window_intersects_time(self):
        _h, rows, _s = stats_json("@" + S1, "--turn", "0")
        self.assertEqual(rows[0]["turns"], 1)
        _h, rows, _s = stats_json("@" + S1, "--turn", "-2..")
        self.assertEqual(rows[0]["turns"], 2)
        _h, rows, summary = stats_json("@" + S1, "--turn", "0", "--since", "2030-01-01")
        self.assertEqual(rows, [])
        self.assertEqual(summary["outside_window"], 1)

    def test_bad_turn_is_a_usage_error(self):
        code, out, err = h.run_cli("stats", "--claude-home", HOME, "@" + S1, "--turn", "2-3")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("2..3", out + err)


class CapAndScopeTest(unittest.TestCase):
    def test_max_count_keeps_the_most_recently_active(self):
        _h, rows, summary = stats_json("--max-count", "2")
        self.assertEqual(sorted(r["session_id"] for r in rows), sorted([S7, S10]))
        self.assertEqual(summary["dropped_by_cap"], 14)
        self.assertEqual(summary["sessions"], 2)
        code, out, _ = h.run_cli("stats", "--claude-home", HOME, "--max-count", "2")
        self.assertIn("14 dropped by cap", out)
        _h, rows, summary = stats_json("--max-count", "0")
        self.assertEqual(len(rows), 16)

    def test_sessions_from_and_no_subagents(self):
        _h, rows, _s = stats_json("--sessions-from", "-", "--no-subagents", stdin=f"{S4}\n")
        self.assertEqual([r["session_id"] for r in rows], [S4])

    def test_errors(self):
        code, out, err = h.run_cli("stats", "--claude-home", HOME, "/no/such/project")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("/no/such/project", out + err)
        code, _out, _err = h.run_cli("stats", "--claude-home", HOME, "--nope")
        self.assertEqual(code, h.EXIT_USAGE)
        code, _out, _err = h.run_cli("stats", "--claude-home", HOME, "--max-count", "-1")
        self.assertEqual(code, h.EXIT_USAGE)


if __name__ == "__main__":
    unittest.main()


def cost_home(tmp):
    spec = importlib.util.spec_from_file_location("make_cost_fixtures",
                                                  os.path.join(h.REPO, "fixtures", "make_cost_fixtures.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen, gen.main(tmp)


class CostTest(unittest.TestCase):
    """The dollars in fixtures/make_cost_fixtures.py's docstring, computed there by hand."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.gen, cls.home = cost_home(cls.tmp.name)
        code, _hd, cls.rows, cls.summary, err = h.run_json("stats", "--claude-home", cls.home, "--cost-by", "day")
        assert code == 0, err
        cls.by_id = {r["session_id"]: r for r in cls.rows}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_api_message_paid_once_across_subagent_resume_and_fork(self):
        g, cost = self.gen, self.summary["cost"]
        self.assertAlmostEqual(cost["usd"], 0.99915, places=9)
        self.assertEqual(cost["by_model"], {g.SONNET: 0.98325, g.OPUS: 0.01515, g.HAIKU: 0.00075,
                                            "claude-imaginary-9": None, "<synthetic>": None})
        self.assertAlmostEqual(cost["usd_sum_of_rows"], 1.0638, places=9)
        self.assertEqual(cost["long_context_messages"], 1)
        rows = {sid: self.by_id[sid]["cost_usd"] for sid in (g.A, g.AGENT, g.B, g.C)}
        self.assertEqual(rows, {g.A: 0.0399, g.AGENT: 0.00075, g.B: 0.9984, g.C: 0.02475})
        self.assertEqual(self.summary["cost_by_day"], {"2026-03-01": 0.04065, "2026-03-02": 0.9585,
                                                       "2026-03-03": 0.0})
        self.assertNotIn("cost_by_project", self.summary, "only what cost_by asks")
        self.assertIn("cost", self.summary["figure_views"])

    def test_cache_writes_of_both_lifetimes(self):
        a1 = self.by_id[self.gen.A]["tokens"][self.gen.SONNET]
        self.assertEqual((a1["cache_creation_input_tokens"], a1["cache_creation_1h_input_tokens"]), (3000, 2000))
        self.assertNotIn("cache_creation_1h_input_tokens", self.by_id[self.gen.A]["tokens"][self.gen.OPUS])

    def test_unknown_and_synthetic_models_keep_tokens_and_are_named(self):
        g, cost = self.gen, self.summary["cost"]
        self.assertEqual(self.summary["tokens"]["claude-imaginary-9"]["input_tokens"], 7)
        self.assertIn("never priced at a guess", cost["unpriced"]["claude-imaginary-9"])
        self.assertIn("no API call", cost["unpriced"]["<synthetic>"])
        self.assertEqual(self.by_id[g.C]["unpriced_models"], ["<synthetic>", "claude-imaginary-9"])
        self.assertNotIn("unpriced_models", self.by_id[g.A])
        self.assertIn("docs.claude.com", cost["prices"]["anthropic"])

    def test_harness_cost_state_beside_ours(self):
        g = self.gen
        self.assertEqual(self.by_id[g.A]["harness_cost_usd"], 0.04065)
        self.assertNotIn("harness_cost_usd", self.by_id[g.B])
        self.assertEqual(self.summary["cost"]["harness_reported"], {"usd": 0.04065, "sessions": 1, "ours_usd": 0.0399})
        code, out, err = h.run_cli("stats", "--claude-home", self.home, "--cost-by", "project")
        self.assertEqual(code, 0, err)
        self.assertIn("cost $0.0399 · the harness's own figure (cost-state) $0.0406 (differs by +$0.0008", out)
        self.assertIn("cost $0.9991 (each API message once; summed over the rows $1.0638)", out)
        self.assertIn(f"tokens {g.SONNET}: in 151,000 · out 1,200 · cache read 70,000 · cache write 3,000 (1h 2,000)"
                      " · $0.9832", out)
        # A message goes to the project of the first row holding it: the fork (the most recent) holds msg_a1.
        self.assertIn("  -home-dev-projects-cost $0.9744", out)
        self.assertIn("  -home-dev-projects-cost-fork $0.0248", out)
        self.assertIn("not priced: claude-imaginary-9: not in the price table", out)
        self.assertIn("prices: anthropic https://docs.claude.com/en/docs/about-claude/pricing", out)
