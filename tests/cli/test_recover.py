"""`recover` and `plan` over fixtures/recover-home (fixtures/make_recover_fixtures.py says what each session
holds): every mode, every boundary kind, where bytes may be written, the batch report, both plan binding laws,
reverse lookup, a deleted plan rebuilt, and the continuation of content larger than the output budget."""
import glob
import json
import ntpath
import os
import re
import shutil
import tempfile
import unittest

import harness as h

HOME = os.path.join(h.REPO, "fixtures", "recover-home")
CWD = "/home/dev/projects/mend"
R1, R2, R3, R4, R5 = ("@d1000000", "@d2000000", "@d3000000", "@d4000000", "@d5000000")
APP_FINAL = ("def greet():\n    \"\"\"Say hello.\"\"\"\n    return 'HELLO'\n\nif __name__ == '__main__':\n"
             "    print(greet())\n")


def recover(*args):
    return h.run_cli("recover", "--claude-home", HOME, *args)


def recover_json(*args):
    return h.run_json("recover", "--claude-home", HOME, *args)


class RecoverModes(unittest.TestCase):
    def test_restore_prints_the_exact_final_bytes(self):
        code, out, err = recover(R1, "--file", f"{CWD}/app.py")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, APP_FINAL)  # nothing added: no banner, no extra newline
        self.assertIn("complete from the tool stream", err)

    def test_an_errored_edit_is_not_applied_but_counted(self):
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--coverage")
        self.assertEqual(rows[0]["counts"].get("string-not-found"), 1)
        self.assertEqual(rows[0]["counts"].get("edit"), 1)

    def test_at_turn_and_at_line_rewind(self):
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--at", "@turn:1")
        self.assertIn("2\t    return 'HELLO'\n", rows[0]["text"])
        self.assertNotIn("Say hello", rows[0]["text"])
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--at", "@line:3")
        self.assertIn("2\t    return 'hi'\n", rows[0]["text"])
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--at", "2026-05-01T10:00:12Z")
        self.assertIn("'HELLO'", rows[0]["text"])
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--at", "@latest")
        self.assertIn("Say hello", rows[0]["text"])
        code, _out, err = recover(R1, "--file", f"{CWD}/app.py", "--at", "@bogus")
        self.assertEqual(code, 2)
        self.assertIn("@latest", err)

    def test_turn_window_replays_only_those_events_and_says_so(self):
        code, out, err = recover(R1, "--file", f"{CWD}/app.py", "--turn", "0")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "def greet():\n    return 'hi'\n\nprint(greet())\n")
        self.assertIn("fall outside", err)

    def test_file_lines_restores_a_window(self):
        code, out, _err = recover(R1, "--file", f"{CWD}/app.py", "--file-lines", "2..3")
        self.assertEqual(code, 0)
        self.assertEqual(out, "    \"\"\"Say hello.\"\"\"\n    return 'HELLO'\n")

    def test_patches_segment_at_boundaries(self):
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--patches")
        changes = [r for r in rows if r["kind"] == "change"]
        self.assertEqual([c["tool"] for c in changes], ["Write", "Edit", "MultiEdit"])
        self.assertIn("-    return 'hi'\n+    return 'HELLO'\n", changes[1]["diff"])
        _c, _h, rows, _s, _e = recover_json(R3, "--file", f"{CWD}/msr.txt", "--patches")
        self.assertEqual([r["kind"] for r in rows], ["coverage", "change", "boundary"])

    def test_windowed_read_with_an_edit_in_the_gap_refuses_and_salvages(self):
        code, out, err = recover(R2, "--file", f"{CWD}/big.txt")
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        self.assertIn("known lines 1..5, missing 6..10", err)
        self.assertIn("1 edit hunk(s) could not be placed", err)
        code, _h, rows, summary, _e = recover_json(R2, "--file", f"{CWD}/big.txt")
        self.assertEqual(rows[0]["reason"], "partial")
        self.assertEqual(rows[0]["coverage_holes"], 1)
        self.assertEqual(summary["error"]["kind"], "failure")
        code, out, _err = recover(R2, "--file", f"{CWD}/big.txt", "--salvage")
        self.assertEqual(code, 0)
        self.assertIn("5\tline 5\n??? lines 6..10 unknown\n", out)
        self.assertNotIn("line seven", out)  # the edit's lines were never placed on known ones

    def test_a_read_known_only_by_its_numbered_lines_is_a_window(self):
        code, out, _err = recover(R2, "--file", f"{CWD}/old.txt", "--salvage")
        self.assertEqual(code, 0)
        self.assertIn("1\tfirst\n2\tsecond\n??? lines after 2 unknown", out)
        code, _out, err = recover(R2, "--file", f"{CWD}/old.txt")
        self.assertEqual(code, 1)
        self.assertIn("missing 3..?", err)

    def test_since_until_and_a_relative_at(self):
        code, out, err = recover(R1, "--file", f"{CWD}/app.py", "--until", "2026-05-01T10:00:12Z")
        self.assertEqual((code, out), (0, "def greet():\n    return 'HELLO'\n\nprint(greet())\n"), err)
        code, _out, err = recover(R1, "--file", f"{CWD}/app.py", "--since", "2026-05-01T10:00:20Z",
                                 "--until", "2026-05-01T10:00:25Z")
        self.assertEqual(code, 1)  # the write is outside: the later edits have nothing to stand on
        self.assertIn("fall outside", err)
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/app.py", "--at", "1d")
        self.assertIn("Say hello", rows[0]["text"])  # the fixture is older than a day: everything is before it

    def test_a_file_never_touched_is_no_history(self):
        code, _h, rows, summary, _e = recover_json(R1, "--file", f"{CWD}/absent.py")
        self.assertEqual(code, 1)
        self.assertEqual(rows[0]["reason"], "no-history")
        self.assertEqual(summary["error"]["kind"], "not_found")

    def test_exact_bash_writes_join_the_replay(self):
        code, out, err = recover(R1, "--file", f"{CWD}/run.sh")
        self.assertEqual((code, out), (0, "#!/bin/sh\necho \"$PWD\"\n"), err)
        code, out, err = recover(R1, "--file", f"{CWD}/greeting.txt")
        self.assertEqual((code, out), (0, "hello world\nbye now\n"), err)
        _c, _h, rows, _s, _e = recover_json(R1, "--file", f"{CWD}/run.sh", "--coverage")
        self.assertEqual(rows[0]["counts"], {"bash-heredoc": 1, "edit": 1})
        self.assertEqual(rows[0]["boundaries"], [])  # the exact write replaces its heuristic row

    def test_modes_exclude_each_other(self):
        code, _out, err = recover(R1, "--file", f"{CWD}/app.py", "--salvage", "--patches")
        self.assertEqual(code, 2)
        self.assertIn("pick one", err)


