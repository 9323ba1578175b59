"""`search --count-by AXIS` end to end through the CLI binary, on the fixture store: the spec's census examples
(`search "" -t user --count-by label`, `search "" @<id> --count-by pairing`), every axis's keys and domain
(values hand-derived from fixtures/README.md's line inventory), the stderr record accounting, the JSON census
rows and summary, the cap, the conflicts, and the `-l | stats --sessions-from -` pipe."""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import harness as h  # noqa: E402

HOME = h.FIXTURE_HOME
BASICS = "11111111-1111-4111-8111-000000000001"
TOKENS = "22222222-2222-4222-8222-000000000002"
PEERS = "33333333-3333-4333-8333-000000000003"
SUMMARY_KEYS = ["kind", "axis", "matched_records", "distinct_keys", "excluded_records", "dropped_by_cap",
                "skipped_lines"]


def validate(header, rows, summary):
    """The envelope against the published schema (schemas/search.output.json)."""
    import jsonschema
    with open(os.path.join(h.REPO, "schemas", "search.output.json")) as f:
        jsonschema.validate({"header": header, "rows": rows, "summary": summary}, json.load(f))


def census(*args):
    """Runs a text census; returns (exit code, [(count, key)], stderr)."""
    code, out, err = h.run_cli("search", *args, "--claude-home", HOME)
    rows = []
    for line in out.splitlines():
        count, key = line.split(" ", 1)
        rows.append((int(count), key))
    return code, rows, err


