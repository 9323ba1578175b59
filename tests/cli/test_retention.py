"""Claude Code's cleanup and `export` (SPEC.md §2 "Retention", §9.15), on a temporary copy of the fixture home
whose settings.json sets cleanupPeriodDays 10 and whose transcripts get chosen ages by os.utime (the fixtures
themselves are never written): list, status, sessions_status and the session resources name the sessions the
cleanup deletes within 7 days, and export copies a session's files once, copies nothing the second time, one
file after an append, keeps each source's mtime and refuses a destination inside the store.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

import harness as h

DEMO = "-home-dev-projects-csift-demo"
S1 = "11111111-1111-4111-8111-000000000001"
S3 = "33333333-3333-4333-8333-000000000003"
S4 = "44444444-4444-4444-8444-000000000004"
DAY = 86400


class RetentionAndExport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="csift-retention-")
        cls.home = os.path.join(cls.tmp, "home")
        shutil.copytree(h.FIXTURE_HOME, cls.home, symlinks=True)
        with open(os.path.join(cls.home, "settings.json"), "w") as f:
            json.dump({"cleanupPeriodDays": 10}, f)
        os.makedirs(os.path.join(cls.home, "plans"))
        with open(os.path.join(cls.home, "plans", "re-check-build.md"), "w") as f:  # S3's slug binds it
            f.write("# plan\n")
        now = time.time()
        for root, _, files in os.walk(os.path.join(cls.home, "projects")):
            for name in files:
                os.utime(os.path.join(root, name), (now - DAY, now - DAY))  # 9 days left: not at risk
        project = os.path.join(cls.home, "projects", DEMO)
        # S1 is 8.5 days old (1.5 days left: 2, rounded up), S4 12 days old (past due: deleted at Claude Code's
        # next start).
        cls.ages = {S1: 8.5, S4: 12}
        for sid, age in cls.ages.items():
            os.utime(os.path.join(project, sid + ".jsonl"), (now - age * DAY, now - age * DAY))
        cls.env = h.test_env(HOME=cls.tmp, CODEX_HOME=os.path.join(cls.tmp, "none"),
                             GEMINI_CLI_HOME=os.path.join(cls.tmp, "none"), COPILOT_HOME=os.path.join(cls.tmp, "none"),
                             XDG_DATA_HOME=os.path.join(cls.tmp, "none"), CSIFT_STATE_DB=os.path.join(cls.tmp, "s.db"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def json_call(self, tool, *args):
        code, header, rows, summary, err = h.run_json(tool, *args, "--claude-home", self.home, env=self.env)
        self.assertEqual(code, 0, err)
        return header, rows, summary

    def test_list_status_and_sessions_status_name_the_sessions_at_risk(self):
        _, rows, summary = self.json_call("list", "--max-count", "0", "--no-subagents")
        at_risk = {r["session_id"]: r["expires_in_days"] for r in rows if "expires_in_days" in r}
        self.assertEqual(at_risk, {S1: 2, S4: 0})
        self.assertEqual(summary["expiring"], {"sessions": 2, "within_days": 7, "cleanup_period_days": 10,
                                               "period_from": os.path.join(self.home, "settings.json")})
        code, out, err = h.run_cli("list", "--max-count", "0", "--no-subagents", "--claude-home", self.home,
                                   env=self.env)
        self.assertIn("Claude Code's cleanup deletes it in 2 day(s)", out)
        self.assertIn("Claude Code's cleanup deletes it at its next start", out)
        self.assertIn("2 transcript(s) Claude Code's cleanup deletes within 7 days (cleanupPeriodDays 10", out)

        _, rows, summary = self.json_call("status", "@" + S1)
        self.assertEqual(rows[0]["expires_in_days"], 2)
        self.assertEqual(summary["expiring"]["sessions"], 1)
        _, rows, summary = self.json_call("status", "@" + S3)
        self.assertNotIn("expires_in_days", rows[0])
        self.assertNotIn("expiring", summary)

        code, _, rows, summary, err = h.run_json("sessions_status", env=dict(self.env, CLAUDE_CONFIG_DIR=self.home))
        self.assertEqual(code, 0, err)
        stores = {r["harness"]: r for r in rows}
        self.assertEqual(stores["claude-code"]["cleanup_period_days"], 10)
        self.assertEqual(stores["claude-code"]["expiring"], 2)
        self.assertIsNone(stores["codex"]["cleanup_period_days"])  # no cleanup of its own to read
        self.assertEqual(summary["expiring"]["sessions"], 2)

    def test_the_session_resources_say_so(self):
        sys.path.insert(0, os.path.join(h.REPO, "tests", "mcp"))
        from mcp_harness import StdioClient
        c = StdioClient(args=["--claude-home", self.home], env=self.env)
        try:
            described = {r["name"]: r["description"] for r in c.request("resources/list")["result"]["resources"]}
            tools = [t["name"] for t in c.request("tools/list")["result"]["tools"]]
        finally:
            c.close()
        self.assertTrue(described[S1].endswith("; Claude Code's cleanup deletes it in 2 day(s)"), described[S1])
        self.assertTrue(described[S4].endswith("at its next start"), described[S4])
        self.assertNotIn("cleanup", described[S3])
        self.assertIn("export", tools)  # served over stdio (HTTP leaves it out: LOCAL_ONLY_TOOLS in tests/mcp)

    def test_a_refused_setting_falls_back_to_the_default(self):
        home = os.path.join(self.tmp, "home-bad")
        os.makedirs(os.path.join(home, "projects", DEMO))
        src = os.path.join(self.home, "projects", DEMO, S4 + ".jsonl")
        shutil.copy2(src, os.path.join(home, "projects", DEMO))
        with open(os.path.join(home, "settings.json"), "w") as f:
            json.dump({"cleanupPeriodDays": 0}, f)
        code, _, rows, summary, err = h.run_json("list", "--claude-home", home, env=self.env)
        self.assertEqual(code, 0, err)
        self.assertNotIn("expiring", summary)  # 12 days old, 30 by default: 18 left
        self.assertIn("which Claude Code refuses", err)

    def export(self, *args):
        return self.json_call("export", *args, "--to", os.path.join(self.tmp, "out"))

    def test_export_copies_once_then_only_what_changed(self):
        folder = os.path.join(self.home, "projects", DEMO, S4)
        sources = [os.path.join(self.home, "projects", DEMO, S4 + ".jsonl")] + \
            [os.path.join(r, f) for r, _, fs in os.walk(folder) for f in fs]
        os.chmod(sources[0], 0o600)  # Claude Code writes transcripts private: the copy must stay so
        _, rows, summary = self.export("@" + S4)
        self.assertEqual([r["session_id"] for r in rows], [S4])
        self.assertEqual((summary["files"], summary["copied"], summary["skipped"], summary["not_copied"]),
                         (len(sources), len(sources), 0, 0))
        self.assertEqual(rows[0]["expires_in_days"], 0)
        for src in sources:  # the copy sits at the same place below the destination, with the source's mtime
            dst = os.path.join(self.tmp, "out", os.path.relpath(src, self.home))
            with open(src, "rb") as a, open(dst, "rb") as b:
                self.assertEqual(a.read(), b.read(), dst)
            self.assertEqual(os.stat(src).st_mtime_ns, os.stat(dst).st_mtime_ns, dst)
            self.assertEqual(oct(os.stat(src).st_mode & 0o777), oct(os.stat(dst).st_mode & 0o777), dst)

        _, _, summary = self.export("@" + S4)
        self.assertEqual((summary["copied"], summary["skipped"]), (0, len(sources)))

        aged = os.stat(sources[0])
        with open(sources[0], "a") as f:
            f.write('{"type":"system","content":"appended"}\n')
        os.utime(sources[0], ns=(aged.st_atime_ns, aged.st_mtime_ns))  # the size alone tells; its age stays
        _, rows, summary = self.export("@" + S4)
        self.assertEqual((summary["copied"], summary["skipped"]), (1, len(sources) - 1))
        self.assertEqual(os.path.getsize(os.path.join(self.tmp, "out", os.path.relpath(sources[0], self.home))),
                         os.path.getsize(sources[0]))

        # The copy is a Claude home of its own: every tool reads it.
        code, _, rows, _, err = h.run_json("list", "--no-subagents", "--claude-home", os.path.join(self.tmp, "out"),
                                           env=self.env)
        self.assertEqual((code, [r["session_id"] for r in rows]), (0, [S4]), err)

    def test_export_takes_the_plan_and_only_the_expiring(self):
        out = os.path.join(self.tmp, "out-plan")
        _, rows, summary = self.json_call("export", "@" + S3, "--to", out)
        self.assertTrue(os.path.isfile(os.path.join(out, "plans", "re-check-build.md")))
        _, rows, summary = self.json_call("export", "--expiring", "--to", out)
        self.assertEqual(sorted(r["session_id"] for r in rows), sorted([S1, S4]))

    def test_export_refuses_a_destination_in_the_store(self):
        inside = os.path.join(self.home, "projects", "backup")
        code, out, err = h.run_cli("export", "@" + S4, "--to", inside, "--claude-home", self.home, env=self.env)
        self.assertEqual(code, h.EXIT_USAGE, err)
        self.assertIn("lies inside the Claude Code store", err)
        self.assertFalse(os.path.exists(inside))


if __name__ == "__main__":
    unittest.main()