class RecoverBoundaries(unittest.TestCase):
    def coverage(self, name):
        _c, _h, rows, _s, _e = recover_json(R3, "--file", f"{CWD}/{name}", "--coverage")
        return rows[0]

    def test_each_boundary_kind_with_its_hardness(self):
        expect = {"msr.txt": ("modified-since-read", True), "hint.txt": ("hint-modified", True),
                  "orig.txt": ("original-file-disagreement", False), "ext.txt": ("external-edit", True),
                  "stale.txt": ("stale-recovered", False), "bash.txt": ("bash-mutation", False)}
        for name, (cause, hard) in expect.items():
            row = self.coverage(name)
            self.assertEqual([(b["cause"], b["hard"]) for b in row["boundaries"]], [(cause, hard)], name)
            self.assertEqual(row["fragments"], 1 + int(hard), name)

    def test_invalidating_boundaries_refuse_restore_naming_them(self):
        for name, cause in (("msr.txt", "modified-since-read"), ("hint.txt", "hint-modified"),
                            ("ext.txt", "external-edit"), ("orig.txt", "original-file-disagreement")):
            code, _out, err = recover(R3, "--file", f"{CWD}/{name}")
            self.assertEqual(code, 1, name)
            self.assertIn("invalidated", err, name)
            self.assertIn(cause, err, name)
            self.assertIn("the state before the first: csift-mcp --cli recover", err, name)
        code, out, _err = recover(R3, "--file", f"{CWD}/msr.txt", "--at", "@line:4")
        self.assertEqual(code, 0)
        self.assertIn("1\talpha\n2\tbeta\n3\tgamma\n", out)

    def test_soft_boundaries_restore_but_say_not_verified(self):
        code, out, err = recover(R3, "--file", f"{CWD}/stale.txt")
        self.assertEqual((code, out), (0, "ALPHA\nbeta\ngamma\n"))
        self.assertIn("NOT verified against disk", err)

    def test_opaque_commands_are_counted_with_a_ready_search(self):
        row = self.coverage("bash.txt")
        self.assertEqual(row["opaque_commands"], 1)
        self.assertEqual(row["powershell_commands"], 1)
        self.assertEqual([o["marker"] for o in row["opaque_listed"]], ["fmt:prettier", "powershell"])
        search = row["suggested_search"]
        self.assertEqual(search["tool"], "search")
        code, _out, err = h.run_cli("search", "--claude-home", HOME, search["arguments"]["pattern"],
                                    *search["arguments"]["targets"], "--since", search["arguments"]["since"])
        self.assertEqual(code, 0, err)