class LabelCensusTest(unittest.TestCase):
    def test_user_label_census_is_the_spec_example(self):
        code, rows, err = census("", "@" + BASICS, "-t", "user", "--count-by", "label")
        self.assertEqual(code, h.EXIT_OK, err)
        # Richest-first; the draft (user.unsent) and queued lines are not LLM-visible, so `-t user` omits them.
        self.assertEqual(rows, [(2, "user.answer"), (1, "user.rejection"), (9, "user.message")])
        self.assertIn("12 matched records", err)
        self.assertIn("3 distinct keys", err)

    def test_label_keys_follow_the_minus_T_predicate(self):
        _, rows, _ = census("", "@" + BASICS, "-t", "user", "-T", "user.message", "--count-by", "label")
        self.assertEqual(rows, [(2, "user.answer"), (1, "user.rejection")])

    def test_unfiltered_label_census_multi_counts_a_record(self):
        _, rows, _ = census("", "@" + BASICS, "--count-by", "label")
        keys = dict((k, n) for n, k in rows)
        # An answered AskUserQuestion carrier counts as user.answer AND agent.tool.result.
        self.assertEqual(keys["user.answer"], 2)
        self.assertIn("agent.tool.result", keys)
        self.assertIn("user.unsent", keys)  # no filter: the superseded draft is in the census
        self.assertEqual(rows[0][1], "user.answer")

    def test_json_rows_and_summary(self):
        code, header, rows, summary, _ = h.run_json("search", "", "@" + BASICS, "-t", "user", "--count-by",
                                                    "label", "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_OK)
        self.assertEqual(header["mode"], "count_by")
        self.assertEqual([(r["kind"], r["axis"], r["key"], r["records"]) for r in rows],
                         [("census", "label", "user.answer", 2), ("census", "label", "user.rejection", 1),
                          ("census", "label", "user.message", 9)])
        self.assertEqual(list(summary.keys())[:len(SUMMARY_KEYS)], SUMMARY_KEYS)
        self.assertEqual(summary["matched_records"], 12)
        self.assertEqual(summary["distinct_keys"], 3)
        self.assertEqual(summary["excluded_records"], 0)
        self.assertEqual(summary["dropped_by_cap"], 0)
        validate(header, rows, summary)


class ZeroMatchCensusTest(unittest.TestCase):
    """An empty census is a definitive absence, diagnosed like an empty exchange list."""

    def test_text_diagnosis_on_stderr(self):
        # BASICS has a tool result saved to a file: the zero is definitive only once that file is read too.
        code, rows, err = census("zzqqxxnothere", "@" + BASICS, "--count-by", "label", "--resolve-persisted")
        self.assertEqual((code, rows), (h.EXIT_OK, []))
        self.assertIn("0 matches \u2014 a DEFINITIVE absence", err)
        self.assertIn("gated leaves not searched", err)

    def test_label_probe_names_the_excluded_labels(self):
        code, header, rows, summary, err = h.run_json("search", "ls srcx", "@" + BASICS, "-t", "user.message",
                                                      "--count-by", "label", "--resolve-persisted",
                                                      "--claude-home", HOME)
        self.assertEqual((code, rows), (h.EXIT_OK, []))
        self.assertIs(summary["definitive_absence"], True)
        self.assertEqual(summary["excluded_by_label"],
                         {"rows": [{"label": "agent.tool.use", "records": 1}], "total": 1})
        validate(header, rows, summary)
        _, _, err = census("ls srcx", "@" + BASICS, "-t", "user.message", "--count-by", "label")
        self.assertIn("DOES occur \u2014 1 record(s) under: agent.tool.use \u00d71", err)

    def test_a_non_empty_census_is_not_an_absence(self):
        _, _, _, summary, _ = h.run_json("search", "", "@" + BASICS, "-t", "user", "--count-by", "label",
                                         "--claude-home", HOME)
        self.assertIs(summary["definitive_absence"], False)


class AxisCensusTest(unittest.TestCase):
    def test_model(self):
        code, rows, err = census("", "@" + TOKENS, "--count-by", "model")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(rows, [(9, "claude-opus-4-6"), (6, "claude-sonnet-4-5-20250929")])
        self.assertIn("8 records excluded: outside the model domain", err)

    def test_tool_counts_records_with_ties_by_key(self):
        _, rows, err = census("", "@" + TOKENS, "--count-by", "tool")
        self.assertEqual(rows, [(2, "Bash"), (2, "Grep"), (2, "Read")])
        self.assertIn("17 records excluded", err)

    def test_turn_is_an_ascending_histogram(self):
        _, rows, _ = census("", "@" + TOKENS, "--count-by", "turn")
        self.assertEqual(rows, [(11, "t0"), (10, "t1"), (2, "t2")])

    def test_turn_keys_carry_the_full_id_when_several_transcripts_are_in_scope(self):
        _, rows, _ = census("", "@" + TOKENS, "@" + BASICS, "--count-by", "turn")
        keys = [k for _, k in rows]
        self.assertEqual(len(keys), 13)
        self.assertTrue(all("\u00b7t" in k for k in keys), keys)
        self.assertEqual({k.split("\u00b7")[0] for k in keys}, {TOKENS, BASICS})
        per_id = [k for k in keys if k.startswith(BASICS)]
        self.assertEqual(per_id, [f"{BASICS}\u00b7t{n}" for n in range(10)])

    def test_session(self):
        _, rows, _ = census("", "@" + TOKENS, "@" + BASICS, "--count-by", "session")
        self.assertEqual({k for _, k in rows}, {TOKENS, BASICS})
        self.assertEqual(dict((k, n) for n, k in rows)[TOKENS], 23)

    def test_pairing_rides_the_tool_block_and_reports_record_text_comm(self):
        code, rows, err = census("", "@" + PEERS, "--count-by", "pairing")
        self.assertEqual(code, h.EXIT_OK, err)
        # SendMessage x2 (comm views) + Task + Bash + Monitor + ScheduleWakeup, each use and its result.
        self.assertEqual(rows, [(12, "paired")])
        self.assertIn("outside the pairing domain (8 of them record-text communication units", err)

    def test_result(self):
        _, rows, _ = census("", "@" + BASICS, "--count-by", "result")
        self.assertEqual(rows, [(6, "ok"), (4, "error")])

    def test_version(self):
        _, rows, _ = census("", "@" + TOKENS, "--count-by", "version")
        self.assertEqual(rows, [(23, "2.1.160")])

    def test_attachment_implies_the_attachments_gate(self):
        _, rows, _ = census("", "@" + BASICS, "--count-by", "attachment")
        self.assertEqual(rows, [(1, "hook_success"), (1, "plan_mode")])

    def test_turn_window_narrows_the_census(self):
        _, rows, _ = census("", "@" + TOKENS, "--turn", "1..", "--count-by", "turn")
        self.assertEqual(rows, [(10, "t1"), (2, "t2")])

    def test_synthetic_model_is_reported_verbatim(self):
        sid = "5e7a0000-0000-4000-8000-000000000001"
        lines = [{"type": "user", "uuid": "u1", "sessionId": sid, "timestamp": "2026-06-07T04:32:00.000Z",
                  "message": {"role": "user", "content": "hello"}},
                 {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": sid,
                  "timestamp": "2026-06-07T04:32:01.000Z",
                  "message": {"role": "assistant", "model": "<synthetic>",
                              "content": [{"type": "text", "text": "API Error: overloaded"}]}}]
        home = tempfile.mkdtemp(prefix="csift-census-")
        try:
            path = os.path.join(home, "projects", "-work-demo", sid + ".jsonl")
            os.makedirs(os.path.dirname(path))
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(l) + "\n" for l in lines))
            code, out, err = h.run_cli("search", "", "--count-by", "model", "--claude-home", home)
            self.assertEqual(code, h.EXIT_OK, err)
            self.assertEqual(out, "1 <synthetic>\n")
            self.assertIn("1 record excluded: outside the model domain", err)
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def test_pattern_narrows_the_census(self):
        _, rows, _ = census("Bash", "@" + TOKENS, "--count-by", "tool")
        self.assertEqual(rows, [(1, "Bash")])


