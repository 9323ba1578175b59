"""`csift-mcp --cli show` against the fixture store (spec §6.11): every addressing mode, ranges and their
misses, the flood guard, --raw bytes, JSON rows, the elicitation sidecar merge and the argument errors.

Expected values come from fixtures/README.md (record uuids encode their line; session 7 is the damaged one;
session 4 carries the sidecar) and from the fixture files' own bytes, never from the C++ code.
"""
import json
import os
import re
import subprocess
import unittest

import harness as h

BASICS = "11111111-1111-4111-8111-000000000001"
SUBS = "44444444-4444-4444-8444-000000000004"
DAMAGED = "77777777-7777-4777-8777-000000000007"
EXPLORE_AGENT = "a1b2c3d4e5f60718"
DEMO = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projects-csift-demo")
DAMAGED_PATH = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projets-caf---------app", DAMAGED + ".jsonl")

GLYPH_AGENT = "\u25b8"
PAIRED = "agent.tool.use \u25b9 agent.tool.result"


def basics_uuid(line):
    return f"01{line:06d}-aaaa-4aaa-8aaa-000001{line:06d}"


def show(*args):
    return h.run_cli("show", *args, "--claude-home", h.FIXTURE_HOME)


def show_json(*args):
    return h.run_json("show", *args, "--claude-home", h.FIXTURE_HOME)


def file_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return parts


class LineAddressing(unittest.TestCase):
    def test_single_line_renders_full_with_pairing(self):
        code, out, err = show(f"@{BASICS}", "--line", "7")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertIn(f"11111111\u00b7t0 ", out)
        self.assertIn(f" {GLYPH_AGENT} {PAIRED} Read L7 ", out)
        self.assertIn("shown 1 record unit(s) from 1 record(s)", out)

    def test_json_rows_carry_the_record_fields(self):
        code, header, rows, summary, err = show_json(f"@{BASICS}", "--line", "10")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(header["command"], "show")
        self.assertTrue(header["path"].endswith(BASICS + ".jsonl"))
        self.assertEqual(len(rows), 1)
        row = rows[0]
        for key in ("session_id", "is_subagent", "parent_session_id", "turn_index", "line", "uuid", "label",
                    "labels", "tool_name", "from", "to", "pairing", "tool_use_id", "is_error", "source", "ts_utc",
                    "ts_local", "text", "images", "superseded_draft"):
            self.assertIn(key, row)
        self.assertEqual(row["kind"], "record")
        self.assertEqual(row["line"], 10)
        self.assertEqual(row["uuid"], basics_uuid(10))
        self.assertEqual(row["label"], "agent.tool.result")
        self.assertEqual(row["pairing"], "paired")
        self.assertIs(row["is_error"], True)
        self.assertEqual(row["source"], "transcript")
        for key in ("records", "dropped_by_cap", "refetch_remainder", "non_record_lines", "skipped_lines",
                    "with_elicitation_sidecar"):
            self.assertIn(key, summary)

    def test_errored_result_is_decorated(self):
        code, out, _ = show(f"@{BASICS}", "--line", "10")
        self.assertEqual(code, h.EXIT_OK)
        self.assertIn("agent.tool.result [error] Bash L10 ", out)

    def test_repeated_and_comma_joined_ranges(self):
        _, _, rows_a, _, _ = show_json(f"@{BASICS}", "--line", "3", "--line", "5..6")
        _, _, rows_b, _, _ = show_json(f"@{BASICS}", "--line", "3,5..6")
        self.assertEqual([r["line"] for r in rows_a], [3, 5, 6])
        self.assertEqual(rows_a, rows_b)

    def test_range_counts_non_record_lines(self):
        code, out, _ = show(f"@{BASICS}", "--line", "1..3")
        self.assertEqual(code, h.EXIT_OK)
        self.assertIn("1 line(s) in the addressed range are not records (metadata/attachment", out)
        _, _, _, summary, _ = show_json(f"@{BASICS}", "--line", "1..3")
        self.assertEqual(summary["non_record_lines"], 1)

    def test_from_end_and_open_forms_clamp(self):
        code, _, rows, _, err = show_json(f"@{DAMAGED}", "--line=-3..")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual([r["line"] for r in rows], [11, 12])
        code, _, rows, _, _ = show_json(f"@{DAMAGED}", "--line", "..3")
        self.assertEqual([r["line"] for r in rows], [1, 3])

    def test_explicit_line_past_the_end_names_the_domain(self):
        code, out, err = show(f"@{BASICS}", "--line", "99")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertEqual(out, "")
        self.assertIn("no such line(s): L99 \u2014 the transcript has 66 line(s) (L1..L66)", out + err)

    def test_single_non_record_line_points_at_raw(self):
        code, out, err = show(f"@{DAMAGED}", "--line", "4")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("--raw", err)
        self.assertIn("ai-title", err)  # names what stays --raw-only