class RecoverWriting(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="csift-recover-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_out_writes_bytes_and_never_overwrites_without_force(self):
        out = os.path.join(self.dir, "app.py")
        code, stdout, err = recover(R1, "--file", f"{CWD}/app.py", "--out", out)
        self.assertEqual(code, 0, err)
        with open(out) as f:
            self.assertEqual(f.read(), APP_FINAL)
        self.assertIn("wrote", stdout)
        code, _o, err = recover(R1, "--file", f"{CWD}/app.py", "--out", out)
        self.assertEqual(code, 2)
        self.assertIn("--force", err)
        code, _o, err = recover(R1, "--file", f"{CWD}/app.py", "--out", out, "--force")
        self.assertEqual(code, 0, err)

    def test_fields_of_another_type_read_as_absent_not_as_an_internal_error(self):
        # A hand-made or damaged record: a hunk's oldStart, a Read's numLines and an Edit's replace_all of the
        # wrong JSON type used to throw out of the whole call ("internal error: type must be number").
        proj = os.path.join(self.dir, "projects", "-home-dev-projects-mend")
        os.makedirs(proj)
        name = "d1000000-0000-4000-8000-0000000000d1.jsonl"
        with open(os.path.join(HOME, "projects", "-home-dev-projects-mend", name)) as f:
            records = [json.loads(line) for line in f if line.strip()]
        for r in records:
            result = r.get("toolUseResult")
            if isinstance(result, dict):
                for hunk in result.get("structuredPatch") or []:
                    hunk["oldStart"] = str(hunk["oldStart"])
                if isinstance(result.get("file"), dict):
                    result["file"]["numLines"] = "many"
                result["staleRecovered"] = "no"
            for block in (r.get("message") or {}).get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == "Edit":
                    block["input"]["replace_all"] = None
        with open(os.path.join(proj, name), "w") as f:
            f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
        code, out, err = h.run_cli("recover", "--claude-home", self.dir, R1, "--file", f"{CWD}/app.py")
        self.assertNotIn("internal error", err)
        self.assertEqual((code, out), (0, APP_FINAL), err)

    def test_a_hunk_naming_a_line_past_any_file_is_not_placed(self):
        # A hostile structuredPatch: a hunk at line 2^63-1 (and a Read's numLines of 1e300). The replay adds a
        # hunk's start to its lengths, which overflowed int64 (the sanitized pass aborts on it); such a patch
        # now reads as none, and the edit is replayed by its strings.
        proj = os.path.join(self.dir, "projects", "-home-dev-projects-mend")
        os.makedirs(proj)
        name = "d1000000-0000-4000-8000-0000000000d1.jsonl"
        with open(os.path.join(HOME, "projects", "-home-dev-projects-mend", name)) as f:
            records = [json.loads(line) for line in f if line.strip()]
        hunks = 0
        for r in records:
            result = r.get("toolUseResult")
            if isinstance(result, dict):
                for hunk in result.get("structuredPatch") or []:
                    hunk["oldStart"] = 9223372036854775807
                    hunks += 1
                if isinstance(result.get("file"), dict):
                    result["file"]["numLines"] = 1e300
        self.assertGreater(hunks, 0)
        with open(os.path.join(proj, name), "w") as f:
            f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
        code, out, err = h.run_cli("recover", "--claude-home", self.dir, R1, "--file", f"{CWD}/app.py")
        self.assertNotIn("internal error", err)
        self.assertEqual((code, out), (0, APP_FINAL), err)

    def test_out_inside_the_store_is_refused(self):
        code, _o, err = recover(R1, "--file", f"{CWD}/app.py", "--out", os.path.join(HOME, "x.py"))
        self.assertEqual(code, 2)
        self.assertIn("never writes there", err)
        self.assertFalse(os.path.exists(os.path.join(HOME, "x.py")))

    def test_batch_writes_each_file_and_a_report_in_one_scan(self):
        manifest = os.path.join(self.dir, "lost.txt")
        with open(manifest, "w") as f:
            f.write(f"# lost files\n{CWD}/app.py\n\n{CWD}/big.txt\n{CWD}/absent.py\n")
        dest = os.path.join(self.dir, "restore")
        code, _h, rows, summary, err = recover_json("--files-from", manifest, "--out-dir", dest)
        self.assertEqual(code, 0, err)
        self.assertEqual((summary["complete"], summary["partial"], summary["no_history"]), (1, 1, 1))
        with open(os.path.join(dest, CWD.lstrip("/"), "app.py")) as f:
            self.assertEqual(f.read(), APP_FINAL)
        with open(os.path.join(dest, "recovery-report.tsv")) as f:
            report = [ln.split("\t") for ln in f.read().splitlines()]
        self.assertEqual(report[0], ["status", "known_lines", "total_lines", "boundaries", "bash_file", "bash_opaque",
                                     "target", "written_to"])
        self.assertEqual([(r[0], r[6]) for r in report[1:]],
                         [("complete", f"{CWD}/app.py"), ("partial", f"{CWD}/big.txt"),
                          ("no-history", f"{CWD}/absent.py")])
        code, _h, rows, summary, _e = recover_json("--files-from", manifest, "--out-dir", dest)
        self.assertEqual(code, 2)  # the report exists: not overwritten without force
        code, _h, rows, summary, _e = recover_json("--files-from", manifest, "--out-dir", dest, "--force")
        self.assertEqual(code, 0)

    def test_content_larger_than_the_budget_continues(self):
        want = "".join(f"row {i:02d}: the quick brown fox jumps over the lazy dog\n" for i in range(200))
        args = ["--file", f"{CWD}/long.txt", "--max-chars", "5000"]
        got, calls, nxt = "", 0, {}
        while True:
            extra = ["--char-offset", str(nxt["char_offset"])] if "char_offset" in nxt else []
            code, _h, rows, summary, _e = recover_json(*args, *extra)
            self.assertEqual(code, 0)
            calls += 1
            self.assertIn("window", rows[0])
            part = re.sub(r"^\(\u2026 \d+ chars before\) ", "", rows[0]["content"])
            got += re.sub(r"\u2026 \(\+\d+ chars\)$", "", part)
            nxt = summary.get("continue_with", {})
            if "char_offset" not in nxt:
                break
        self.assertGreater(calls, 1)
        self.assertEqual(got, want)


class PlanBinding(unittest.TestCase):
    def test_plan_mode_attachment_binds_and_a_deleted_plan_is_rebuilt(self):
        _c, _h, rows, _s, _e = h.run_json("plan", "--claude-home", HOME, R4)
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual((row["plan_file"], row["binding_source"], row["plan_exists"], row["line"]),
                         ("/home/dev/.claude/plans/quiet-dancing-turing.md", "plan_mode", False, 2))
        code, out, err = recover(R4, "--file", "@plan")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "# Migration\n\n1. Dump the old tables\n2. Load them\n3. Verify row counts\n")

    def test_slug_only_binding_of_a_fork(self):
        _c, _h, rows, _s, _e = h.run_json("plan", "--claude-home", HOME, R5)
        row = rows[0]
        self.assertEqual(row["binding_source"], "slug-only")
        self.assertTrue(row["minted_at_compaction"])
        self.assertEqual(row["plan_file"], os.path.join(os.path.realpath(HOME), "plans", "brave-singing-hopper.md"))
        self.assertTrue(row["plan_exists"])

    def test_slug_binding_honours_plans_directory_inside_the_project_only(self):
        tmp = tempfile.mkdtemp(prefix="csift-plan-")
        try:
            root = os.path.join(tmp, "proj")
            os.makedirs(os.path.join(root, ".claude"))
            home = os.path.join(tmp, "home")
            project = os.path.join(home, "projects", root.replace("/", "-"))
            os.makedirs(project)
            rec = {"type": "user", "uuid": "u1", "sessionId": "e1000000-0000-4000-8000-0000000000e1", "cwd": root,
                   "slug": "calm-river-hopper", "timestamp": "2026-05-06T10:00:00.000Z",
                   "message": {"role": "user", "content": "go"}}
            with open(os.path.join(project, "e1000000-0000-4000-8000-0000000000e1.jsonl"), "w") as f:
                f.write(json.dumps(rec) + "\n")
            for value, want in (("docs/plans", os.path.join(root, "docs", "plans")),
                                ("../escape", os.path.join(home, "plans"))):
                with open(os.path.join(root, ".claude", "settings.json"), "w") as f:
                    json.dump({"plansDirectory": value}, f)
                _c, _h, rows, _s, err = h.run_json("plan", "--claude-home", home, "@e1000000")
                self.assertEqual(rows[0]["plan_file"], os.path.join(want, "calm-river-hopper.md"), err)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def test_reverse_finds_the_bound_session_only(self):
        _c, _h, rows, _s, _e = h.run_json("plan", "--claude-home", HOME, "--reverse",
                                          "/home/dev/.claude/plans/quiet-dancing-turing.md")
        self.assertEqual([r["session_id"][:8] for r in rows], ["d4000000"])
        _c, _h, rows, _s, _e = h.run_json("plan", "--claude-home", HOME, "--reverse",
                                          "/home/dev/.claude/plans/other-walking-lovelace.md")
        self.assertEqual(rows, [])  # edited by d4 but bound to nobody

    def test_at_plan_over_sessions_bound_to_different_plans_is_refused(self):
        code, _o, err = recover("--file", "@plan")
        self.assertEqual(code, 2)
        self.assertIn("different plans", err)