class CapAndConflictTest(unittest.TestCase):
    def test_max_count_caps_keys_and_reports_the_drop(self):
        code, header, rows, summary, err = h.run_json("search", "", "@" + TOKENS, "--count-by", "tool",
                                                      "--max-count", "2", "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_OK)
        self.assertEqual([r["key"] for r in rows], ["Bash", "Grep"])
        self.assertEqual(summary["dropped_by_cap"], 1)
        self.assertEqual(summary["distinct_keys"], 3)
        self.assertIn("1 key dropped by --max-count", err)
        validate(header, rows, summary)
        _, rows, _ = census("", "@" + TOKENS, "--count-by", "tool", "--max-count", "-1")
        self.assertEqual(rows, [(2, "Read")])

    def test_conflicting_modes_are_usage_errors(self):
        for other in ("-c", "-l", "--siblings", "--raw"):
            code, _, err = h.run_cli("search", "", "@" + TOKENS, "--count-by", "tool", other, "--claude-home", HOME)
            self.assertEqual(code, h.EXIT_USAGE, (other, err))

    def test_unknown_axis_is_a_usage_error(self):
        code, _, _ = h.run_cli("search", "", "@" + TOKENS, "--count-by", "colour", "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_USAGE)


class SessionsPipeTest(unittest.TestCase):
    def test_l_pipes_into_stats_sessions_from_stdin(self):
        code, out, err = h.run_cli("search", "verbose", "-l", "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        ids = out.split()
        self.assertIn(BASICS, ids)
        self.assertEqual(ids, sorted(set(ids)))
        code, header, rows, summary, err = h.run_json("stats", "--sessions-from", "-", "--claude-home", HOME,
                                                      stdin=out)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(header["top_level_sessions"], len(ids))
        top = sorted(r["session_id"] for r in h.rows_of(rows, "session") if not r["is_subagent"])
        self.assertEqual(top, ids)


if __name__ == "__main__":
    unittest.main()
