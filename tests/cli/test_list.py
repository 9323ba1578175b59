"""`csift-mcp --cli list` (spec §6.1) against the fixture store and generated temp stores: the identity tuple of
every fixture session (first/last human message never a trap, last agent message), cwd from the records,
version/branch, the sidecar tri-state, clone lineage, the unscoped cap and its disclosure, --since/--until by
span intersection, errors, and that a large store is read only at its heads and tails.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import harness as h

HOME = h.FIXTURE_HOME
DEMO = "-home-dev-projects-csift-demo"
S1 = "11111111-1111-4111-8111-000000000001"
S4 = "44444444-4444-4444-8444-000000000004"
S7 = "77777777-7777-4777-8777-000000000007"
S8 = "88888888-8888-4888-8888-000000000008"
S9 = "99999999-9999-4999-8999-000000000009"
S10 = "aaaaaaaa-aaaa-4aaa-8aaa-000000000010"

# fixtures/README.md "Expected values": id -> (first human, last human, last agent line), as (line, text).
EXPECTED = {
    S1: ((3, "Please add a --verbose flag to the demo CLI. Explain the plan first."),
         (59, "Thanks, that's all for now."), 60),
    "22222222-2222-4222-8222-000000000002": ((1, "Measure the token use of this session, please."),
                                             (22, "back to opus: one last count"), 23),
    "33333333-3333-4333-8333-000000000003": ((1, "Coordinate with the docs session and watch the build."),
                                             (34, "Great, stop the loop."), 35),
    S4: ((1, "Spawn helpers: explore the code, run the docs workflow, and ask the team lead."),
         (8, "Summarise what the helpers found."), 9),
    "a1b2c3d4e5f60718": ((1, "List every CLI flag in src/cli.py."), (1, "List every CLI flag in src/cli.py."), 6),
    "a9f8e7d6c5b4a3f2": ((1, "Which tests cover --verbose?"), (1, "Which tests cover --verbose?"), 2),
    "b0b1b2b3b4b5b6b7": ((1, "Regenerate the docs pages for --verbose."),
                         (1, "Regenerate the docs pages for --verbose."), 2),
    "aTeamLead-68a2a1661c9390c1": (None, None, None),
    "55555555-5555-4555-8555-000000000005": ((2, "Fix the date parser in legacy-app; it breaks on ISO weeks."),
                                             (8, "Also add a regression test."), 9),
    "66666666-6666-4666-8666-000000000006": ((1, "Warm up the explorer agent."), (1, "Warm up the explorer agent."), 2),
    "a5e1f2a": ((1, "Scan lib/ for parsers"), (1, "Scan lib/ for parsers"), 2),
    "a6d0c1e": ((1, "Warmup"), (1, "Warmup"), 2),
    S7: ((1, "日本語のテストです: ログ出力を確認してください 🚀"), (12, "最後の質問: is 🙂 rendered? (spaced json)"), 11),
    S8: ((2, "Please add a --verbose flag to the demo CLI. Explain the plan first."),
         (3, "In this fork, try a -q/--quiet flag instead."), 4),
    S9: ((4, "Now ask me which log level the flag should default to."),
         (5, "Continue in the background job: run the linters."), 6),
    S10: ((1, "Bonjour ! Résume le café-日本語 projet en une phrase."),
          (1, "Bonjour ! Résume le café-日本語 projet en une phrase."), 2),
}


def list_json(*args, home=HOME, stdin=None):
    code, header, rows, summary, err = h.run_json("list", "--claude-home", home, *args, stdin=stdin)
    assert code == 0, f"list exited {code}: {err}"
    return header, rows, summary


def by_id(rows):
    return {r["session_id"]: r for r in rows}


def user_line(sid, uuid, ts, text):
    return json.dumps({"type": "user", "sessionId": sid, "uuid": uuid, "timestamp": ts, "cwd": "/tmp/gen",
                       "version": "2.1.200", "gitBranch": "main",
                       "message": {"role": "user", "content": text}}, separators=(",", ":")) + "\n"


def agent_line(sid, uuid, ts, text):
    return json.dumps({"type": "assistant", "sessionId": sid, "uuid": uuid, "timestamp": ts,
                       "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}},
                      separators=(",", ":")) + "\n"


def carrier_line(sid, n, ts):
    return json.dumps({"type": "user", "sessionId": sid, "uuid": f"c{n}", "timestamp": ts,
                       "message": {"role": "user", "content": [
                           {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * 300}]}},
                      separators=(",", ":")) + "\n"


def session_id(n):
    return f"{n:08x}-0000-4000-8000-{n:012x}"


class FixtureIdentityTest(unittest.TestCase):
    """Every fixture transcript shows the right first and last human message and last agent message."""

    @classmethod
    def setUpClass(cls):
        cls.header, cls.rows, cls.summary = list_json("--max-count", "0")
        cls.rows_by_id = by_id(cls.rows)

    def test_every_transcript_listed_once(self):
        self.assertEqual(sorted(self.rows_by_id), sorted(EXPECTED))
        self.assertEqual(self.header["sessions_in_scope"], 16)
        self.assertEqual(self.header["top_level_sessions"], 10)
        self.assertEqual(self.header["subagent_sessions"], 6)
        self.assertEqual(self.summary["sessions"], 16)
        self.assertEqual(self.summary["dropped_by_cap"], 0)

    def test_first_and_last_human_and_last_agent(self):
        for sid, (first, last, agent_line_no) in EXPECTED.items():
            row = self.rows_by_id[sid]
            with self.subTest(session=sid):
                for field, want in (("first_user", first), ("last_user", last)):
                    if want is None:
                        self.assertIsNone(row[field])
                        continue
                    self.assertEqual(row[field]["text"], want[1])
                    self.assertEqual(row[field]["line"], want[0])
                    self.assertEqual(row[field + "_utc"], row[field]["ts_utc"])
                if agent_line_no is None:
                    self.assertIsNone(row["last_agent"])
                else:
                    self.assertEqual(row["last_agent"]["line"], agent_line_no)

    def test_text_blocks_carry_the_right_messages(self):
        code, out, err = h.run_cli("list", "--claude-home", HOME, "--max-count", "0")
        self.assertEqual(code, 0, err)
        blocks = out.split("\n\n")
        for sid, (first, last, _agent) in EXPECTED.items():
            block = next(b for b in blocks if b.startswith(("SESSION " + sid, "SUBAGENT " + sid)))
            with self.subTest(session=sid):
                lines = block.splitlines()
                first_at = next(i for i, l in enumerate(lines) if l.startswith("first ◂"))
                last_at = next(i for i, l in enumerate(lines) if l.startswith("last ◂"))
                if first is None:
                    self.assertEqual(lines[first_at], "first ◂ (none)")
                    continue
                self.assertEqual(lines[first_at + 1], first[1])
                self.assertEqual(lines[last_at + 1], last[1])
                self.assertRegex(lines[first_at], r"^first ◂ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ")
        self.assertIn("16 session(s) listed", out)

    def test_cwd_comes_from_the_records(self):
        # the café project dir name is lossy; the row must carry the recorded cwd
        self.assertEqual(self.rows_by_id[S10]["cwd"], "/home/dev/projets/café-日本語-🚀/app")
        self.assertEqual(self.rows_by_id["b0b1b2b3b4b5b6b7"]["cwd"], "/home/dev/projects/csift-demo/docs")

    def test_version_and_branch(self):
        row = self.rows_by_id[S1]
        self.assertEqual(row["version"], row["version_last"])
        self.assertEqual(row["git_branch"], "main")
        legacy = self.rows_by_id["55555555-5555-4555-8555-000000000005"]
        self.assertEqual(legacy["version_first"], "1.0.80")

    def test_subagent_rows(self):
        row = self.rows_by_id["a1b2c3d4e5f60718"]
        self.assertTrue(row["is_subagent"])
        self.assertEqual(row["parent_session_id"], S4)
        self.assertEqual(row["shape"], "builtin-task")
        self.assertEqual(row["agent_type"], "Explore")
        self.assertEqual(self.rows_by_id["b0b1b2b3b4b5b6b7"]["shape"], "workflow")
        top = self.rows_by_id[S1]
        self.assertFalse(top["is_subagent"])
        self.assertEqual(top["parent_session_id"], S1)

    def test_sidecar_tri_state(self):
        row = self.rows_by_id[S4]
        self.assertTrue(row["sidecar_present"])
        self.assertEqual([p["kind"] for p in row["pending_elicitations"]], ["AskUserQuestion"])
        self.assertEqual(row["pending_elicitations"][0]["pending_since_utc"][:19], "2026-03-02T15:05:00")
        for sid, r in self.rows_by_id.items():
            if sid != S4:
                self.assertFalse(r["sidecar_present"], sid)
        self.assertTrue(self.summary["with_elicitation_sidecar"])

    def test_clone_lineage(self):
        clone = self.rows_by_id[S9]
        self.assertTrue(clone["is_clone"])
        self.assertEqual(clone["clone_of"], S1)
        self.assertEqual(clone["clone_boundary_uuid"], "01000033-aaaa-4aaa-8aaa-000001000033")
        self.assertFalse(self.rows_by_id[S8]["is_clone"], "a /fork copy opens with a user prompt, not a boundary")
        code, out, _ = h.run_cli("list", "--claude-home", HOME, "@" + S9)
        self.assertIn(f"clone forked from SESSION {S1} at compaction boundary 01000033-aaaa-4aaa-8aaa-000001000033",
                      out)

    def test_window_census_disclosed(self):
        damaged = self.rows_by_id[S7]
        self.assertEqual(damaged["skipped_lines"], 1, "only the torn tail lies in the head/tail windows")
        self.assertEqual(self.summary["skipped_lines"], 1)
        code, out, _ = h.run_cli("list", "--claude-home", HOME, "@" + S7)
        self.assertIn("skipped 1 malformed line(s) among the head/tail lines read — full census: stats", out)


class CapTest(unittest.TestCase):
    def test_explicit_cap_keeps_the_most_recently_active_in_path_order(self):
        _h, all_rows, _s = list_json("--max-count", "0")
        _h, rows, summary = list_json("--max-count", "3")
        self.assertEqual(summary["dropped_by_cap"], 13)
        self.assertEqual(summary["sessions"], 3)
        self.assertEqual(sorted(r["session_id"] for r in rows), sorted([S7, S9, S10]))
        order = [r["session_id"] for r in all_rows]
        self.assertEqual([r["session_id"] for r in rows], [s for s in order if s in (S7, S9, S10)])
        code, out, _ = h.run_cli("list", "--claude-home", HOME, "--max-count", "3")
        self.assertIn("13 dropped by cap", out)

    def test_scoped_runs_are_uncapped_unless_asked(self):
        _h, rows, summary = list_json(os.path.join(HOME, "projects", DEMO))
        self.assertEqual(len(rows), 10)
        self.assertEqual(summary["dropped_by_cap"], 0)
        _h, rows, summary = list_json(os.path.join(HOME, "projects", DEMO), "--max-count", "2")
        self.assertEqual(len(rows), 2)
        self.assertEqual(summary["dropped_by_cap"], 8)

    def test_unscoped_default_cap_is_50_and_reported(self):
        tmp = tempfile.mkdtemp(prefix="csift-list-cap-")
        try:
            proj = os.path.join(tmp, "projects", "-tmp-gen")
            os.makedirs(proj)
            for n in range(1, 56):
                sid = session_id(n)
                ts = f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:00:00.000Z"
                with open(os.path.join(proj, sid + ".jsonl"), "w") as f:
                    f.write(user_line(sid, "u1", ts, f"question {n}") + agent_line(sid, "a1", ts, f"answer {n}"))
            header, rows, summary = list_json(home=tmp)
            self.assertEqual(header["sessions_in_scope"], 55, "the scope banner reports the pre-cap range")
            self.assertEqual(len(rows), 50)
            self.assertEqual(summary["dropped_by_cap"], 5)
            self.assertEqual(summary["max_count"], 50)
            _h, rows, summary = list_json("--max-count", "0", home=tmp)
            self.assertEqual(len(rows), 55)
            code, out, _ = h.run_cli("list", "--claude-home", tmp)
            self.assertIn("50 session(s) listed · 5 dropped by cap", out)
            self.assertTrue(out.startswith("scope 55 transcripts ("))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class WindowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        _h, rows, _s = list_json("--max-count", "0")
        cls.spans = {r["session_id"]: (r["first_activity_utc"], r["last_activity_utc"]) for r in rows}

    def check_window(self, since, until):
        args = ["--max-count", "0"]
        if since:
            args += ["--since", since]
        if until:
            args += ["--until", until]
        _h, rows, summary = list_json(*args)
        got = {r["session_id"] for r in rows}
        want = {sid for sid, (lo, hi) in self.spans.items()
                if lo and hi and (not since or hi >= since) and (not until or lo <= until)}
        self.assertEqual(got, want, f"since={since} until={until}")
        self.assertEqual(summary["outside_window"], len(self.spans) - len(want))
        return got

    def test_since(self):
        got = self.check_window("2026-03-05T00:00:00.000Z", None)
        self.assertEqual(got, {S7, S10})

    def test_until(self):
        got = self.check_window(None, "2025-12-31T00:00:00.000Z")
        self.assertIn("55555555-5555-4555-8555-000000000005", got)
        self.assertNotIn(S1, got)

    def test_a_straddling_session_is_kept(self):
        got = self.check_window("2026-03-02T12:00:00.000Z", "2026-03-02T12:30:00.000Z")
        self.assertIn(S8, got, "session 8 runs 09:00 -> 17:00 and straddles the window")
        self.assertIn(S9, got)
        self.assertNotIn(S1, got)

    def test_a_session_without_timestamps_never_matches_a_bounded_window(self):
        tmp = tempfile.mkdtemp(prefix="csift-list-nots-")
        try:
            proj = os.path.join(tmp, "projects", "-tmp-gen")
            os.makedirs(proj)
            with open(os.path.join(proj, session_id(1) + ".jsonl"), "w") as f:
                f.write('{"type":"user","message":{"role":"user","content":"no time here"}}\n')
            _h, rows, _s = list_json(home=tmp)
            self.assertEqual(len(rows), 1)
            _h, rows, summary = list_json("--since", "2000-01-01", home=tmp)
            self.assertEqual(rows, [])
            self.assertEqual(summary["outside_window"], 1)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class ScopeAndErrorTest(unittest.TestCase):
    def test_sessions_from_stdin_and_no_subagents(self):
        _h, rows, _s = list_json("--sessions-from", "-", "--no-subagents", stdin=f"@{S4}\n{S1}\n")
        self.assertEqual(sorted(r["session_id"] for r in rows), sorted([S1, S4]))

    def test_subagents_listed_by_default(self):
        _h, rows, _s = list_json("@" + S4)
        self.assertEqual(len(rows), 5)

    def test_bad_target_names_the_path_tried(self):
        code, out, err = h.run_cli("list", "--claude-home", HOME, "/no/such/project")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("/no/such/project", out + err)

    def test_bad_flag_and_bad_time_are_usage_errors(self):
        code, _out, err = h.run_cli("list", "--claude-home", HOME, "--bogus")
        self.assertEqual(code, h.EXIT_USAGE)
        code, out, err = h.run_cli("list", "--claude-home", HOME, "--since", "someday")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--since", out + err)
        code, out, err = h.run_cli("list", "--claude-home", HOME, "--since", "2026-03-05", "--until", "2026-03-01")
        self.assertEqual(code, h.EXIT_USAGE)

    def test_json_error_envelope(self):
        code, out, _err = h.run_cli("list", "--claude-home", HOME, "@deadbeefdeadbeef", "--format", "json")
        self.assertEqual(code, h.EXIT_ERROR)
        _header, rows, summary = h.parse_envelope(out)
        self.assertEqual(rows, [])
        self.assertEqual(summary["error"]["kind"], "not_found")


def rchar_of(cmd):
    """Bytes the command read (its reaped rchar, measured from a wrapping shell's /proc/self/io)."""
    script = 'before=$(grep rchar /proc/$$/io | cut -d" " -f2); "$@" >/dev/null; ' \
             'after=$(grep rchar /proc/$$/io | cut -d" " -f2); echo $((after - before))'
    p = subprocess.run(["bash", "-c", script, "rchar", *cmd], stdout=subprocess.PIPE, env=h.test_env(), timeout=600)
    return int(p.stdout.decode().strip().splitlines()[-1])


class HeadTailOnlyTest(unittest.TestCase):
    """A 1 GiB store (one 8 MiB transcript linked under 128 session names) is read only at heads and tails."""

    def test_large_store_reads_heads_and_tails(self):
        tmp = tempfile.mkdtemp(prefix="csift-list-big-")
        try:
            sid = session_id(9999)
            src = os.path.join(tmp, "source.jsonl")
            with open(src, "w") as f:
                f.write(user_line(sid, "u1", "2026-02-01T10:00:00.000Z", "opening question"))
                n = 0
                while f.tell() < 8 << 20:
                    n += 1
                    f.write(carrier_line(sid, n, "2026-02-01T10:30:00.000Z"))
                f.write(user_line(sid, "u2", "2026-02-01T11:00:00.000Z", "closing question"))
                f.write(agent_line(sid, "a2", "2026-02-01T11:00:05.000Z", "closing answer"))
            files = [(session_id(k) + ".jsonl", src) for k in range(1, 129)]
            with h.TempStore({"-tmp-big": files}) as home:
                _h, rows, summary = list_json("--max-count", "0", home=home)
                self.assertEqual(len(rows), 128)
                for r in rows:
                    self.assertEqual(r["first_user"]["text"], "opening question")
                    self.assertEqual(r["last_user"]["text"], "closing question")
                    self.assertEqual(r["last_agent"]["text"], "closing answer")
                    self.assertFalse(r["read_whole_file"])
                store_bytes = summary["bytes"]
                self.assertGreater(store_bytes, 1 << 30)
                self.assertLess(summary["bytes_read"], store_bytes // 50)
                read = rchar_of([h.binary(), "--cli", "list", "--claude-home", home, "--max-count", "0"])
                self.assertLess(read, store_bytes // 30, f"list read {read} bytes of a {store_bytes}-byte store")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
