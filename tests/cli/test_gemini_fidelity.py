"""Gemini CLI at the reference's fidelity, over fixtures/fidelity/gemini (fixtures/make_gemini_fidelity_fixtures.py:
gemini-cli's own shapes, current and older): every failed, denied, interrupted and repeated call reaches
sessions_digest, search, show and stats with its exit code and an excerpt of the output, not of the framing; the
final excerpt is the answer, not the thought text; slash commands and a prompt written again are not prompts.
The expectations are read off the fixture lines by hand, not from the code."""
import json
import os
import unittest

import harness as h

STORE = os.path.join(h.REPO, "fixtures", "fidelity", "gemini")
CURRENT = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f1"
OLDER = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f2"
LEGACY = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f3"
MIGRATED = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f4"
CONTINUED = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f5"  # tests/cli/test_harness_fold.py


def env():
    return h.test_env(GEMINI_CLI_HOME=STORE, CODEX_HOME="/nonexistent-codex", COPILOT_HOME="/nonexistent-copilot")


def cli(tool, *args):
    code, header, rows, summary, err = h.run_json(tool, *args, "--claude-home", STORE, env=env())
    if code != 0:
        raise AssertionError(f"{tool} exited {code}: {err}")
    return header, rows, summary


_DIGESTS = {}


def digest(ref):
    """The digest of one session (both digested in one call, once per run)."""
    if not _DIGESTS:
        _h, rows, _s = cli("sessions_digest", CURRENT, OLDER, LEGACY)
        for r in rows:
            if r["kind"] == "session":
                _DIGESTS[r["ref"]] = r["digest"]
    return _DIGESTS[ref]


def calls(d):
    return [e for e in d["events"] if e["type"] == "tool_call"]


class DigestTest(unittest.TestCase):
    def test_current_shape_failures_denial_interrupt_and_retries(self):
        d = digest(CURRENT)
        c = d["counts"]
        # Two prompts: the slash commands are not prompts and u-2, written twice, is one.
        self.assertEqual((c["prompts"], c["tool_calls"], c["tool_errors"], c["denials"], c["interrupts"]),
                         (2, 5, 2, 1, 1), c)
        prompts = [e["summary"] for e in d["events"] if e["type"] == "prompt"]
        self.assertEqual(prompts, ["run the tests and fix the parser", "why did you reset? run lint only"])
        failed = calls(d)
        self.assertEqual([(e["span"], e["status"], e["exit_code"], e["error_class"]) for e in failed],
                         [("g-1", "error", 1, "exit"), ("g-2", "error", 1, "exit"),
                          ("g-3", "denied", None, "denied"), ("g-3", "interrupted", None, "interrupted")])
        # The excerpt holds the output inside the <untrusted_context> frame, not the frame.
        self.assertTrue(failed[0]["excerpt"].startswith("Output: FAIL src/parser.test.ts"), failed[0])
        self.assertIn("Exit Code: 1", failed[0]["excerpt"])
        self.assertNotIn("untrusted_context", json.dumps(failed))
        self.assertEqual(failed[2]["excerpt"], "[Operation Cancelled] Reason: User denied execution.")
        self.assertEqual(d["denials"], ["g-3"])
        # The failed `npm test` run again, and the interrupted `npm run lint` run again.
        self.assertEqual([(r["span"], r["of_span"]) for r in d["retries"]], [("g-2", "g-1"), ("g-4", "g-3")])
        self.assertEqual(d["flagged"], [{"span": "u-2", "phrase": "why did you"}])
        # The answer, not the thought part before it.
        self.assertEqual(d["final_excerpt"], "Lint is clean; the parser tests still fail on the last token.")

    def test_older_shapes(self):
        d = digest(OLDER)
        c = d["counts"]
        # ls (Exit Code: 0, Signal: (none)) is ok; make (exit 2), the killed server and read_file (a functionCall
        # part answered by a functionResponse part) failed.
        self.assertEqual((c["prompts"], c["tool_calls"], c["tool_errors"], c["denials"], c["interrupts"]),
                         (1, 4, 3, 0, 0), c)
        failed = calls(d)
        self.assertEqual([(e["tool"], e["exit_code"], e["error_class"]) for e in failed],
                         [("run_shell_command", 2, "exit"), ("run_shell_command", None, "tool_error"),
                          ("read_file", None, "tool_error")])
        # The v0.25-era block: the excerpt starts at the output, past `Command:` and `Directory:`.
        self.assertTrue(failed[0]["excerpt"].startswith("Output: cc: error: main.c: No such file"), failed[0])
        self.assertTrue(failed[2]["excerpt"].startswith("File not found: "), failed[2])
        self.assertEqual(d["final_excerpt"], "main.c is missing, so make fails.")


    def test_legacy_json_document(self):
        d = digest(LEGACY)
        c = d["counts"]
        # `/help` is no prompt; `pnpm biuld` exits 127 (its `Signal: (none)` is no signal); replace failed.
        self.assertEqual((c["prompts"], c["tool_calls"], c["tool_errors"]), (1, 2, 2), c)
        failed = calls(d)
        self.assertEqual([(e["tool"], e["exit_code"], e["error_class"]) for e in failed],
                         [("run_shell_command", 127, "exit"), ("replace", None, "tool_error")])
        self.assertTrue(failed[0]["excerpt"].startswith("Output: bash: pnpm biuld: command not found"), failed[0])
        self.assertEqual(d["final_excerpt"], "The script is `build`; app.ts has no typo.")
        self.assertEqual((d["start"], d["model"]), ("2025-10-22T17:30:00.000Z", "gemini-2.5-pro"))

    def test_legacy_json_listed_once(self):
        header, rows, _s = cli("sessions_list", "--harness", "gemini-cli")
        refs = sorted(r["ref"] for r in rows if r["kind"] == "session")
        self.assertEqual(refs, sorted([CURRENT, OLDER, LEGACY, MIGRATED, CONTINUED]))
        self.assertTrue(all(r["state"] == "new" for r in rows if r["kind"] == "session"), rows)
        # The copy a resume migrated is named, not listed twice.
        problems = [p for s in header["stores"] for p in s["problems"]]
        self.assertEqual(len(problems), 1, problems)
        self.assertTrue(problems[0]["path"].endswith("6e1c0004.json"), problems)
        self.assertIn("migrated to session-2025-10-22T17-40-6e1c0004.jsonl", problems[0]["reason"])


