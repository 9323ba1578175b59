"""Honest answers and bounded resources under bad input (issue 10).

An absence is definitive only over a scope read whole: transcripts that could not be read, entries named
like transcripts that are not regular files, and lines too complex for the pattern make it not definitive,
and every tool says what it did not read. Numbers beyond a finite double keep their record. Input-sized
things (id lists, persisted outputs) are bounded; one large record is windowed under max_chars; control
bytes never reach a terminal raw.
"""
import json
import os
import shutil
import stat
import tempfile
import unittest

import harness as h

BASICS = os.path.join(h.FIXTURE_HOME, "projects", "-home-dev-projects-csift-demo",
                      "11111111-1111-4111-8111-000000000001.jsonl")
PROJECT = "-home-dev-app"
SID_A = "aaaaaaaa-aaaa-4aaa-8aaa-00000000000a"
SID_B = "bbbbbbbb-bbbb-4bbb-8bbb-00000000000b"
NOBODY = 65534


def user_line(sid, text, uuid="u-1", ts="2026-01-01T00:00:00Z"):
    return json.dumps({"type": "user", "sessionId": sid, "uuid": uuid, "timestamp": ts,
                       "message": {"role": "user", "content": text}}) + "\n"


class Home:
    """A throwaway Claude home with real (not linked) transcript files."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="csift-honest-")
        os.chmod(self.home, 0o755)
        self.project = os.path.join(self.home, "projects", PROJECT)
        os.makedirs(self.project)
        for d in (os.path.join(self.home, "projects"), self.project):
            os.chmod(d, 0o755)

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.project, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def close(self):
        shutil.rmtree(self.home, ignore_errors=True)


def as_unprivileged():
    """Permission bits bind only a process without CAP_DAC_OVERRIDE: run the binary as nobody when root."""
    if os.geteuid() != 0:
        return None

    def drop():
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    return drop


def run_json(tool, *args, preexec=None, timeout=60):
    import subprocess
    p = subprocess.run([h.binary(), "--cli", tool, *args, "--format", "json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout, env=h.test_env(), preexec_fn=preexec)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        return p.returncode, None, None, None, out + err
    header, rows, summary = h.parse_envelope(out)
    return p.returncode, header, rows, summary, err


class UnreadableTranscripts(unittest.TestCase):
    def setUp(self):
        self.store = Home()
        self.store.write(SID_A + ".jsonl", user_line(SID_A, "hello there"))
        self.denied = self.store.write(SID_B + ".jsonl", user_line(SID_B, "secret needle"), mode=0o000)

    def tearDown(self):
        self.store.close()

    def test_every_tool_reports_the_unread_transcript(self):
        drop = as_unprivileged()
        home = ("--claude-home", self.store.home)
        code, _, _, s, err = run_json("search", "needle", *home, preexec=drop)
        self.assertEqual(code, 0, err)
        self.assertEqual(s["matched_records"], 0)
        self.assertFalse(s["definitive_absence"], "an unread transcript cannot prove absence")
        self.assertEqual(s["unread_transcripts_total"], 1)
        self.assertEqual(s["unread_transcripts"][0]["path"], self.denied)
        self.assertIn("NOT a definitive absence", err)
        code, _, rows, s, err = run_json("stats", *home, preexec=drop)
        self.assertEqual(code, 0, err)
        self.assertEqual(s["unread_transcripts_total"], 1)
        self.assertIn("NOT read", err)
        code, _, rows, s, err = run_json("list", *home, preexec=drop)
        self.assertEqual(code, 0, err)
        self.assertEqual(s["unread_transcripts_total"], 1)

    def test_stats_text_never_shows_zeros_for_an_unread_file(self):
        import subprocess
        p = subprocess.run([h.binary(), "--cli", "stats", "--claude-home", self.store.home], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60, env=h.test_env(), preexec_fn=as_unprivileged())
        out = p.stdout.decode()
        self.assertIn("unreadable:", out)
        self.assertIn("1 NOT read", out)


class IrregularEntries(unittest.TestCase):
    """Entries named like transcripts that are not regular files: listed as problems, never opened."""

    def setUp(self):
        self.store = Home()
        self.store.write(SID_A + ".jsonl", user_line(SID_A, "hello there"))
        p = self.store.project
        self.fifo = os.path.join(p, "cccccccc-cccc-4ccc-8ccc-00000000000c.jsonl")
        os.mkfifo(self.fifo)
        self.dir = os.path.join(p, "dddddddd-dddd-4ddd-8ddd-00000000000d.jsonl")
        os.mkdir(self.dir)
        self.dangling = os.path.join(p, "eeeeeeee-eeee-4eee-8eee-00000000000e.jsonl")
        os.symlink(os.path.join(p, "nowhere"), self.dangling)
        self.loop = os.path.join(p, "ffffffff-ffff-4fff-8fff-00000000000f.jsonl")
        os.symlink(self.loop, self.loop)
        self.device = os.path.join(p, SID_A, "subagents", "agent-a0123456789abcdef.jsonl")
        os.makedirs(os.path.dirname(self.device))
        os.symlink("/dev/null", self.device)

    def tearDown(self):
        self.store.close()

    def test_listed_as_problems_in_every_tool(self):
        expected = {self.fifo: "FIFO", self.dir: "directory", self.dangling: "dangling",
                    self.loop: "loop", self.device: "device"}
        for tool, args in (("search", ("absent-word",)), ("stats", ()), ("list", ())):
            with self.subTest(tool=tool):
                code, _, _, s, err = run_json(tool, *args, "--claude-home", self.store.home, timeout=30)
                self.assertEqual(code, 0, err)
                got = {u["path"]: u["reason"] for u in s["unread_transcripts"]}
                self.assertEqual(set(got), set(expected))
                for path, word in expected.items():
                    self.assertIn(word, got[path])
                if tool == "search":
                    self.assertFalse(s["definitive_absence"])

    def test_a_fifo_target_is_refused_not_opened(self):
        code, out, err = h.run_cli("search", "x", self.fifo, timeout=30)
        self.assertNotEqual(code, 0)
        self.assertIn("FIFO", err)


class MissingHomeAndIdLists(unittest.TestCase):
    def setUp(self):
        self.store = Home()
        self.store.write(SID_A + ".jsonl", user_line(SID_A, "hello there"))

    def tearDown(self):
        self.store.close()

    def test_a_missing_claude_home_is_an_error(self):
        code, out, err = h.run_cli("search", "anything", "--claude-home", self.store.home + "/nope")
        self.assertEqual(code, h.EXIT_ERROR, out)
        self.assertIn("does not exist", err)
        self.assertNotIn("DEFINITIVE", err)

    def test_sessions_from_a_directory_or_device_is_refused(self):
        for source, word in ((self.store.project, "directory"), ("/dev/zero", "device")):
            with self.subTest(source=source):
                code, out, err = h.run_cli("search", "x", "--sessions-from", source, "--claude-home",
                                           self.store.home, timeout=30)
                self.assertEqual(code, h.EXIT_USAGE, err)
                self.assertIn(word, err)

    def test_sessions_from_an_unreadable_file_is_an_error(self):
        ids = self.store.write("ids.txt", SID_A + "\n", mode=0o000)
        code, _, _, _, err = run_json("search", "x", "--sessions-from", ids, "--claude-home", self.store.home,
                                      preexec=as_unprivileged())
        self.assertNotEqual(code, 0)
        self.assertIn("cannot be read", err)

    def test_stdin_id_list_is_bounded(self):
        import subprocess
        with open("/dev/zero", "rb") as zero:
            p = subprocess.run([h.binary(), "--cli", "search", "x", "--sessions-from", "-", "--claude-home",
                                self.store.home], stdin=zero, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=60, env=h.test_env())
        self.assertEqual(p.returncode, h.EXIT_USAGE)
        self.assertIn(b"longer than", p.stderr)


class OutOfRangeNumbers(unittest.TestCase):
    """1e400 is valid JSON: the record is read, the value absent and counted, dense equals sparse."""

    def setUp(self):
        self.store = Home()
        with open(BASICS, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
        out = []
        for line in lines:
            line = line.replace('"output_tokens":', '"output_tokens":1e400,"x_output_tokens":')
            line = line.replace('"hookCount":1', '"hookCount":1e400')
            out.append(line)
        self.text = "".join(out)
        self.path = self.store.write("11111111-1111-4111-8111-000000000001.jsonl", self.text)
        self.hook_line = next(n for n, l in enumerate(out, 1) if '"hookCount":1e400' in l)
        self.huge = self.text.count("1e400")

    def tearDown(self):
        self.store.close()

    def test_every_reader_keeps_the_records(self):
        home = ("--claude-home", self.store.home)
        code, _, rows, s, err = run_json("stats", *home)
        self.assertEqual(code, 0, err)
        self.assertEqual(s["skipped_lines"], 0)
        self.assertEqual(s["values_out_of_range"], self.huge)
        for pattern in ("verbose", "error", "the"):
            envs = []
            for dense in ("1", "0"):
                code, out, err = h.run_cli("search", pattern, *home, "--max-count", "0", "--format", "json",
                                           env=h.test_env(CSIFT_SEARCH_DENSE=dense))
                self.assertEqual(code, 0, err)
                self.assertNotIn("second read", err)
                envs.append(out)
            self.assertEqual(envs[0], envs[1], f"dense and sparse differ for {pattern}")
            _, _, summary = h.parse_envelope(envs[0])
            self.assertEqual(summary["skipped_lines"], 0)
            self.assertEqual(summary["values_out_of_range"], self.huge)

    def test_show_renders_a_stop_hook_summary_with_a_huge_count(self):
        code, out, err = h.run_cli("show", self.path, "--line", str(self.hook_line))
        self.assertEqual(code, 0, err)
        self.assertIn("stop hooks", out)
        self.assertNotIn("type_error", out + err)


class PersistedOutputs(unittest.TestCase):
    """resolve_persisted reads only regular files inside the Claude home, non-blocking and bounded."""

    def setUp(self):
        self.store = Home()
        self.inside = self.store.write(SID_A + "/tool-results/ok.txt", "persisted needle content\n")
        self.fifo = os.path.join(self.store.project, SID_A, "tool-results", "fifo.txt")
        os.mkfifo(self.fifo)

    def tearDown(self):
        self.store.close()

    def transcript(self, target):
        tool_use = json.dumps({"type": "assistant", "sessionId": SID_A, "uuid": "a-1", "timestamp": "2026-01-01T00:00:01Z",
                               "message": {"role": "assistant", "content": [
                                   {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}]}})
        result = json.dumps({"type": "user", "sessionId": SID_A, "uuid": "u-2", "timestamp": "2026-01-01T00:00:02Z",
                             "message": {"role": "user", "content": [
                                 {"type": "tool_result", "tool_use_id": "toolu_1",
                                  "content": "<persisted-output>\nOutput too large. Full output saved to: " + target +
                                             "\n</persisted-output>"}]}})
        self.store.write(SID_A + ".jsonl", user_line(SID_A, "run it") + tool_use + "\n" + result + "\n")

    def search(self, pattern):
        return h.run_cli("search", pattern, "--resolve-persisted", "--claude-home", self.store.home, "--format",
                         "json", timeout=30)

    def test_a_file_inside_the_home_is_read(self):
        self.transcript(self.inside)
        code, out, err = self.search("persisted needle")
        self.assertEqual(code, 0, err)
        self.assertEqual(h.parse_envelope(out)[2]["matched_records"], 1)

    def test_files_outside_the_home_or_not_regular_are_reported(self):
        for target, word in (("/etc/passwd", "outside the Claude home"), ("/dev/zero", "outside the Claude home"),
                             (self.fifo, "not a regular file")):
            with self.subTest(target=target):
                self.transcript(target)
                code, out, err = self.search("root:|needle")
                self.assertEqual(code, 0, err)
                self.assertEqual(h.parse_envelope(out)[2]["matched_records"], 0, "the file was read")
                self.assertIn(word, err)


class OneLargeRecord(unittest.TestCase):
    """A row larger than max_chars is windowed; the windows reassemble the record's text."""

    def setUp(self):
        self.store = Home()
        self.body = "".join(f"line {i:05d} of a large tool output\n" for i in range(4000))  # ~150 KB
        self.path = self.store.write(SID_A + ".jsonl", user_line(SID_A, self.body))

    def tearDown(self):
        self.store.close()

    def test_show_windows_one_row_and_continues_inside_it(self):
        args = [self.path, "--line", "1", "--max-chars", "8000"]
        pieces = []
        for _ in range(60):
            code, out, err = h.run_cli("show", *args, "--format", "json")
            self.assertEqual(code, 0, err)
            _, rows, summary = h.parse_envelope(out)
            self.assertEqual(len(rows), 1)
            self.assertLessEqual(len(out), 8000, f"the budget did not hold for one row: {args} {out[-600:]}")
            w = rows[0]["window"]
            text = rows[0]["text"]
            if w["char_offset"] > 0:
                text = text[text.index(") ") + 2:]
            if w["char_offset"] + w["chars_shown"] < w["chars_total"]:
                text = text[:text.rindex("\u2026 (+")]
            pieces.append(text)
            nxt = summary.get("continue_with")
            if not nxt:
                break
            self.assertEqual(nxt["char_offset"], w["char_offset"] + w["chars_shown"])
            args = [self.path, "--line", "1", "--max-chars", "8000", "--char-offset", str(nxt["char_offset"])]
        self.assertGreater(len(pieces), 2)
        code, out, err = h.run_cli("show", self.path, "--line", "1", "--format", "json")
        whole = h.parse_envelope(out)[1][0]["text"]
        self.assertGreater(len(whole), 100000)
        self.assertEqual("".join(pieces), whole)

    def test_text_output_is_bounded_and_names_the_continuation(self):
        code, out, err = h.run_cli("show", self.path, "--line", "1", "--max-chars", "8000")
        self.assertEqual(code, 0, err)
        self.assertLessEqual(len(out), 8000)
        self.assertIn("--char-offset", out)
        self.assertIn("chars)", out)


