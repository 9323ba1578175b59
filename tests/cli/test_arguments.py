"""Targets and arguments as a new user types them (issue 9, points 1-7): bare encoded project directories,
show's range clamping, calendar dates and day words, empty strings, integers out of range, whoami's
environment, and the reference's `--additional-context` spelling.

Expected values come from the fixture store (fixtures/README.md) and from temporary stores the tests write
themselves; none is read back from the code under test.
"""
import json
import os
import shutil
import tempfile
import unittest

import harness as h

BASICS = "11111111-1111-4111-8111-000000000001"
LEGACY_DIR = "-Users-dev-legacy-app"
LEGACY_SESSIONS = {"55555555-5555-4555-8555-000000000005", "66666666-6666-4666-8666-000000000006"}
HOME = ("--claude-home", h.FIXTURE_HOME)


def line_count(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


class BareEncodedProjectDirectoryIsATarget(unittest.TestCase):
    def test_list_takes_an_existing_encoded_dir_as_a_target(self):
        code, _, rows, _, err = h.run_json("list", LEGACY_DIR, *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        sessions = {r["session_id"] for r in h.rows_of(rows, "session") if not r["is_subagent"]}
        self.assertEqual(sessions, LEGACY_SESSIONS)

    def test_stats_takes_it_after_flags_and_with_claude_home_after_it(self):
        code, _, rows, _, err = h.run_json("stats", "--no-subagents", LEGACY_DIR, *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual({r["session_id"] for r in h.rows_of(rows, "session")}, LEGACY_SESSIONS)

    def test_search_takes_it_after_the_pattern(self):
        code, _, _, summary, err = h.run_json("search", "", LEGACY_DIR, "-t", "user", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertTrue(set(summary["transcript_ids"]) <= LEGACY_SESSIONS | {"a5e1f2a", "a6d0c1e"})

    def test_a_missing_encoded_dir_says_how_to_write_one(self):
        code, _, err = h.run_cli("list", "-Users-nobody-nowhere", *HOME)
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("unknown flag -U", err)
        self.assertIn("@-Users-nobody-nowhere", err)
        self.assertIn("put -- before it", err)
        self.assertIn(os.path.join(h.FIXTURE_HOME, "projects"), err)

    def test_the_at_form_and_the_double_dash_form_both_work(self):
        for args in (["@" + LEGACY_DIR], ["--", LEGACY_DIR]):
            code, out, err = h.run_cli("list", *HOME, "--format", "json", *args)
            self.assertEqual(code, h.EXIT_OK, err)
            _, rows, _ = h.parse_envelope(out)
            self.assertTrue(LEGACY_SESSIONS <= {r["session_id"] for r in h.rows_of(rows, "session")})

    def test_short_flags_still_parse(self):
        code, out, err = h.run_cli("search", "-ic", "TEST SUITE", "@" + BASICS, *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertTrue(out.strip().isdigit())


class ShowRangesClamp(unittest.TestCase):
    def test_a_closed_line_range_past_the_end_clamps(self):
        path = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projects-csift-demo", BASICS + ".jsonl")
        total = line_count(path)
        code, out, err = h.run_cli("show", "@" + BASICS, "--line", f"{total - 2}..100000", "--raw", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(len(out.splitlines()), 3)

    def test_a_closed_turn_range_past_the_end_clamps(self):
        code, _, all_rows, _, err = h.run_json("show", "@" + BASICS, "--turn", "1..", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        code, _, rows, _, err = h.run_json("show", "@" + BASICS, "--turn", "1..99", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(rows, all_rows)

    def test_a_range_wholly_past_the_end_is_still_a_miss(self):
        code, _, err = h.run_cli("show", "@" + BASICS, "--turn", "90..99", *HOME)
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("no such turn(s): t90..99", err)

    def test_minus_zero_turn_is_refused_like_minus_zero_line(self):
        for flag in ("--turn", "--line"):
            code, _, err = h.run_cli("show", "@" + BASICS, flag, "-0", *HOME)
            self.assertEqual(code, h.EXIT_USAGE, flag)
            self.assertIn("-0 is not a position", err)

    def test_show_without_an_address_names_the_resolved_file(self):
        code, _, err = h.run_cli("show", "@" + BASICS[:8], *HOME)
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("show needs exactly one address into ", err)
        self.assertIn(BASICS + ".jsonl", err)


class CalendarDatesAndDayWords(unittest.TestCase):
    def test_invalid_calendar_dates_and_times_are_refused(self):
        for value in ("2026-02-30", "2026-04-31T10:00:00Z", "2026-03-01T23:59:60Z", "2025-02-29"):
            code, _, err = h.run_cli("stats", "@" + BASICS, "--since", value, *HOME)
            self.assertEqual(code, h.EXIT_USAGE, value)
            self.assertIn("is not a calendar date and time", err, value)

    def test_a_leap_day_is_a_date(self):
        code, _, err = h.run_cli("stats", "@" + BASICS, "--since", "2024-02-29", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)

    def test_today_and_yesterday_are_local_midnights(self):
        code, header, _, _, err = h.run_json("list", *HOME, "--since", "yesterday", "--until", "today")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertTrue(header["since_utc"].endswith("T00:00:00.000Z"), header)  # TZ=UTC in the harness
        self.assertTrue(header["until_utc"].endswith("T00:00:00.000Z"), header)
        self.assertNotEqual(header["since_utc"], header["until_utc"])


class EmptyStringsAreRefusedAlike(unittest.TestCase):
    def test_cli_empty_target_is_refused_like_mcp(self):
        code, _, err = h.run_cli("stats", "", *HOME)
        self.assertEqual(code, h.EXIT_USAGE, err)
        self.assertIn("an empty target names nothing", err)

    def test_cli_empty_label_is_refused(self):
        code, _, err = h.run_cli("search", "x", "-t", "", "@" + BASICS, *HOME)
        self.assertEqual(code, h.EXIT_USAGE, err)

    def test_empty_since_is_refused(self):
        code, _, err = h.run_cli("list", "--since", "", *HOME)
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("cannot read \"\" as a time", err)


class IntegersOutOfRange(unittest.TestCase):
    def test_cli_says_out_of_range(self):
        code, _, err = h.run_cli("search", "x", "--max-count", "99999999999999999999", *HOME)
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--max-count: 99999999999999999999 is out of range", err)
        self.assertNotIn("expected an integer", err)


class WhoamiEnvironment(unittest.TestCase):
    def whoami(self, **env):
        base = {k: v for k, v in h.test_env().items()
                if k not in ("CLAUDE_CODE_SESSION_ID", "CODEX_COMPANION_SESSION_ID")}
        base.update(env)
        return h.run_cli("whoami", *HOME, "--format", "json", env=base)

    def test_blank_id_falls_back_to_the_alias(self):
        code, out, err = self.whoami(CLAUDE_CODE_SESSION_ID="   ", CODEX_COMPANION_SESSION_ID=BASICS)
        self.assertEqual(code, h.EXIT_OK, err)
        _, rows, _ = h.parse_envelope(out)
        self.assertEqual(rows[0]["session_id"], BASICS)
        self.assertEqual(rows[0]["source"], "env:CODEX_COMPANION_SESSION_ID")

    def test_blank_id_alone_is_an_error_with_guidance(self):
        code, out, _ = self.whoami(CLAUDE_CODE_SESSION_ID=" \t")
        self.assertEqual(code, h.EXIT_ERROR)
        _, _, summary = h.parse_envelope(out)
        self.assertIn("unset or blank", summary["error"]["message"])

    def test_an_id_naming_no_transcript_exits_non_zero(self):
        code, out, _ = self.whoami(CLAUDE_CODE_SESSION_ID="ffffffff-0000-4000-8000-000000000000")
        self.assertEqual(code, h.EXIT_ERROR)
        _, _, summary = h.parse_envelope(out)
        self.assertIn("has no transcript under", summary["error"]["message"])


class AdditionalContextAlias(unittest.TestCase):
    def test_the_reference_spelling_sets_attachments(self):
        base = h.run_json("search", "plan_mode", "@" + BASICS, "--attachments", *HOME)
        alias = h.run_json("search", "plan_mode", "@" + BASICS, "--additional-context", *HOME)
        self.assertEqual(base[0], h.EXIT_OK, base[4])
        self.assertEqual(alias[0], h.EXIT_OK, alias[4])
        self.assertGreater(base[3]["matched_records"], 0)
        self.assertEqual(alias[1:4], base[1:4])

    def test_help_lists_the_alias(self):
        code, out, _ = h.run_cli("search", "--help")
        self.assertEqual(code, h.EXIT_OK)
        self.assertIn("(also: --additional-context)", out)


if __name__ == "__main__":
    unittest.main()