class ToolsTest(unittest.TestCase):
    def test_show_marks_every_outcome(self):
        code, out, err = h.run_cli("show", CURRENT, "--turn", "..", "--claude-home", STORE, env=env())
        self.assertEqual(code, 0, err)
        self.assertEqual(out.count("[error · exit 1]"), 2, out)
        self.assertIn("[denied]", out)
        self.assertIn("[interrupted]", out)
        # Two turns: t0 opened by "run the tests", t1 by "why did you reset"; the slash commands open none.
        self.assertIn("·t1 ", out)
        self.assertNotIn("·t2 ", out)
        code, out, err = h.run_cli("show", OLDER, "--turn", "..", "--claude-home", STORE, env=env())
        self.assertEqual(code, 0, err)
        self.assertIn("[error · exit 2]", out)
        self.assertNotIn("[error · exit 0]", out)
        self.assertIn("read_file", out)

    def test_search_hits_carry_the_failure(self):
        _h, rows, _s = cli("search", "2 failing", "--harness", "gemini-cli")
        hits = [x for r in rows if r["kind"] == "exchange" for x in r["hits"] if x["label"] == "agent.tool.result"]
        self.assertEqual(len(hits), 2, rows)
        self.assertTrue(all(x["is_error"] for x in hits), hits)

    def test_stats_counts_turns_and_calls(self):
        _h, rows, _s = cli("stats", CURRENT, OLDER)
        by = {r["session_id"]: r for r in rows if r["kind"] == "session"}
        self.assertEqual(by[CURRENT]["turns"], 2)
        self.assertEqual(by[CURRENT]["tools"], {"run_shell_command": 5})
        self.assertEqual(by[OLDER]["turns"], 1)
        self.assertEqual(by[OLDER]["tools"], {"run_shell_command": 3, "read_file": 1})


if __name__ == "__main__":
    unittest.main()
