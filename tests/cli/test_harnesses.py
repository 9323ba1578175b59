"""Across harnesses through the CLI: one search over the Claude Code, Codex and Gemini CLI fixture stores returns
exchanges of all three, each named by its ref; show renders a Codex session named by its ref; list gives a
Codex session's working directory; a store problem (an unsupported file) reaches the summary."""
import json
import os
import subprocess
import unittest

import corpus_store as cs

HARNESSES = os.path.join(cs.FIXTURES, "harnesses")
CODEX_REF = "codex:0199aaaa-0000-7000-8000-000000000001"


def run(args, extra_env=None):
    env = dict(os.environ, TZ="UTC", CODEX_HOME=os.path.join(HARNESSES, "codex"),
               GEMINI_CLI_HOME=os.path.join(HARNESSES, "gemini"), COPILOT_HOME="/nonexistent-copilot-home")
    env.update(extra_env or {})
    p = subprocess.run([cs.binary(), "--cli"] + args + ["--claude-home", cs.FIXTURE_HOME, "--format", "json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    return p.returncode, cs.parse_envelope(p.stdout), p.stderr


class HarnessesTest(unittest.TestCase):
    def test_search_across_three_harnesses(self):
        code, (header, rows, summary), err = run(
            ["search", "run the tests", "--harness", "claude-code", "--harness", "codex", "--harness", "gemini-cli"])
        self.assertEqual(code, 0, err)
        ids = {r["session_id"] for r in rows if r["kind"] == "exchange"}
        self.assertIn(CODEX_REF, ids)
        self.assertIn("gemini-cli:5e1a0000-0000-4000-8000-0000000000e1", ids)
        self.assertTrue(any(len(i) == 36 and ":" not in i for i in ids), ids)  # a Claude Code session uuid
        stores = {s["harness"]: s for s in summary["stores"]}
        self.assertEqual(header["stores"], summary["stores"])
        self.assertEqual(stores["codex"]["sessions"], 1)
        # Every file of these stores is read: the legacy Gemini .json session and the compressed Codex rollout
        # (test_codex_fidelity.py) alike.
        reasons = [u["reason"] for u in summary["unread_transcripts"]]
        self.assertEqual(sum(r.startswith("unsupported-format:") for r in reasons), 0, reasons)

    def test_show_renders_a_codex_ref(self):
        code, (header, rows, _summary), err = run(["show", CODEX_REF, "--turn", ".."])
        self.assertEqual(code, 0, err)
        self.assertEqual(header["transcript_id"], CODEX_REF)
        self.assertTrue(all(r["session_id"] == CODEX_REF for r in rows if r["kind"] == "record"))
        texts = json.dumps(rows)
        self.assertIn("rake db:migrate", texts)  # the bash -lc argv, read as its script
        self.assertIn("[denied]", texts)
        self.assertIn("now run the tests, then the migration", texts)

    def test_list_and_stats_of_a_codex_session(self):
        code, (_h, rows, _s), err = run(["list", CODEX_REF])
        self.assertEqual(code, 0, err)
        self.assertEqual(rows[0]["cwd"], "/home/dev/projects/shop")
        self.assertEqual(rows[0]["session_id"], CODEX_REF)
        code, (_h, rows, summary), err = run(["stats", "--harness", "codex"])
        self.assertEqual(code, 0, err)
        self.assertEqual(rows[0]["session_id"], CODEX_REF)
        tokens = summary["tokens"]["gpt-5-codex"] if "gpt-5-codex" in summary.get("tokens", {}) else None
        self.assertIsNotNone(tokens, summary)
        self.assertEqual(tokens["cache_read_input_tokens"], 1700)
        self.assertEqual(tokens["output_tokens"], 80)
        # 600 uncached input * $1.25 + 1,700 cached * $0.125 + 80 output * $10 = 1,762.5 per million, and the
        # answer rounds dollars to a millionth.
        self.assertEqual(summary["cost"]["by_model"], {"gpt-5-codex": 0.001763})
        self.assertEqual(rows[0]["cost_usd"], 0.001763)
        self.assertIn("openai.com/api/pricing", summary["cost"]["prices"]["openai"])

    def test_stats_prices_a_gemini_session(self):
        code, (_h, rows, summary), err = run(["stats", "--harness", "gemini-cli"])
        self.assertEqual(code, 0, err)
        # Two messages: input 5,000 + 5,200 of which 3,000 + 5,000 cached; output 40 + 12 and 10 thoughts.
        # 2,200 uncached * $1.25 + 8,000 cached * $0.31 + 62 output * $10 = 5,850 per million.
        self.assertEqual(summary["tokens"]["gemini-2.5-pro"],
                         {"input_tokens": 2200, "output_tokens": 62, "cache_read_input_tokens": 8000,
                          "cache_creation_input_tokens": 0}, summary["tokens"])
        self.assertEqual(summary["cost"]["by_model"], {"gemini-2.5-pro": 0.00585})
        self.assertNotIn("unpriced", summary["cost"])


class RegisteredDatabaseAndCursorStores(unittest.TestCase):
    """OpenCode (a SQLite database built by the fixture script) and Cursor reached through the registry:
    `harness: all` lists their sessions by ref, as the database and the transcript files name them."""

    @classmethod
    def setUpClass(cls):
        import shutil
        import tempfile
        if not shutil.which("sqlite3"):
            raise AssertionError("the sqlite3 tool is missing: .ci/install-deps.sh installs it")
        cls.tmp = tempfile.mkdtemp(prefix="csift-oc-")
        cls.addClassCleanup(shutil.rmtree, cls.tmp, True)
        os.makedirs(os.path.join(cls.tmp, "opencode"))
        cls.db = os.path.join(cls.tmp, "opencode", "opencode.db")
        subprocess.run(["bash", os.path.join(cs.FIXTURES, "opencode", "make_opencode_db.sh"), "v2", cls.db],
                       check=True, stdout=subprocess.DEVNULL)
        cls.cursor_home = os.path.join(cs.FIXTURES, "cursor", "home")

    def test_all_lists_opencode_and_cursor_sessions_by_ref(self):
        code, (_h, rows, summary), err = run(["list", "--harness", "all", "--max-count", "0"],
                                             {"XDG_DATA_HOME": self.tmp, "HOME": self.cursor_home})
        self.assertEqual(code, 0, err)
        listed = {r["session_id"] for r in rows if r.get("kind") == "session"}
        query = "select id from session_v2 where parent_id is null"
        v2 = subprocess.run(["sqlite3", self.db, query], stdout=subprocess.PIPE, text=True, check=True)
        expected_v2 = {"opencode-v2:" + i for i in v2.stdout.split()}
        self.assertTrue(expected_v2)
        self.assertTrue(expected_v2 <= listed, (expected_v2, listed))
        self.assertFalse(any(i.startswith("opencode-v1:") for i in listed), "a migrated session is listed once")
        transcripts = os.path.join(self.cursor_home, ".cursor", "projects")
        cursor_ids = {"cursor:" + n[:-len(".jsonl")] if n.endswith(".jsonl") else "cursor:" + n
                      for p in os.listdir(transcripts)
                      for n in os.listdir(os.path.join(transcripts, p, "agent-transcripts"))
                      if not n.endswith(".txt")}
        self.assertEqual({i for i in listed if i.startswith("cursor:")}, cursor_ids)
        stores = {s["harness"]: s for s in summary["stores"]}
        self.assertEqual(stores["opencode-v2"]["sessions"], len(expected_v2))
        self.assertTrue(stores["cursor"]["found"])

    def test_v2_failed_calls_run_again_are_retries(self):
        # The assistant row with the failing shell call (exit 2) and the failing read, written again later with
        # fresh call ids (the same OpenCode 2 row shape): each is a retry of the first, with its exit code.
        import shutil
        data = os.path.join(self.tmp, "with-retry")
        os.makedirs(os.path.join(data, "opencode"))
        db = os.path.join(data, "opencode", "opencode.db")
        shutil.copy(self.db, db)
        subprocess.run(["sqlite3", db, "INSERT INTO session_message SELECT 'msg_fx2_again', session_id, type, "
                        "seq + 100, time_created + 100000, time_updated + 100000, replace(replace(data, "
                        "'call_v2_exit', 'call_v2_exit_again'), 'call_v2_err', 'call_v2_err_again') "
                        "FROM session_message WHERE id = 'msg_fx2_n2'"], check=True)
        env = {"XDG_DATA_HOME": data, "HOME": self.cursor_home, "CSIFT_STATE_DB": os.path.join(data, "s.db")}
        code, (_h, rows, _s), err = run(["sessions_digest", "opencode-v2:ses_fx2_native"], env)
        self.assertEqual(code, 0, err)
        d = next(r["digest"] for r in rows if r["kind"] == "session")
        calls = {e["span"]: e for e in d["events"] if e["type"] == "tool_call"}
        self.assertEqual((calls["msg_fx2_again/call_v2_exit_again"]["status"],
                          calls["msg_fx2_again/call_v2_exit_again"]["exit_code"]), ("error", 2))
        self.assertEqual(sorted((r["span"], r["of_span"]) for r in d["retries"]),
                         [("msg_fx2_again/call_v2_err_again", "msg_fx2_n2/call_v2_err"),
                          ("msg_fx2_again/call_v2_exit_again", "msg_fx2_n2/call_v2_exit")])

    def test_a_session_part_table_is_named_as_not_read(self):
        # No public OpenCode source or release defines `session_part` (SPEC.md §2): its rows are not guessed
        # at, and the problem names the table, that it is not read, and why.
        import shutil
        data = os.path.join(self.tmp, "with-part")
        os.makedirs(os.path.join(data, "opencode"))
        db = os.path.join(data, "opencode", "opencode.db")
        shutil.copy(self.db, db)
        subprocess.run(["sqlite3", db, "CREATE TABLE session_part (id text PRIMARY KEY, data text)"], check=True)
        code, (_h, rows, summary), err = run(["list", "--harness", "opencode-v2", "--max-count", "0"],
                                             {"XDG_DATA_HOME": data, "HOME": self.cursor_home})
        self.assertEqual(code, 0, err)
        reasons = [u["reason"] for u in summary["unread_transcripts"] if u["path"] == db]
        self.assertEqual(len(reasons), 1, summary["unread_transcripts"])
        self.assertIn("table `session_part` is not read: its layout is unknown", reasons[0])
        self.assertIn("missing from every session of this database", reasons[0])
        self.assertTrue(any(r.get("kind") == "session" for r in rows))  # the sessions are still listed


if __name__ == "__main__":
    unittest.main()