class UuidAndTurnAddressing(unittest.TestCase):
    def test_uuid_fetches_the_named_records(self):
        code, _, rows, _, err = show_json(f"@{BASICS}", "--uuid", f"{basics_uuid(3)},{basics_uuid(11)}")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual([r["line"] for r in rows], [3, 11])

    def test_uuid_miss_is_an_error(self):
        code, out, err = show(f"@{BASICS}", "--uuid", "no-such-uuid")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("no such uuid(s): no-such-uuid", err)

    def test_turn_fetch_and_tail_peek(self):
        code, _, rows, _, err = show_json(f"@{BASICS}", "--turn", "-1")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertTrue(rows)
        self.assertEqual({r["turn_index"] for r in rows}, {9})
        code, _, rows, _, _ = show_json(f"@{BASICS}", "--turn=-99..")  # clamps to the whole transcript
        self.assertEqual(code, h.EXIT_OK)
        self.assertEqual(min(r["turn_index"] for r in rows), 0)

    def test_turn_miss_names_the_domain(self):
        code, _, err = show(f"@{SUBS}", "--turn", "99")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("no such turn(s): t99 \u2014 the transcript has 2 turn(s) (t0..t1)", err)

    def test_draft_is_address_reachable_outside_turn_numbering(self):
        _, _, rows, _, _ = show_json(f"@{BASICS}", "--line", "47")
        self.assertEqual(rows[0]["label"], "user.unsent")
        self.assertIsNone(rows[0]["turn_index"])
        self.assertIs(rows[0]["superseded_draft"], True)
        _, out, _ = show(f"@{BASICS}", "--line", "47")
        self.assertIn("11111111\u00b7draft", out)


class FloodGuard(unittest.TestCase):
    def test_cap_keeps_first_and_states_the_continuation(self):
        code, out, err = show(f"@{BASICS}", "--line", "..", "--max-count", "5")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertRegex(out, r"\+\d+ more record unit\(s\) beyond the 5-unit cap \u00b7 continue: "
                              rf"csift-mcp --cli show @{BASICS} --line \d+\.\.\d+ --claude-home {re.escape(os.path.abspath(h.FIXTURE_HOME))} "
                              r"\(or --max-count 0 = uncapped\)")
        _, _, rows, summary, _ = show_json(f"@{BASICS}", "--line", "..", "--max-count", "5")
        self.assertEqual(len(rows), 5)
        self.assertGreater(summary["dropped_by_cap"], 0)
        remainder = summary["refetch_remainder"]  # the follow-up call as data, not a command line
        self.assertEqual(remainder["tool"], "show")
        self.assertEqual(remainder["arguments"]["targets"], [f"@{BASICS}"])
        self.assertRegex(remainder["arguments"]["line"][0], r"^\d+\.\.\d+$")

    def test_max_count_zero_is_uncapped(self):
        _, _, rows, summary, _ = show_json(f"@{BASICS}", "--line", "..", "--max-count", "0")
        self.assertEqual(summary["dropped_by_cap"], 0)
        self.assertIsNone(summary["refetch_remainder"])
        self.assertEqual(len(rows), summary["units"])