WIN_HOME = os.path.join(h.REPO, "fixtures", "windows-home")


def windows_key(path, cwd):
    """The file a Windows session's path names, by Python's own ntpath (independent of csift-mcp): Git-Bash's
    /c/… is drive C; relative paths join the record's cwd; case and separators folded. None: not knowable."""
    if re.match(r"^/[A-Za-z](/|$)", path):
        path = path[1] + ":" + (path[2:] or "/")
    if not ntpath.isabs(path):
        if not cwd:
            return None
        path = ntpath.join(cwd, path)
    return ntpath.normcase(ntpath.normpath(path))


def windows_replay():
    """An independent replay of fixtures/windows-home: file key -> its final bytes, or None when the transcript
    does not determine them (a change made through a path that cannot be resolved)."""
    files, doubt = {}, set()
    records = []
    for f in sorted(glob.glob(os.path.join(WIN_HOME, "projects", "*", "*.jsonl"))):
        with open(f, encoding="utf-8") as fh:
            records += [json.loads(line) for line in fh]
    records.sort(key=lambda r: r["timestamp"])
    calls = {}
    for r in records:
        for b in r["message"]["content"] if isinstance(r.get("message", {}).get("content"), list) else []:
            if b["type"] == "tool_use":
                calls[b["id"]] = (b["name"], b["input"], r.get("cwd"))
            elif b["type"] == "tool_result" and not b.get("is_error"):
                name, inp, cwd = calls[b["tool_use_id"]]
                if name == "Bash":
                    m = re.match(r"cat > (\S+) <<'EOF'\n(.*\n)EOF$", inp["command"], re.S) or \
                        re.match(r"echo (.*) > (\S+)$", inp["command"])
                    if m and inp["command"].startswith("cat"):
                        files[windows_key(m.group(1), cwd)] = m.group(2)
                    elif m:
                        files[windows_key(m.group(2), cwd)] = m.group(1) + "\n"
                    continue
                key = windows_key(inp.get("file_path", ""), cwd)
                if key is None:
                    doubt.add(ntpath.basename(inp["file_path"]).lower())
                elif name == "Write":
                    files[key] = inp["content"]
                elif name == "Read" and "offset" not in inp:
                    files[key] = r["toolUseResult"]["file"]["content"]
                elif name == "Edit" and files.get(key) is not None:
                    files[key] = files[key].replace(inp["old_string"], inp["new_string"], 1)
    return {k: (None if ntpath.basename(k) in doubt else v) for k, v in files.items()}


