"""search's counts and hints (issue 9, points 11-13): `-c` is the true total under a cap, banners and footers
count sessions before the cap, superseded drafts a label filter excluded are still disclosed, unscoped
discovery reads every top-level *.jsonl, the empty-pattern warning stays quiet for a session target, the
zero-match diagnosis says when a closed gate (not the pattern) explains nothing, and every follow-up call
carries a non-default claude_home, shell-quoted.

The fixture facts (basics line 47 is a superseded draft of line 48) are in fixtures/README.md; the other
stores are written by the tests into temporary directories.
"""
import json
import os
import shlex
import shutil
import tempfile
import unittest

import harness as h

BASICS = "11111111-1111-4111-8111-000000000001"
HOME = ("--claude-home", h.FIXTURE_HOME)


def user_line(sid, uuid, text, parent=None, ts="2026-03-01T10:00:00Z"):
    return json.dumps({"parentUuid": parent, "isSidechain": False, "type": "user", "sessionId": sid,
                       "cwd": "/home/me/proj", "uuid": uuid, "timestamp": ts,
                       "message": {"role": "user", "content": text}})


def hook_context_line(sid, uuid, text, parent):
    return json.dumps({"parentUuid": parent, "isSidechain": False, "type": "attachment", "sessionId": sid,
                       "uuid": uuid, "timestamp": "2026-03-01T10:00:01Z",
                       "attachment": {"type": "hook_additional_context", "content": [text],
                                      "hookName": "SessionStart"}})