class Raw(unittest.TestCase):
    def test_raw_prints_malformed_lines_verbatim(self):
        lines = file_lines(DAMAGED_PATH)
        for n in (4, 5, 6, 8):  # garbage, truncated object, invalid interior, invalid UTF-8
            p = subprocess.run([h.binary(), "--cli", "show", f"@{DAMAGED}", "--line", str(n), "--raw",
                                  "--claude-home", h.FIXTURE_HOME], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, env=h.test_env())
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout, lines[n - 1] + b"\n", f"line {n}")

    def test_invalid_utf8_line_is_a_record(self):
        # line 8's only fault is a raw 0xFF byte: rendered as a record with U+FFFD; --raw keeps the byte
        code, _, rows, _, err = show_json(f"@{DAMAGED}", "--line", "8")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual([r["line"] for r in rows], [8])
        self.assertIn("byte here:\ufffd<-", json.dumps(rows[0], ensure_ascii=False))

    def test_raw_prints_the_torn_tail(self):
        lines = file_lines(DAMAGED_PATH)
        code, out, err = show(f"@{DAMAGED}", "--line=-1", "--raw")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(out.encode("utf-8"), lines[12] + b"\n")

    def test_raw_caps_by_line_with_a_stderr_note(self):
        code, out, err = show(f"@{DAMAGED}", "--line", "..", "--raw", "--max-count", "2")
        self.assertEqual(code, h.EXIT_OK)
        self.assertEqual(len(out.splitlines()), 2)
        self.assertIn("more line(s) beyond the 2-line cap", err)

    def test_raw_excludes_json(self):
        code, _, _ = show(f"@{BASICS}", "--line", "3", "--raw", "--format", "json")
        self.assertEqual(code, h.EXIT_USAGE)


class SidecarAndSubagents(unittest.TestCase):
    def test_unresolved_elicitation_merges_into_the_last_turn(self):
        code, _, rows, summary, err = show_json(f"@{SUBS}", "--turn", "-1")
        self.assertEqual(code, h.EXIT_OK, err)
        merged = [r for r in rows if r["source"] == "elicitation-sidecar"]
        self.assertEqual(len(merged), 1)  # k-branch pending; k-publish paired off
        self.assertIsNone(merged[0]["line"])
        self.assertEqual(merged[0]["label"], "agent.tool.use")
        self.assertIs(summary["with_elicitation_sidecar"], True)
        _, out, _ = show(f"@{SUBS}", "--turn", "-1")
        self.assertIn("(elicitation sidecar)", out)
        self.assertIn("\nwith elicitation sidecar\n", out)

    def test_subagent_target_names_its_parent(self):
        code, out, err = show(f"@{EXPLORE_AGENT}", "--line", "1")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertIn("a1b2c3d4\u00b7t0 (parent 44444444)", out)


class ArgumentErrors(unittest.TestCase):
    def test_second_target_is_an_arity_error(self):
        code, _, err = show(f"@{BASICS}", f"@{SUBS}", "--line", "1")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("show reads exactly ONE transcript per call", err)

    def test_bad_flag_is_named(self):
        code, _, err = show(f"@{BASICS}", "--line", "3", "--bogus-flag")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--bogus-flag", err)

    def test_no_address_and_two_addresses(self):
        self.assertEqual(show(f"@{BASICS}")[0], h.EXIT_USAGE)
        self.assertEqual(show(f"@{BASICS}", "--line", "3", "--turn", "0")[0], h.EXIT_USAGE)

    def test_span_flags_are_rejected_with_the_rule(self):
        for flag in ("--no-subagents", "--subagents"):
            code, _, err = show(f"@{BASICS}", "--line", "3", flag)
            self.assertEqual(code, h.EXIT_USAGE)
            self.assertIn("@<agent-id>", err)

    def test_dash_range_teaches_dots(self):
        code, _, err = show(f"@{BASICS}", "--line", "3-5")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("3..5", err)


if __name__ == "__main__":
    unittest.main()
