"""`csift-mcp --cli search` (spec §6.2, §6.4, §6.10, §7f) against the fixture store, generated stores and the
shared corpus: exchanges in text and JSON, round-trip completeness, every mode and flag, the zero-match
diagnosis, the regex dialect and pathological patterns, long and invalid-UTF-8 lines.

Expected values come from fixtures/README.md and the fixture bytes (record uuids encode their line), or from
an independent Python parse, never from the C++ code.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import harness as h
import corpus_store as cs

BASICS = "11111111-1111-4111-8111-000000000001"
SUBS = "44444444-4444-4444-8444-000000000004"
DAMAGED = "77777777-7777-4777-8777-000000000007"
DAMAGED_PATH = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projets-caf---------app", DAMAGED + ".jsonl")
BASICS_PATH = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projects-csift-demo", BASICS + ".jsonl")
SCHEMA = os.path.join(h.REPO, "schemas", "search.output.json")


def search(*args, **kw):
    return h.run_cli("search", *args, "--claude-home", kw.pop("home", h.FIXTURE_HOME), **kw)


def search_json(*args, **kw):
    return h.run_json("search", *args, "--claude-home", kw.pop("home", h.FIXTURE_HOME), **kw)


def hits_of(rows):
    return [hit for row in h.rows_of(rows, "exchange") for hit in row["hits"]]


def validate(header, rows, summary):
    import jsonschema
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.validate({"header": header, "rows": rows, "summary": summary}, schema)


def write_store(files):
    """A temp store with one project holding {name: [record dicts or raw byte lines]}."""
    home = tempfile.mkdtemp(prefix="csift-search-")
    proj = os.path.join(home, "projects", "-tmp-gen")
    os.makedirs(proj)
    for name, lines in files.items():
        with open(os.path.join(proj, name), "wb") as f:
            for line in lines:
                f.write(line if isinstance(line, bytes) else json.dumps(line).encode())
                f.write(b"\n")
    return home


def user(uuid, text, ts="2026-01-01T00:00:00.000Z", parent=None):
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "timestamp": ts, "sessionId": GEN,
            "message": {"role": "user", "content": text}}


def agent(uuid, text, ts="2026-01-01T00:00:01.000Z", parent=None):
    return {"type": "assistant", "uuid": uuid, "parentUuid": parent, "timestamp": ts, "sessionId": GEN,
            "message": {"role": "assistant", "model": "m", "content": [{"type": "text", "text": text}]}}


GEN = "12345678-1234-4234-8234-123456789abc"


class TextOutput(unittest.TestCase):
    def test_exchange_text_has_tokens_glyphs_lines_footer(self):
        code, out, err = search("verbose", "@" + BASICS)
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0], "scope 1 transcript (1 top-level, 0 subagent)")
        self.assertTrue(lines[1].startswith("matches ") and "oldest first" in lines[1], lines[1])
        self.assertTrue(lines[2].startswith("11111111\u00b7t0 2026-03-02 09:00:15"), lines[2])
        self.assertIn(" \u25c2 user.message L3 Please add a --verbose flag", out)
        # the frame: the turn's end-of-turn answer, not the calls it made on the way (those are siblings)
        self.assertIn(" \u25b8 agent.message L6 I'll read the CLI entry point first", out)
        self.assertNotIn(" \u25b8 agent.tool.use \u25b9 agent.tool.result Read L7", out)
        self.assertRegex(lines[-1] if not lines[-1].startswith("\u26a0") else lines[-2],
                         r"^matched \d+ exchanges \u00b7 1 session \u00b7 label=all$")

    def test_carry_prints_the_whole_exchange(self):
        # The first must-show: an agent hit under its turn's opener, exactly as printed.
        code, out, err = search("carry", "@" + BASICS)
        self.assertEqual(code, 0, err)
        self.assertEqual(out.splitlines(), [
            "scope 1 transcript (1 top-level, 0 subagent)",
            "matches 1 exchange \u00b7 1 session \u00b7 oldest first",
            "11111111\u00b7t1 2026-03-02 09:00:55.000 UTC(UTC+0)",
            " \u25c2 user.message L11 Use the src/ dir, not srcx \u2014 and keep the flag short (-v).",
            " \u25b8 agent.message L14 Added `-v/--verbose` to src/cli.py; next I carry the flag into the logger.",
            "matched 1 exchange \u00b7 1 session \u00b7 label=all",
        ])

    def test_footer_names_selectors(self):
        code, out, _ = search("verbose", "@" + BASICS, "-t", "user", "-T", "user.answer")
        self.assertEqual(code, 0)
        self.assertIn("label=user \u00b7 label-not=user.answer", out)

    def test_subagent_header_names_parent(self):
        code, out, err = search("CLI flag", "@" + SUBS)
        self.assertEqual(code, 0, err)
        self.assertIn("a1b2c3d4\u00b7t0", out)
        self.assertIn("(parent 44444444)", out)

    def test_sidecar_location_and_note(self):
        code, out, err = search("Which branch", "@" + SUBS)
        self.assertEqual(code, 0, err)
        self.assertIn("AskUserQuestion (elicitation sidecar)", out)
        self.assertIn("with elicitation sidecar", out)
        self.assertIn("with elicitation sidecar", err)

    def test_zero_match_prints_nothing_on_stdout(self):
        # BASICS has a tool result saved to a file: the zero is definitive only once that file is read too.
        code, out, err = search("zzqqxxnothere", "@" + BASICS, "--resolve-persisted")
        self.assertEqual((code, out), (0, ""))
        self.assertIn("0 matches \u2014 a DEFINITIVE absence (exit 0), NOT an error. Scope: 1 session(s). "
                      "Active filters: none.", err)
        self.assertIn("--count-by label", err)

    def test_excerpt_caution_and_no_truncate(self):
        code, out, _ = search("test_case_199", "@" + BASICS, "--resolve-persisted")
        self.assertEqual(code, 0)
        self.assertIn("excerpts are match-centred FRAGMENTS", out)
        code, out, _ = search("test_case_199", "@" + BASICS, "--resolve-persisted", "--no-truncate")
        self.assertNotIn("FRAGMENTS", out)
        self.assertIn("test_case_000 PASSED", out)


class JsonOutput(unittest.TestCase):
    def test_envelope_shape_and_schema(self):
        code, header, rows, summary, err = search_json("verbose", "@" + BASICS)
        self.assertEqual(code, 0, err)
        validate(header, rows, summary)
        self.assertEqual(header["command"], "search")
        self.assertEqual((header["sessions_in_scope"], header["top_level_sessions"], header["subagent_sessions"]),
                         (1, 1, 0))
        ex = h.rows_of(rows, "exchange")
        self.assertEqual(summary["matched"], len(ex))
        self.assertEqual(summary["transcript_ids"], [BASICS])
        self.assertFalse(summary["definitive_absence"])
        starts = [r["started_utc"] for r in ex]
        self.assertEqual(starts, sorted(starts))
        for r in ex:
            self.assertEqual(r["parent_session_id"], BASICS)
            for hit in r["hits"]:
                self.assertEqual(hit["session_id"], BASICS)
                # The call named a store (--claude-home), so the refetch repeats it.
                self.assertEqual(hit["refetch"], {"tool": "show",
                                                  "arguments": {"targets": [f"@{BASICS}"], "line": [str(hit["line"])],
                                                                "claude_home": os.path.abspath(h.FIXTURE_HOME)}})
                self.assertIn(hit["uuid"], r["record_uuids"])
                self.assertEqual(hit["uuid"], f"01{hit['line']:06d}-aaaa-4aaa-8aaa-000001{hit['line']:06d}")

    def test_sidecar_json(self):
        code, header, rows, summary, _ = search_json("Which branch", "@" + SUBS)
        validate(header, rows, summary)
        self.assertTrue(summary["with_elicitation_sidecar"])
        side = [x for x in hits_of(rows) if x["source"] == "elicitation-sidecar"]
        self.assertEqual(len(side), 1)
        self.assertIsNone(side[0]["line"])
        self.assertEqual(side[0]["pairing"], "pending")

    def test_zero_match_summary(self):
        code, header, rows, summary, _ = search_json("zzqqxxnothere", "@" + BASICS, "--resolve-persisted")
        self.assertEqual((code, rows), (0, []))
        validate(header, rows, summary)
        self.assertTrue(summary["definitive_absence"])
        self.assertEqual(summary["active_filters"], "none")
        self.assertIsNone(summary["excluded_by_label"])
        self.assertIn("user.queued", summary["gated_leaves_unreached"])


class RoundTrip(unittest.TestCase):
    def exchange_lines(self, *args):
        code, header, rows, summary, err = search_json(*args)
        self.assertEqual(code, 0, err)
        for r in h.rows_of(rows, "exchange"):
            self.assertTrue(all(x["matched"] for x in r["hits"]), "hits[] holds matched units only")
            self.assertTrue(all(not x["matched"] for x in r["frame"]))
        return [{(x["line"], x["label"], x["matched"]) for x in r["hits"] + r["frame"]}
                for r in h.rows_of(rows, "exchange")]

    def test_tool_use_hit_brings_its_result(self):
        (ex,) = self.exchange_lines("ls srcx", "@" + BASICS, "-t", "agent.tool.use")
        self.assertIn((9, "agent.tool.use", True), ex)
        self.assertIn(10, {line for line, _, _ in ex})

    def test_tool_result_hit_brings_its_use(self):
        (ex,) = self.exchange_lines("cannot access", "@" + BASICS)
        self.assertIn((10, "agent.tool.result", True), ex)
        self.assertIn((9, "agent.tool.use", False), ex)

    def test_user_hit_brings_the_agent_answer(self):
        (ex,) = self.exchange_lines("Explain the plan first", "@" + BASICS)
        self.assertIn((3, "user.message", True), ex)
        self.assertIn((6, "agent.message", False), ex)  # the end-of-turn answer
        self.assertNotIn((5, "agent.thinking", False), ex)  # the rest of the turn only under --siblings

    def test_agent_hit_sits_under_its_opener(self):
        exs = self.exchange_lines("read it before editing", "@" + BASICS)
        self.assertEqual(len(exs), 1)
        self.assertIn((3, "user.message", False), exs[0])

    def test_a_unit_appears_once_per_exchange(self):
        # Peers L18 (a background Task) is a hit of turn 7 and the partner of the L20 notification in turn 8:
        # within one exchange it is rendered once, as a hit when it matched, else as stitched context.
        code, header, rows, summary, err = search_json("", "@33333333", "-t", "agent.communication")
        self.assertEqual(code, 0, err)
        seen_18 = []
        for r in h.rows_of(rows, "exchange"):
            units = [(x["line"], x["tool_use_id"], x["text"]) for x in r["hits"] + r["frame"]]
            self.assertEqual(len(units), len(set(units)), r["turn_index"])
            seen_18 += [(r["turn_index"], x["matched"]) for x in r["hits"] + r["frame"] if x["line"] == 18]
        self.assertEqual(seen_18, [(7, True), (8, False)])


class Filters(unittest.TestCase):
    def test_label_include_exclude(self):
        _, _, rows, _, _ = search_json("", "@" + BASICS, "-t", "user")
        matched = [x for x in hits_of(rows) if x["matched"]]
        self.assertTrue(matched)
        self.assertTrue(all(x["label"].startswith("user.") for x in matched))
        _, _, rows, _, _ = search_json("", "@" + BASICS, "-t", "user", "-T", "user.message")
        labels = {x["label"] for x in hits_of(rows) if x["matched"]}
        self.assertNotIn("user.message", labels)
        self.assertIn("user.answer", labels)

    def test_turn_window(self):
        _, _, rows, _, _ = search_json("", "@" + BASICS, "--turn", "2..3")
        self.assertEqual({r["turn_index"] for r in h.rows_of(rows, "exchange")}, {2, 3})
        _, _, rows, _, _ = search_json("", "@" + BASICS, "--turn", "-1")
        self.assertEqual({r["turn_index"] for r in h.rows_of(rows, "exchange")}, {9})

    def test_time_window(self):
        _, _, rows, _, _ = search_json("", "@" + BASICS, "--since", "2026-03-02T09:03:00Z",
                                       "--until", "2026-03-02T09:03:59Z")
        for x in hits_of(rows):
            if x["matched"]:
                self.assertTrue("2026-03-02T09:03:00" <= x["ts_utc"] <= "2026-03-02T09:03:59.999", x["ts_utc"])

    def test_draft_outside_turns_and_suppressed_under_turn(self):
        _, _, rows, summary, _ = search_json("", "@" + BASICS, "-t", "user.unsent")
        ex = h.rows_of(rows, "exchange")
        self.assertEqual(len(ex), 1)
        self.assertTrue(ex[0]["superseded_draft"])
        self.assertIsNone(ex[0]["turn_index"])
        self.assertEqual(ex[0]["hits"][0]["line"], 47)
        self.assertEqual(summary["superseded_drafts"], 1)
        code, out, _ = search("", "@" + BASICS, "-t", "user.unsent")
        self.assertIn("11111111\u00b7draft", out)
        code, _, rows, _, _ = search_json("", "@" + BASICS, "-t", "user.unsent", "--turn", "..")
        self.assertEqual(rows, [])

    def test_empty_pattern_warning(self):
        # Only a scope of whole projects warns (a session target is a bounded read; issue 9 point 12).
        _, _, err = search("", "-home-dev-projects-csift-demo")
        self.assertIn("empty pattern with no category/time/turn/session filter", err)
        _, _, err = search("", "-home-dev-projects-csift-demo", "-t", "user")
        self.assertNotIn("empty pattern", err)

    def test_smart_case_and_ignore_case(self):
        n_lower = search("bash", "@" + BASICS, "-c")[1]
        n_upper = search("BASH", "@" + BASICS, "-c")[1]
        n_forced = search("BASH", "@" + BASICS, "-c", "-i")[1]
        self.assertEqual(n_upper.strip(), "0")
        self.assertEqual(n_lower, n_forced)
        self.assertNotEqual(n_lower.strip(), "0")

    def test_no_subagents(self):
        _, _, rows, _, _ = search_json("", "@" + SUBS, "-t", "agent", "--no-subagents")
        self.assertTrue(rows)
        self.assertTrue(all(not r["is_subagent"] for r in h.rows_of(rows, "exchange")))
        _, _, rows, _, _ = search_json("", "@" + SUBS, "-t", "agent")
        self.assertTrue(any(r["is_subagent"] for r in h.rows_of(rows, "exchange")))


class Modes(unittest.TestCase):
    def test_count_only_counts_exchanges(self):
        _, _, rows, _, _ = search_json("verbose")
        code, out, _ = search("verbose", "-c")
        self.assertEqual((code, out), (0, f"{len(h.rows_of(rows, 'exchange'))}\n"))

    def test_sessions_with_matches(self):
        _, _, rows, _, _ = search_json("verbose")
        owners = sorted({r["parent_session_id"] for r in h.rows_of(rows, "exchange")})
        code, out, _ = search("verbose", "-l")
        self.assertEqual(out.split(), owners)
        code, out, err = search("verbose", "-l", "--max-count", "1")
        self.assertEqual(out.split(), owners)
        self.assertIn("uncapped", err)
        _, header, rows, summary, _ = search_json("verbose", "-l")
        self.assertEqual([r["session_id"] for r in h.rows_of(rows, "session")], owners)
        validate(header, rows, summary)

    def test_max_count_signed(self):
        _, _, rows, summary, _ = search_json("verbose", "@" + BASICS)
        allx = [(r["session_id"], r["turn_index"]) for r in h.rows_of(rows, "exchange")]
        self.assertGreater(len(allx), 3)
        _, _, rows, summary, _ = search_json("verbose", "@" + BASICS, "--max-count", "2")
        self.assertEqual([(r["session_id"], r["turn_index"]) for r in rows], allx[:2])
        self.assertEqual((summary["dropped_by_cap"], summary["dropped_side"]), (len(allx) - 2, "later"))
        _, _, rows, summary, _ = search_json("verbose", "@" + BASICS, "--max-count", "-2")
        self.assertEqual([(r["session_id"], r["turn_index"]) for r in rows], allx[-2:])
        self.assertEqual(summary["dropped_side"], "earlier")
        _, out, _ = search("verbose", "@" + BASICS, "--max-count", "-2")
        self.assertIn(f"matches {len(allx)} exchanges \u00b7 1 session \u00b7 oldest first \u00b7 showing latest 2", out)
        self.assertIn(f"{len(allx) - 2} earlier dropped by --max-count", out)

    def test_raw_lines_are_verbatim(self):
        code, out, err = search("ls srcx", "@" + BASICS, "--raw")
        self.assertEqual(code, 0, err)
        with open(BASICS_PATH, encoding="utf-8") as f:
            lines = f.read().split("\n")
        got = out.rstrip("\n").split("\n")
        self.assertTrue(got)
        for line in got:
            self.assertIn(line, lines)
        self.assertEqual(len(got), len(set(got)))

    def test_raw_omits_sidecar_with_note(self):
        code, out, err = search("Which branch", "@" + SUBS, "--raw")
        self.assertEqual((code, out), (0, ""))
        self.assertIn("sidecar record(s) omitted", err)

    def test_sessions_pipe_into_stats(self):
        _, ids, _ = search("verbose", "-l")
        code, out, err = h.run_cli("stats", "--sessions-from", "-", "--claude-home", h.FIXTURE_HOME, "--format",
                                   "json", stdin=ids)
        self.assertEqual(code, 0, err)


class Errors(unittest.TestCase):
    def assert_usage(self, *args, needles=()):
        code, out, err = search(*args)
        self.assertEqual(code, h.EXIT_USAGE, err)
        for n in needles:
            self.assertIn(n, err + out)  # a --format json error is an envelope on stdout

    def test_conflicts_name_both_flags(self):
        self.assert_usage("x", "--raw", "--format", "json", needles=("--raw", "--format json"))
        self.assert_usage("x", "--raw", "--siblings", needles=("--raw", "--siblings"))
        self.assert_usage("x", "--raw", "-c", needles=("--raw", "--count-only"))
        self.assert_usage("x", "--raw", "-l", needles=("--raw", "--sessions-with-matches"))
        self.assert_usage("x", "--raw", "--no-truncate", needles=("--raw", "--no-truncate"))
        self.assert_usage("x", "-c", "-l", needles=("--count-only", "--sessions-with-matches"))
        self.assert_usage("x", "--count-by", "label", "-c", needles=("--count-by", "--count-only"))
        self.assert_usage("x", "--count-by", "label", "--siblings", needles=("--count-by", "--siblings"))

    def test_dialect_refusals(self):
        self.assert_usage("(\\w)\\1", needles=("backreference", "linear-time"))
        self.assert_usage("foo(?=bar)", needles=("look",))

    def test_at_pattern_and_uuid_note(self):
        self.assert_usage("@" + BASICS, needles=("TARGET",))
        code, _, err = search(BASICS, "@" + BASICS)
        self.assertEqual(code, 0)
        self.assertIn("LITERAL", err)

    def test_legacy_selector_and_empty_set(self):
        self.assert_usage("x", "-t", "thinking")
        self.assert_usage("x", "-t", "user.message", "-T", "user")


class Diagnosis(unittest.TestCase):
    def test_label_filter_probe_names_labels(self):
        code, out, err = search("ls srcx", "@" + BASICS, "-t", "user.message")
        self.assertEqual((code, out), (0, ""))
        self.assertIn("\u26a0 but \"ls srcx\" DOES occur \u2014 1 record(s) under: agent.tool.use \u00d71", err)
        self.assertIn("Your -t/-T excluded them", err)
        _, _, rows, summary, _ = search_json("ls srcx", "@" + BASICS, "-t", "user.message")
        self.assertEqual(summary["excluded_by_label"],
                         {"rows": [{"label": "agent.tool.use", "records": 1}], "total": 1})
        self.assertEqual(summary["active_filters"], "-t user.message")

    def test_absent_even_unfiltered(self):
        _, _, err = search("zzqqxxnothere", "@" + BASICS, "-t", "user")
        self.assertIn("absent even without the -t/-T filter", err)

    def test_malformed_lines_disclosed(self):
        _, _, err = search("zzqqxxnothere", "@" + DAMAGED)
        self.assertIn("4 malformed/torn line(s)", err)  # 3 malformed + torn; the 0xFF line is a record


class SkippedLines(unittest.TestCase):
    def test_exact_with_and_without_the_file_gate(self):
        for pattern in ("zzqqxxnothere", "", "rendered"):
            _, _, _, summary, _ = search_json(pattern, "@" + DAMAGED)
            self.assertEqual(summary["skipped_lines"], 4, pattern)

    def test_invalid_utf8_line_is_searched(self):
        # The fixture's line 8 differs from a record only by a raw 0xFF byte: it is parsed from a repaired copy
        # (U+FFFD in place), so a pattern found only there finds it, and show --raw still has the byte.
        code, header, rows, summary, err = search_json("byte here", "@" + DAMAGED)
        self.assertEqual(code, 0, err)
        hits = [x for x in hits_of(rows) if x["matched"]]
        self.assertEqual([x["line"] for x in hits], [8])
        self.assertIn("byte here:\ufffd<-", hits[0]["text"])
        self.assertEqual(summary["skipped_lines"], 4)
        p = subprocess.run([h.binary(), "--cli", "show", "@" + DAMAGED, "--line", "8", "--raw", "--claude-home",
                            h.FIXTURE_HOME], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=h.test_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(DAMAGED_PATH, "rb") as f:
            self.assertEqual(p.stdout, f.read().split(b"\n")[7] + b"\n")
        self.assertIn(b"here:\xff<-", p.stdout)

    def test_invalid_utf8_text_mode(self):
        code, out, err = search("byte here", "@" + DAMAGED)
        self.assertEqual(code, 0, err)
        self.assertIn("byte here:\ufffd<-", out)


class Generated(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        long_a = "a" * (1 << 20)
        words = ("word1 " * 200000)[: 1 << 20]
        cls.home = write_store({GEN + ".jsonl": [
            user("u1", "start"),
            agent("a1", long_a + "b", parent="u1"),
            agent("a2", words + "tail", parent="a1"),
            agent("a3", "x" * (10 << 20) + " needle-at-the-end", parent="a2"),
            agent("a4", "aac then (x+x+)+y xxxxy", parent="a3"),
            agent("a5", "a" * 200000, parent="a4"),
            agent("a6", "lone \ud800 surrogate findme here", parent="a5"),
        ]})

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def timed(self, pattern, *args):
        t = time.monotonic()
        code, header, rows, summary, err = search_json(pattern, *args, home=self.home)
        self.assertEqual(code, 0, err)
        return time.monotonic() - t, summary, rows

    def test_regexes_on_long_lines_answer(self):
        # Answers only: their linear cost is measured in bench/, never asserted by a clock here.
        for pattern in ("needle-at-the-end", "[a-z]*[0-9]", "(a|aa)*c"):
            _, summary, _ = self.timed(pattern)
            self.assertEqual(summary.get("too_complex_lines", 0), 0, pattern)

    def test_counted_repeats_on_long_lines_are_decided(self):
        # Issue 10: PCRE2's DFA kept one state per live count, so these lines were too complex (and `a{1000}b`
        # then reported absent); the counter automaton decides them. a1, a2, a3 and a5 are over 1,000
        # characters; a3 is 10 MiB of x.
        for pattern, records in (("a{1000}b", 1), ("a{1000}c", 0), (".{1000}", 4), (".{200}x", 1)):
            _, summary, _ = self.timed(pattern)
            self.assertEqual(summary.get("too_complex_lines", 0), 0, pattern)
            self.assertEqual(summary.get("matched_records", 0), records, pattern)

    def test_pathological_answer_or_too_complex(self):
        for pattern in ("(a+)+$", "(a|aa)*c", "(\\w+\\s?)*$", "(x+x+)+y"):
            _, summary, rows = self.timed(pattern)
            self.assertTrue(summary.get("matched", 0) > 0 or summary["too_complex_lines"] > 0, (pattern, summary))
            if summary["too_complex_lines"] > 0:
                _, _, err = search(pattern, home=self.home)
                self.assertIn("too complex", err)

    def test_lone_surrogate_line_is_searched(self):
        # A lone-surrogate escape is the line's only fault: the reader parses a repaired copy (U+FFFD in place
        # of the escape), so the line is searched, not skipped.
        _, summary, rows = self.timed("surrogate findme")
        self.assertEqual(summary["skipped_lines"], 0)
        hits = [x for x in hits_of(rows) if x["matched"]]
        self.assertEqual([x["line"] for x in hits], [7])
        self.assertIn("lone \ufffd surrogate findme", hits[0]["text"])

    def test_ten_megabyte_line(self):
        _, summary, rows = self.timed("needle-at-the-end")
        hits = [x for x in hits_of(rows) if x["matched"]]
        self.assertEqual([x["line"] for x in hits], [4])
        self.assertTrue(hits[0]["excerpt_truncated"])
        self.assertIn("needle-at-the-end", hits[0]["text"])


class Corpus(unittest.TestCase):
    """Tool-name search over the real corpus vs an independent parse: the transcripts holding a tool_use named
    TodoWrite (-t agent.tool.use, case-sensitive) are exactly the summary's transcript ids."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.placed = cs.temp_corpus_store("csift-corpus-search-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def expected_ids(self, name):
        ids = set()
        for p in self.placed:
            if p["kind"] not in ("session", "subagent"):
                continue
            with open(p["path"], "rb") as f:
                for raw in f:
                    try:
                        r = json.loads(raw)
                    except ValueError:
                        continue
                    msg = r.get("message") if isinstance(r, dict) else None
                    content = msg.get("content") if isinstance(msg, dict) else None
                    if r.get("type") == "assistant" and isinstance(content, list) and any(
                            isinstance(b, dict) and b.get("type") == "tool_use" and name in (
                                b.get("name", "") + json.dumps(b.get("input"), ensure_ascii=False)) for b in content):
                        ids.add(p["id"])
                        break
        return ids

    def test_tool_name_transcripts(self):
        code, header, rows, summary, err = search_json("TodoWrite", "-t", "agent.tool.use", "-c", home=self.tmp)
        self.assertEqual(code, 0, err)
        expected = self.expected_ids("TodoWrite")
        self.assertTrue(expected)
        if len(expected) <= 100:
            got = set(summary["transcript_ids"]) & {p["id"] for p in self.placed}
            self.assertEqual(got, expected)
        self.assertGreaterEqual(summary["matched"], len(expected))


if __name__ == "__main__":
    unittest.main()