class TempStore:
    """A throwaway Claude home: write(rel, lines) puts a file under projects/."""

    def __init__(self, name="csift store "):
        self.home = tempfile.mkdtemp(prefix=name)

    def write(self, rel, lines):
        path = os.path.join(self.home, "projects", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("".join(l + "\n" for l in lines))
        return path

    def close(self):
        shutil.rmtree(self.home, ignore_errors=True)


class CountOnlyIsTheTrueTotal(unittest.TestCase):
    def test_count_with_max_count_prints_the_uncapped_total(self):
        code, out, _ = h.run_cli("search", "", "@" + BASICS, "-t", "agent", "-c", *HOME)
        self.assertEqual(code, h.EXIT_OK)
        total = int(out)
        self.assertGreater(total, 2)
        code, out, err = h.run_cli("search", "", "@" + BASICS, "-t", "agent", "-c", "--max-count", "2", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(int(out), total)
        self.assertIn("uncapped", err)
        self.assertIn("would have kept 2", err)


class SessionCountsBeforeTheCap(unittest.TestCase):
    def test_banner_and_footer_count_every_matched_transcript(self):
        code, _, _, full, err = h.run_json("search", "", "-t", "user.message", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertGreater(full["sessions"], 1)
        code, _, rows, capped, err = h.run_json("search", "", "-t", "user.message", "--max-count", "1", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(len(rows), 1)
        self.assertEqual(capped["sessions"], full["sessions"])
        self.assertEqual(capped["sessions_shown"], 1)
        code, out, _ = h.run_cli("search", "", "-t", "user.message", "--max-count", "1", *HOME)
        sessions = f"{full['sessions']} sessions"
        self.assertIn(sessions, out.splitlines()[1])   # the matches banner
        self.assertIn(sessions, [l for l in out.splitlines() if l.startswith("matched ")][0])  # the footer


class SupersededDraftsExcludedByLabel(unittest.TestCase):
    def test_a_label_filtered_draft_is_still_counted(self):
        code, _, rows, summary, err = h.run_json("search", "full test suite", "@" + BASICS, "-t", "user", *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertFalse(any(r["superseded_draft"] for r in rows))   # bare `user` does not reach user.unsent
        self.assertEqual(summary["superseded_drafts"], 1)
        self.assertEqual(summary["superseded_drafts_excluded_by_label"], 1)
        code, out, _ = h.run_cli("search", "full test suite", "@" + BASICS, "-t", "user", *HOME)
        self.assertIn("1 superseded draft matched", out)
        self.assertIn("left out by the label filter", out)

    def test_an_unfiltered_draft_is_counted_once(self):
        code, _, rows, summary, err = h.run_json("search", "full test suite", "@" + BASICS, *HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertTrue(any(r["superseded_draft"] for r in rows))
        self.assertEqual(summary["superseded_drafts"], 1)
        self.assertEqual(summary["superseded_drafts_excluded_by_label"], 0)


class UnscopedDiscoveryReadsEveryTopLevelJsonl(unittest.TestCase):
    def setUp(self):
        self.store = TempStore()
        self.addCleanup(self.store.close)
        self.store.write("-home-me-proj/renamed-copy.jsonl",
                         [user_line("renamed-copy", "u-1", "a session kept under a hand-picked name")])
        self.store.write("-home-me-proj/agent-abc123.jsonl",
                         [user_line("renamed-copy", "u-2", "a legacy flat agent")])

    def test_a_non_uuid_session_file_is_found_unscoped(self):
        code, _, rows, _, err = h.run_json("list", "--claude-home", self.store.home)
        self.assertEqual(code, h.EXIT_OK, err)
        sessions = [r for r in h.rows_of(rows, "session") if not r["is_subagent"]]
        self.assertEqual([r["session_id"] for r in sessions], ["renamed-copy"])
        code, out, err = h.run_cli("search", "hand-picked", "-c", "--claude-home", self.store.home)
        self.assertEqual((code, out.strip()), (h.EXIT_OK, "1"), err)


class EmptyPatternWarning(unittest.TestCase):
    def test_no_warning_for_a_session_target(self):
        code, _, err = h.run_cli("search", "", "@" + BASICS, *HOME)
        self.assertEqual(code, h.EXIT_OK)
        self.assertNotIn("empty pattern", err)

    def test_warning_for_a_project_scope(self):
        code, _, err = h.run_cli("search", "", "-Users-dev-legacy-app", *HOME)
        self.assertEqual(code, h.EXIT_OK)
        self.assertIn("empty pattern", err)


class ZeroMatchBehindAClosedGate(unittest.TestCase):
    def setUp(self):
        self.store = TempStore()
        self.addCleanup(self.store.close)
        sid = "12121212-1212-4212-8212-121212121212"
        self.store.write(f"-home-me-proj/{sid}.jsonl", [
            user_line(sid, "u-1", "start the work"),
            hook_context_line(sid, "h-1", "branch policy: squash-merge only", "u-1")])

    def test_gated_hook_leaf_is_not_called_absent(self):
        code, out, err = h.run_cli("search", "squash-merge", "-t", "harness.meta.hook",
                                   "--claude-home", self.store.home)
        self.assertEqual((code, out), (h.EXIT_OK, ""))
        self.assertIn("NOT a definitive absence", err)
        self.assertIn("were NOT searched", err)
        self.assertIn("--attachments", err)
        code, _, _, summary, _ = h.run_json("search", "squash-merge", "-t", "harness.meta.hook",
                                            "--claude-home", self.store.home)
        self.assertIs(summary["definitive_absence"], False)

    def test_with_the_gate_open_the_hook_is_found(self):
        code, out, err = h.run_cli("search", "squash-merge", "-t", "harness.meta.hook", "--attachments", "-c",
                                   "--claude-home", self.store.home)
        self.assertEqual((code, out.strip()), (h.EXIT_OK, "1"), err)


class FollowUpsCarryClaudeHome(unittest.TestCase):
    """A store at a path with a space: every follow-up names it, and the CLI hints quote it."""

    def setUp(self):
        self.store = TempStore("csift store with space ")
        self.addCleanup(self.store.close)
        self.sid = "34343434-3434-4343-8343-343434343434"
        self.store.write(f"-home-me-proj/{self.sid}.jsonl", [
            user_line(self.sid, f"u-{i}", f"question number {i}", ts=f"2026-03-01T10:00:{i:02d}Z")
            for i in range(30)])

    def test_refetch_and_continue_with_carry_the_home(self):
        code, _, rows, summary, err = h.run_json("search", "question", "--claude-home", self.store.home,
                                                 "--max-chars", "2000")
        self.assertEqual(code, h.EXIT_OK, err)
        hit = rows[0]["hits"][0]
        self.assertEqual(hit["refetch"]["arguments"]["claude_home"], self.store.home)
        self.assertEqual(summary["continue_with"]["claude_home"], self.store.home)

    def test_show_remainder_carries_the_home(self):
        code, _, _, summary, err = h.run_json("show", "@" + self.sid, "--line", "..", "--max-count", "3",
                                              "--claude-home", self.store.home)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(summary["refetch_remainder"]["arguments"]["claude_home"], self.store.home)

    def test_cli_hints_shell_quote_the_home(self):
        code, out, err = h.run_cli("show", "@" + self.sid, "--line", "..", "--max-count", "3",
                                   "--claude-home", self.store.home)
        self.assertEqual(code, h.EXIT_OK, err)
        hint = [l for l in (out + err).splitlines() if "csift-mcp --cli show" in l][0]
        command = hint[hint.index("csift-mcp --cli show"):].split(" (or ")[0]
        argv = shlex.split(command)
        self.assertEqual(argv[argv.index("--claude-home") + 1], self.store.home)

    def test_default_home_is_not_repeated(self):
        env = h.test_env(CLAUDE_CONFIG_DIR=self.store.home)
        code, out, err = h.run_cli("search", "question", "--max-count", "1", "--format", "json", env=env)
        self.assertEqual(code, h.EXIT_OK, err)
        _, rows, _ = h.parse_envelope(out)
        self.assertNotIn("claude_home", rows[0]["hits"][0]["refetch"]["arguments"])


if __name__ == "__main__":
    unittest.main()