class WindowsPaths(unittest.TestCase):
    """A session recorded on Windows (fixtures/make_windows_fixtures.py): drive-letter, UNC and Git-Bash
    spellings, a cwd that changes between the Read and the Edits of one file, CRLF bytes."""

    def recover(self, *args):
        """(exit code, restored bytes or None, the refusal message or the notes): JSON keeps CR bytes raw."""
        code, _h, rows, summary, err = h.run_json("recover", "--claude-home", WIN_HOME, *args)
        said = summary.get("error", {}).get("message", "") + err
        return code, rows[0].get("content") if rows else None, said

    def test_fixture_regenerates(self):
        h.assert_generator_reproduces(self, "make_windows_fixtures.py", WIN_HOME)

    def test_every_file_files_prints_is_restored_as_the_transcript_determines_it(self):
        code, _h, rows, _s, err = h.run_json("files", "--claude-home", WIN_HOME, "--by", "file")
        self.assertEqual(code, 0, err)
        printed = [r["path"] for r in rows if r["kind"] == "file"]
        self.assertIn("D:\\oh-my-posh\\plugins\\segments\\registry.json", printed)  # a Bash row, not mangled
        self.assertEqual(len([p for p in printed if p.lower().endswith("bash.go")]), 1, printed)  # one file
        expected = windows_replay()
        checked, refused = 0, 0
        for path in printed:
            if ntpath.basename(path) == "registry.json" or not ntpath.isabs(path):
                continue  # removed by rm (no content) / a path files could not resolve either
            want = expected[windows_key(path, None)]
            code, out, err = self.recover("--file", path)
            if want is None:
                self.assertEqual(code, 1, path)
                self.assertIn("unresolved-path", err)  # the refusal names the call it could not place
                self.assertIn("cfg\\app.json", err)
                refused += 1
                continue
            self.assertEqual((code, out), (0, want), f"{path}: {err}")
            checked += 1
        self.assertEqual((checked, refused), (7, 1))

    def test_other_spellings_name_the_same_file(self):
        code, out, err = self.recover("--file", "D:\\oh-my-posh\\src\\shell\\bash.go")
        self.assertEqual(code, 0, err)
        self.assertIn("complete from the tool stream", err)
        for spelling in ("d:/OH-MY-POSH/src/shell/bash.go", "/d/oh-my-posh/src/shell/../shell/bash.go"):
            self.assertEqual(self.recover("--file", spelling)[:2], (0, out), spelling)
        self.assertTrue(out.startswith("// Package shell.\npackage shell\n") and "BashInit" in out, out)
        code, out, err = self.recover("--file", "D:/oh-my-posh/themes/crlf.omp.json")
        self.assertEqual((code, out), (0, "{\r\n  \"version\": 3,\r\n  \"blocks\": []\r\n}\r\n"), err)
        code, out, err = self.recover("--file", "\\\\NAS\\team\\.\\todo.txt")
        self.assertEqual((code, out), (0, "- ship 19.1\n"), err)

    def test_a_read_under_one_cwd_and_edits_under_another_are_one_history(self):
        _c, _h, rows, _s, err = h.run_json("recover", "--claude-home", WIN_HOME, "--file",
                                           "D:\\oh-my-posh\\src\\shell\\bash.go", "--coverage")
        self.assertEqual(rows[0]["counts"], {"read-full": 1, "edit": 3, "read-window": 1}, err)

    def test_a_plan_on_windows_is_found_and_rebuilt(self):
        _c, _h, rows, _s, err = h.run_json("plan", "--claude-home", WIN_HOME, "--reverse",
                                           "c:/users/dev/.claude/plans/tidy-windows-prompt.md")
        self.assertEqual([r["session_id"][:8] for r in rows], ["e1000000"], err)
        code, out, err = self.recover("@e1000000", "--file", "@plan")
        self.assertEqual((code, out), (0, "# Release\n\n1. Tag\n2. Publish\n"), err)