class TerminalSafety(unittest.TestCase):
    def setUp(self):
        self.store = Home()
        self.path = self.store.write(SID_A + ".jsonl", user_line(SID_A, "red \u001b[31malert\u0007 bell \u009b csi\tend"))

    def tearDown(self):
        self.store.close()

    def test_control_bytes_are_escaped_visibly(self):
        for tool, args in (("show", (self.path, "--line", "1")), ("search", ("alert", self.path)),
                           ("list", (self.path,))):
            with self.subTest(tool=tool):
                code, out, err = h.run_cli(tool, *args)
                self.assertEqual(code, 0, err)
                for raw in ("\u001b", "\u0007", "\u009b"):
                    self.assertNotIn(raw, out + err)
                if tool != "list":
                    self.assertIn("\\x1b[31malert\\x07", out)
                    self.assertIn("\\x9b", out)

    def test_raw_mode_escapes_as_json(self):
        bad = self.store.write(SID_B + ".jsonl", '{"type":"user","x":"\u001b[2J"\n')
        code, out, err = h.run_cli("show", bad, "--raw", "--line", "1")
        self.assertEqual(code, 0, err)
        self.assertNotIn("\u001b", out)
        self.assertIn("\\u001b[2J", out)


if __name__ == "__main__":
    unittest.main()