def independent_replay(session, path):
    """The final bytes of `path` from one fixture transcript, by its own calls and results alone: each call
    joined to its result by id whatever their order, each landed Write taken whole and each landed Edit
    applied by its old_string/new_string (a match that is not unique without replace_all is refused), in the
    order the results landed."""
    project = os.path.join(HOME, "projects", "-home-dev-projects-mend")
    name = [n for n in os.listdir(project) if n.startswith(session.lstrip("@"))][0]
    with open(os.path.join(project, name), encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    calls, results = {}, []
    for rec in recs:
        content = rec.get("message", {}).get("content")
        for b in content if isinstance(content, list) else []:
            if b.get("type") == "tool_use":
                calls[b["id"]] = b
            elif b.get("type") == "tool_result" and not b.get("is_error"):
                results.append(b["tool_use_id"])
    text = None
    for tid in results:
        call = calls.get(tid)
        if not call or call["input"].get("file_path") != path:
            continue
        inp = call["input"]
        if call["name"] == "Write":
            text = inp["content"]
        elif call["name"] == "Edit":
            if text is None or text.count(inp["old_string"]) != 1 and not inp.get("replace_all"):
                return None
            text = text.replace(inp["old_string"], inp["new_string"], -1 if inp.get("replace_all") else 1)
    return text


class ResultsBeforeCallsAndTabs(unittest.TestCase):
    """E1: results written before their own calls; E2: structuredPatch lines with each tab as two spaces."""
    E1, E2 = "@e1000000", "@e2000000"

    def test_the_generator_reproduces_the_store(self):
        h.assert_generator_reproduces(self, "make_recover_fixtures.py", HOME)

    def test_files_joins_a_result_written_before_its_call(self):
        _c, _h, rows, summary, _e = h.run_json("files", "--claude-home", HOME, self.E1, "--by", "file")
        paths = {r.get("path"): r for r in rows if r.get("kind") == "file"}
        self.assertIn(f"{CWD}/batch.txt", paths)
        self.assertEqual(summary["unconfirmed_calls"], 0)
        self.assertEqual(summary["structured_mutations"], 3)  # the Write of batch.py, then the batch's two

    def test_recover_restores_the_files_of_results_before_their_calls(self):
        for name in ("batch.txt", "batch.py"):
            want = independent_replay(self.E1, f"{CWD}/{name}")
            code, out, err = recover(self.E1, "--file", f"{CWD}/{name}")
            self.assertEqual(code, 0, err)
            self.assertEqual(out, want, name)
        self.assertEqual(want, "x = 2\nprint(x)\n")

    def test_an_edit_is_applied_by_its_strings_and_a_patch_showing_tabs_as_spaces_is_named(self):
        want = independent_replay(self.E2, f"{CWD}/tabs.go")
        self.assertIn("\t", want)
        code, out, err = recover(self.E2, "--file", f"{CWD}/tabs.go")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, want)
        self.assertIn("structuredPatch shows each tab as two spaces", err)
        _c, _h, rows, _s, _e = recover_json(self.E2, "--file", f"{CWD}/tabs.go", "--coverage")
        self.assertEqual(rows[0]["counts"].get("patch-disagreement"), 2)
        self.assertEqual(rows[0]["coverage_holes"], 0)
        self.assertEqual(rows[0]["boundaries"], [])

    def test_an_old_string_found_twice_without_replace_all_still_refuses(self):
        self.assertIsNone(independent_replay(self.E2, f"{CWD}/amb.go"))
        code, out, err = recover(self.E2, "--file", f"{CWD}/amb.go")
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        self.assertIn("could not be placed", err)


if __name__ == "__main__":
    unittest.main()
