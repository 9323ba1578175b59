"""`files --by file` and `recover` on Codex, Gemini CLI, Copilot CLI and OpenCode sessions (SPEC.md §9.7,
§9.13), checked against an independent replay written here: each log is parsed directly (not through
csift), each edit call joined to its result by the harness's call id, the successful ones applied (apply_patch
by Codex's own algorithm, string edits by each harness's rule), and then
  - the set of files the structured edits changed equals the files `files --by file` lists as structured;
  - every file `recover` restores holds exactly the bytes this replay reached, a file this replay knows
    (and no shell command names) is restored, and a file it cannot know is refused.
Stores are laid out in a temp dir from ../shared/corpus (symlinks; a Gemini CLI single-document session is
rewritten as the JSONL log Gemini CLI writes today, and an OpenCode export is loaded into a database) and from
fixtures/fidelity/edits (fixtures/make_edits_fidelity_fixtures.py)."""
import glob
import json
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
import unittest

import corpus_store as cs
import harness as h

FIDELITY = os.path.join(h.REPO, "fixtures", "fidelity", "edits")
MAKE_DB = os.path.join(h.REPO, "fixtures", "opencode", "make_opencode_db.sh")
CORPUS = cs.corpus_root()
CWD = "/home/dev/edits-demo"


# ------------------------------------------------------------------ the independent replay
class Unknown:
    def __init__(self, why):
        self.why = why

    def __repr__(self):
        return f"Unknown({self.why})"


def resolve(path, cwd):
    if not path:
        return None
    if not path.startswith("/"):
        if not cwd:
            return None
        path = cwd.rstrip("/") + "/" + path
    return posixpath.normpath(path)


def split_lines(text):
    return text.split("\n")


def seek(lines, pattern, start, eof):
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    frm = len(lines) - len(pattern) if eof else start
    for norm in (lambda s: s, lambda s: s.rstrip(), lambda s: s.strip()):
        for i in range(frm, len(lines) - len(pattern) + 1):
            if all(norm(lines[i + k]) == norm(pattern[k]) for k in range(len(pattern))):
                return i
    return None


def parse_patch(text):
    """Codex's apply_patch grammar, read the way codex-rs/apply-patch/src/parser.rs reads it. None: malformed.

    >>> parse_patch("*** Begin Patch\\n*** Add File: a\\n+x\\n*** End Patch")
    [('add', 'a', 'x\\n')]
    """
    lines = [l[:-1] if l.endswith("\r") else l for l in text.strip().split("\n")]
    if len(lines) >= 4 and lines[0].strip() in ("<<EOF", "<<'EOF'", '<<"EOF"') and lines[-1].strip().endswith("EOF"):
        lines = lines[1:-1]
    if not lines or lines[0].strip() != "*** Begin Patch" or len(lines) < 2 or lines[-1].strip() != "*** End Patch":
        return None
    out, i, end = [], 1, len(lines) - 1
    while i < end:
        head = lines[i].strip()
        if head.startswith("*** Add File: "):
            i += 1
            body = ""
            while i < end and lines[i].startswith("+"):
                body += lines[i][1:] + "\n"
                i += 1
            out.append(("add", head[len("*** Add File: "):], body))
        elif head.startswith("*** Delete File: "):
            out.append(("delete", head[len("*** Delete File: "):], None))
            i += 1
        elif head.startswith("*** Update File: "):
            path, move, chunks = head[len("*** Update File: "):], None, []
            i += 1
            if i < end and lines[i].strip().startswith("*** Move to: "):
                move = lines[i].strip()[len("*** Move to: "):]
                i += 1
            while i < end and not lines[i].startswith("***"):
                if not lines[i].strip():
                    i += 1
                    continue
                ctx = None
                if lines[i] == "@@":
                    i += 1
                elif lines[i].startswith("@@ "):
                    ctx = lines[i][3:]
                    i += 1
                elif chunks:
                    return None
                old, new, eof, n = [], [], False, 0
                while i < end:
                    l = lines[i]
                    if l == "*** End of File":
                        eof = True
                        i += 1
                        break
                    if l == "":
                        old.append(""), new.append("")
                    elif l[0] == " ":
                        old.append(l[1:]), new.append(l[1:])
                    elif l[0] == "-":
                        old.append(l[1:])
                    elif l[0] == "+":
                        new.append(l[1:])
                    else:
                        break
                    n += 1
                    i += 1
                if n == 0:
                    return None
                chunks.append((ctx, old, new, eof))
            if not chunks:
                return None
            out.append(("update", path, (move, chunks)))
        else:
            return None
    return out


def apply_chunks(text, chunks):
    """codex-rs/apply-patch/src/lib.rs: compute_replacements + apply_replacements; None when a chunk misses."""
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()
    reps, cursor = [], 0
    for ctx, old, new, eof in chunks:
        if ctx:
            at = seek(lines, [ctx], cursor, False)
            if at is None:
                return None
            cursor = at + 1
        if not old:
            reps.append((len(lines) - 1 if lines and lines[-1] == "" else len(lines), 0, new))
            continue
        pattern, with_ = list(old), list(new)
        at = seek(lines, pattern, cursor, eof)
        if at is None and pattern[-1] == "":
            pattern = pattern[:-1]
            if with_ and with_[-1] == "":
                with_ = with_[:-1]
            at = seek(lines, pattern, cursor, eof)
        if at is None:
            return None
        reps.append((at, len(pattern), with_))
        cursor = at + len(pattern)
    for at, n, with_ in sorted(reps, key=lambda r: r[0], reverse=True):
        lines[at:at + n] = with_
    if not lines or lines[-1] != "":
        lines.append("")
    return "\n".join(lines)


def replace_strings(text, old, new, replace_all=False, expected=0):
    if not old:
        return None
    n = text.count(old)
    if expected:
        return text.replace(old, new) if n == expected else None
    if n == 0 or (n > 1 and not replace_all and text.find(old, text.find(old) + 1) != -1):
        return None
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)


class Replay:
    """Per file: its text, or Unknown; the structured files changed; the shell commands seen."""

    def __init__(self):
        self.state, self.changed, self.shell = {}, set(), []

    def shell_command(self, command):
        self.shell.append(command or "")

    def write(self, path, text):
        self.changed.add(path)
        self.state[path] = text

    def unknown(self, path, why):
        self.changed.add(path)
        self.state[path] = Unknown(why)

    def edit(self, path, fn):
        self.changed.add(path)
        cur = self.state.get(path)
        if not isinstance(cur, str):
            self.state[path] = Unknown("no base")
            return
        after = fn(cur)
        self.state[path] = after if after is not None else Unknown("old text not in the file")

    def patch(self, text, cwd):
        hunks = parse_patch(text)
        for kind, path, arg in hunks or []:
            p = resolve(path, cwd)
            if kind == "add":
                self.write(p, arg)
            elif kind == "delete":
                self.unknown(p, "deleted")
            else:
                move, chunks = arg
                self.edit(p, lambda t: apply_chunks(t, chunks))
                if move:
                    self.unknown(p, "moved away")
                    self.unknown(resolve(move, cwd), "moved in")

    def shell_named(self, path):
        base = posixpath.basename(path)
        return any(base in c for c in self.shell)


def apply_unified_diff(text, diff):
    """A unified diff's hunks (`@@ -a[,b] +c[,d] @@`) applied to `text` by their line numbers, each hunk's old
    lines checked where it says they are; None when a hunk does not fit or the diff holds no hunk."""
    hunks = []
    for line in diff.split("\n"):
        m = re.match(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            hunks.append((int(m.group(1)), int(m.group(2) or 1), [], []))
        elif hunks and line[:1] in (" ", "-", "+"):
            if line[0] != "+":
                hunks[-1][2].append(line[1:])
            if line[0] != "-":
                hunks[-1][3].append(line[1:])
        elif hunks and line.startswith("\\"):
            return None  # not met in these logs: left unknown rather than modelled
    if not hunks:
        return None
    lines, delta = text.split("\n"), 0
    for start, count, old, new in hunks:
        at = (start if count == 0 else start - 1) + delta
        if lines[at:at + len(old)] != old or at + len(old) > len(lines) - (1 if text.endswith("\n") else 0):
            return None
        lines[at:at + len(old)] = new
        delta += len(new) - len(old)
    return "\n".join(lines)


def codex_applied_changes(r, changes, cwd):
    """What Codex recorded a patch changed (`changes`: path -> {"type": kind, ...} or, older, {kind: {...}})."""
    for path, change in (changes or {}).items():
        kind = change.get("type")
        if kind is None and len(change) == 1:
            kind, change = next(iter(change.items()))
        p = resolve(path, cwd)
        if kind == "add":
            r.write(p, change.get("content", ""))
        elif kind == "delete":
            r.unknown(p, "deleted")
        elif kind == "update":
            diff, move = change.get("unified_diff") or "", change.get("move_path")
            if diff:
                r.edit(p, lambda t, d=diff: apply_unified_diff(t, d))
            else:
                r.changed.add(p)
            if move:
                r.unknown(p, "moved away")
                r.unknown(resolve(move, cwd), "moved in")


def codex_status(text):
    """ok / error from a Codex call output (the legacy JSON form's exit code, else the header)."""
    try:
        legacy = json.loads(text)
        if isinstance(legacy, dict) and "output" in legacy and "metadata" in legacy:
            code = legacy["metadata"].get("exit_code")
            return "error" if isinstance(code, int) and code != 0 else "ok"
    except ValueError:
        pass
    header = text.split("\nOutput:\n")[0] if "\nOutput:\n" in text else text
    for d in ("exec command rejected by user", "patch rejected by user", "rejected by configuration"):
        if d in header:
            return "error"
    m = re.search(r"^(?:Process exited with code|Exit code:) (-?\d+)", header, re.M)
    return "error" if (m and int(m.group(1)) != 0) or header.startswith("aborted by user") else "ok"


def replay_codex(path):
    """The apply_patch calls (applied in call order once their first output is ok), and the patches known only
    by what Codex recorded as applied — a patch_apply_end or FileChange item whose call id no call introduced
    before — applied where their first completion says they succeeded."""
    calls, results, cwd, ops, introduced, done = [], {}, None, [], set(), set()
    for line in open(path, encoding="utf-8"):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        p = e.get("payload") or {}
        if e.get("type") in ("session_meta", "turn_context") and p.get("cwd"):
            cwd = p["cwd"]
        if e.get("type") == "event_msg" and p.get("type") in ("patch_apply_end", "item_started", "item_completed"):
            it = p if p.get("type") == "patch_apply_end" else p.get("item") or {}
            cid = it.get("call_id") if p.get("type") == "patch_apply_end" else it.get("id")
            if p.get("type") != "patch_apply_end" and it.get("type") != "FileChange":
                continue
            if p.get("type") == "item_started" or it.get("status") in ("inProgress", "in_progress"):
                introduced.add(cid)
                continue
            if cid in done or (cid in introduced and cid in {c[0] for c in calls}):
                continue  # a call's result: its patch text is what the calls below apply
            introduced.add(cid)
            done.add(cid)
            status = it.get("status")
            ok = status == "completed" if status is not None else it.get("success") is not False
            if ok:
                ops.append((len(calls), it.get("changes"), cwd))
            continue
        if e.get("type") != "response_item":
            continue
        t = p.get("type")
        if t in ("function_call", "custom_tool_call"):
            if p.get("call_id") in introduced:
                continue  # an item event already introduced this call
            introduced.add(p.get("call_id"))
            calls.append((p.get("call_id"), p.get("name"), p.get("input") if t == "custom_tool_call" else p.get("arguments"), cwd, t))
        elif t in ("function_call_output", "custom_tool_call_output") and p.get("call_id") not in results:
            out = p.get("output")
            results[p.get("call_id")] = codex_status(out) if isinstance(out, str) else "ok"
    r = Replay()
    for k, (cid, name, raw, cwd, t) in enumerate(calls + [(None,) * 5]):
        for _at, changes, where in [op for op in ops if op[0] == k]:
            codex_applied_changes(r, changes, where)
        if cid is None:
            break
        args = {}
        if t == "function_call":
            try:
                args = json.loads(raw) if isinstance(raw, str) else (raw or {})
            except ValueError:
                args = {}
        if name in ("shell", "exec_command", "shell_command", "container.exec", "local_shell"):
            cmd = args.get("command", args.get("cmd"))
            if isinstance(cmd, list) and len(cmd) == 2 and cmd[0] in ("apply_patch", "applypatch"):
                raw, name = cmd[1], "apply_patch"
            else:
                r.shell_command(" ".join(cmd) if isinstance(cmd, list) else cmd)
                continue
        if name != "apply_patch" or results.get(cid) != "ok":
            continue
        text = raw if t == "custom_tool_call" or name == "apply_patch" and isinstance(raw, str) and raw.startswith("*") else args.get("input", "")
        r.patch(text, cwd)
    return r


def replay_gemini(path, cwd):
    r = Replay()
    for line in open(path, encoding="utf-8"):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        for c in e.get("toolCalls") or [] if e.get("type") == "gemini" else []:
            a, name = c.get("args") or {}, c.get("name")
            if name == "run_shell_command":
                r.shell_command(a.get("command"))
                continue
            if name not in ("write_file", "replace") or c.get("status") != "success" or "result" not in c:
                continue
            p = resolve(a.get("file_path"), cwd)
            if name == "write_file":
                r.write(p, a.get("content", ""))
            elif not a.get("old_string"):
                r.write(p, a.get("new_string", ""))
            else:
                n = a.get("expected_replacements") or 1
                r.edit(p, lambda t: replace_strings(t, a["old_string"], a.get("new_string", ""), expected=n))
    return r


def replay_copilot(path, cwd):
    requests, results = [], {}
    for line in open(path, encoding="utf-8"):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        d = e.get("data") or {}
        if e.get("type") == "session.start" and not cwd:
            cwd = (d.get("context") or {}).get("cwd")
        if e.get("type") == "assistant.message":
            requests += d.get("toolRequests") or []
        if e.get("type") == "tool.execution_complete" and d.get("toolCallId") not in results:
            results[d.get("toolCallId")] = d.get("success") is True
    r = Replay()
    for q in requests:
        a, name = q.get("arguments") or {}, q.get("name")
        if name == "bash":
            r.shell_command(a.get("command"))
        if name not in ("create", "edit") or not results.get(q.get("toolCallId")):
            continue
        p = resolve(a.get("path"), cwd)
        if name == "create" or not a.get("old_str"):
            r.write(p, a.get("file_text") if name == "create" else a.get("new_str", ""))
        else:
            r.edit(p, lambda t: replace_strings(t, a["old_str"], a.get("new_str", "")))
    return r


def replay_opencode(export):
    r = Replay()
    cwd = export["info"]["directory"]
    for m in export["messages"]:
        for part in m["parts"]:
            if part.get("type") != "tool":
                continue
            st, name = part.get("state") or {}, part.get("tool")
            a = st.get("input") or {}
            if name in ("bash", "shell"):
                r.shell_command(a.get("command"))
            if st.get("status") != "completed":
                continue
            p = resolve(a.get("filePath"), cwd)
            if name == "write" or (name == "edit" and not a.get("oldString")):
                r.write(p, a.get("content") if name == "write" else a.get("newString", ""))
            elif name == "edit":
                r.edit(p, lambda t: replace_strings(t, a["oldString"], a["newString"], a.get("replaceAll", False)))
            elif name == "multiedit":
                def all_edits(t, edits=a.get("edits") or []):
                    for x in edits:
                        t = replace_strings(t, x["oldString"], x["newString"], x.get("replaceAll", False)) if t is not None else None
                    return t
                r.edit(p, all_edits)
            elif name == "apply_patch":
                r.patch(a.get("patchText", ""), cwd)
    return r


# ------------------------------------------------------------------ stores
def link(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    os.symlink(src, dst)


class Stores:
    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="csift-edits-")
        self.claude = os.path.join(self.tmp, "claude")
        os.makedirs(os.path.join(self.claude, "projects"))

    def env(self, **v):
        base = {"CODEX_HOME": "/nonexistent", "GEMINI_CLI_HOME": "/nonexistent", "COPILOT_HOME": "/nonexistent",
                "OPENCODE_DB": "/nonexistent.db", "HOME": self.tmp}
        base.update(v)
        return h.test_env(**base)

    def opencode_db(self, name, export_file):
        db = os.path.join(self.tmp, name, "opencode.db")
        os.makedirs(os.path.dirname(db), exist_ok=True)
        subprocess.run(["bash", MAKE_DB, "export", db, export_file], check=True, stdout=subprocess.DEVNULL)
        return db


def files_by_file(stores, env, ref):
    code, _h, rows, _s, err = h.run_json("files", ref, "--by", "file", "--claude-home", stores.claude, env=env)
    assert code == 0, err
    return {r["path"] for r in rows if r.get("kind") == "file" and r["mutations"] > r["heuristic_mutations"]}


def recover(stores, env, ref, path):
    code, out, err = h.run_cli("recover", ref, "--file", path, "--claude-home", stores.claude, env=env)
    return code, out, err


class FilesRecoverHarnessesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = Stores()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.s.tmp, True)

    def check(self, env, ref, replay, expect_restored=None):
        """files --by file and recover against the replay; returns {path: recover exit code}."""
        self.assertEqual(files_by_file(self.s, env, ref), replay.changed, ref)
        codes = {}
        for path in sorted(replay.changed):
            code, out, err = recover(self.s, env, ref, path)
            want = replay.state.get(path)
            codes[path] = code
            if code == 0:
                self.assertIsInstance(want, str, f"{ref} {path}: recover restored what the replay cannot know")
                self.assertEqual(out, want, f"{ref} {path}")
            elif isinstance(want, str) and not replay.shell_named(path):
                self.fail(f"{ref} {path}: the replay knows it, recover refused: {err or out}")
            else:
                self.assertEqual(code, 1, err)
        for path in expect_restored or []:
            self.assertEqual(codes.get(path), 0, f"{ref} {path}: {codes}")
        return codes

    # ---------------------------------------------------------------- corpus
    @unittest.skipUnless(CORPUS, "../shared/corpus not present")
    def test_codex_corpus_rollouts(self):
        home = os.path.join(self.s.tmp, "codex")
        rollouts = sorted(glob.glob(os.path.join(CORPUS, "skills", "*", "*", "*", "full.jsonl")))
        rollouts += sorted(glob.glob(os.path.join(CORPUS, "localpush", "**", "rollout-*.jsonl"), recursive=True))
        # a 0.146 rollout whose patch_apply_end has no call to join it to (its diff trimmed: not placeable)
        rollouts.append(os.path.join(CORPUS, "agent-sessions", "Resources", "Fixtures", "stage0", "agents", "codex",
                                     "small.jsonl"))
        refs = []
        for f in rollouts:
            sid = json.loads(open(f, encoding="utf-8").readline())["payload"]["id"]
            link(f, os.path.join(home, "sessions", "2026", "04", "01", f"rollout-2026-04-01T00-00-00-{sid}.jsonl"))
            refs.append((f"codex:{sid}", f))
        env = self.s.env(CODEX_HOME=home)
        changed = 0
        for ref, f in refs:
            replay = replay_codex(f)
            changed += len(replay.changed)
            self.check(env, ref, replay)
        self.assertGreaterEqual(changed, 6)  # the skills rollouts' apply_patch updates (localpush's are redacted)

    @unittest.skipUnless(CORPUS, "../shared/corpus not present")
    def test_gemini_corpus_sessions(self):
        home = os.path.join(self.s.tmp, "gemini")
        project = os.path.join(home, ".gemini", "tmp", "cli")
        fixtures = os.path.join(CORPUS, "agent-sessions", "Resources", "Fixtures", "stage0", "agents", "gemini")
        link(os.path.join(fixtures, "jsonl_v040.jsonl"), os.path.join(home, ".gemini", "tmp", "stage0", "chats",
                                                                        "session-2026-04-29T21-39-stage0.jsonl"))
        # entireio/cli's single-document sessions (the latest checkpoint of each), as today's JSONL log
        cwd = "/Users/peytonmontei/Documents/entire/devenv/entireio/cli"
        os.makedirs(os.path.join(project, "chats"))
        with open(os.path.join(project, ".project_root"), "w") as f:
            f.write(cwd)
        sessions = []
        for name in ("51/3fab7adf0b", "12/cbfeaa512b", "ab/2b9748b105"):
            doc = json.load(open(os.path.join(CORPUS, "cli", name, "0", "full.jsonl"), encoding="utf-8"))
            meta = {k: v for k, v in doc.items() if k != "messages"}
            path = os.path.join(project, "chats", f"session-{doc['sessionId'][:8]}.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for obj in [meta] + doc["messages"]:
                    f.write(json.dumps(obj) + "\n")
            sessions.append((f"gemini-cli:{doc['sessionId']}", path))
        env = self.s.env(GEMINI_CLI_HOME=home)
        self.check(env, "gemini-cli:gemini_stage0_jsonl", replay_gemini(os.path.join(fixtures, "jsonl_v040.jsonl"), None))
        restored = 0
        for ref, path in sessions:
            codes = self.check(env, ref, replay_gemini(path, cwd))
            restored += sum(c == 0 for c in codes.values())
        self.assertGreaterEqual(restored, 2)  # test-gemini.txt (written whole) in two sessions

    @unittest.skipUnless(CORPUS, "../shared/corpus not present")
    def test_copilot_corpus_logs(self):
        home = os.path.join(self.s.tmp, "copilot")
        base = os.path.join(CORPUS, "agent-sessions", "Resources", "Fixtures", "stage0", "agents", "copilot")
        logs = sorted(glob.glob(os.path.join(base, "*.jsonl")))
        refs = []
        for f in logs:
            sid = json.loads(open(f, encoding="utf-8").readline())["data"]["sessionId"]
            link(f, os.path.join(home, "session-state", sid, "events.jsonl"))
            refs.append((f"copilot:{sid}", f))
        env = self.s.env(COPILOT_HOME=home)
        for ref, f in refs:
            self.check(env, ref, replay_copilot(f, None))

    @unittest.skipUnless(CORPUS, "../shared/corpus not present")
    def test_opencode_corpus_export(self):
        export = os.path.join(CORPUS, "devtoolbox", "96", "0b22501128", "0", "full.jsonl")
        env = self.s.env(OPENCODE_DB=self.s.opencode_db("oc-corpus", export))
        ex = json.load(open(export, encoding="utf-8"))
        self.check(env, f"opencode-v1:{ex['info']['id']}", replay_opencode(ex))

    # ---------------------------------------------------------------- fixtures: the shapes the corpus lacks
    def test_codex_fixture(self):
        env = self.s.env(CODEX_HOME=os.path.join(FIDELITY, "codex"))
        f = glob.glob(os.path.join(FIDELITY, "codex", "sessions", "*", "*", "*", "rollout-*c0de.jsonl"))[0]
        ref = "codex:0199edit-0000-7000-8000-00000000c0de"
        replay = replay_codex(f)
        self.assertEqual(replay.state[f"{CWD}/app.py"],
                         "import os\n\ndef main():\n    print('hello')\n\ndef helper():\n    return 2\n\nmain()\n")
        codes = self.check(env, ref, replay, expect_restored=[f"{CWD}/app.py"])
        for path in ("notes.md", "docs/notes.md", "scratch.txt", "known.txt"):
            self.assertEqual(codes[f"{CWD}/{path}"], 1, path)
        # the gaps are named
        _c, _o, err = recover(self.s, env, ref, f"{CWD}/known.txt")
        self.assertIn("edit-disagreement", err)
        _c, _o, err = recover(self.s, env, ref, f"{CWD}/docs/notes.md")
        self.assertIn("moved-in", err)
        _c, _o, err = recover(self.s, env, ref, f"{CWD}/scratch.txt")
        self.assertIn("deleted", err)
        # a shell command that names the file is a boundary (soft, as for Claude Code's Bash): restored, not verified
        code, out, err = recover(self.s, env, ref, f"{CWD}/config.toml")
        self.assertEqual((code, out), (0, "debug = false\n"), err)
        self.assertIn("NOT verified against disk", err)
        # files: the failed patch is counted, the call without a result unconfirmed, the shell rm a heuristic row
        code, _h, rows, summary, err = h.run_json("files", ref, "--by", "timeline", "--claude-home", self.s.claude, env=env)
        self.assertEqual(code, 0, err)
        ops = {(r["path"], r["op"]) for r in rows if r.get("kind") == "mutation"}
        self.assertIn((f"{CWD}/notes.md", "move-from"), ops)
        self.assertIn((f"{CWD}/docs/notes.md", "move-to"), ops)
        self.assertIn((f"{CWD}/scratch.txt", "delete"), ops)
        self.assertIn((f"{CWD}/build.log", "rm"), ops)
        self.assertIn((f"{CWD}/config.toml", "sed-i"), ops)
        self.assertEqual((summary["failed_calls"], summary["unconfirmed_calls"]), (1, 1), summary)

    def test_codex_applied_only_fixture(self):
        """Patches known only by what Codex recorded as applied (patch_apply_end, FileChange items)."""
        env = self.s.env(CODEX_HOME=os.path.join(FIDELITY, "codex"))
        f = glob.glob(os.path.join(FIDELITY, "codex", "sessions", "*", "*", "*", "rollout-*ae0d0.jsonl"))[0]
        ref = "codex:0199edit-0000-7000-8000-0000000ae0d0"
        replay = replay_codex(f)
        self.assertEqual(replay.state[f"{CWD}/lib.py"], "def f():\n    return 10\n\ndef g():\n    return 20\n# end\n")
        self.assertEqual(replay.state[f"{CWD}/old.txt"], "x\nz\n")
        codes = self.check(env, ref, replay, expect_restored=[f"{CWD}/lib.py", f"{CWD}/old.txt"])
        self.assertEqual(len(replay.changed), 8, sorted(replay.changed))
        # each refusal names its gap
        for path, gap in (("unknown.cfg", "could not be placed"), ("fit.txt", "edit-disagreement"), ("trim.txt", "unreadable-diff"),
                          ("tmp.txt", "deleted"), ("notes.md", "moved-away"), ("docs/notes.md", "moved-in")):
            code, _o, err = recover(self.s, env, ref, f"{CWD}/{path}")
            self.assertEqual(code, 1, path)
            self.assertIn(gap, err, path)
        # files lists them as structured edits; the failed item and the declined end event never landed
        code, _h, rows, summary, err = h.run_json("files", ref, "--by", "timeline", "--claude-home", self.s.claude, env=env)
        self.assertEqual(code, 0, err)
        ops = {(r["path"], r["op"]) for r in rows if r.get("kind") == "mutation"}
        for want in (("lib.py", "write"), ("lib.py", "edit"), ("unknown.cfg", "edit"), ("tmp.txt", "delete"),
                     ("notes.md", "move-from"), ("docs/notes.md", "move-to")):
            self.assertIn((f"{CWD}/{want[0]}", want[1]), ops)
        self.assertEqual((summary["failed_calls"], summary["unconfirmed_calls"]), (2, 0), summary)

    def test_gemini_fixture(self):
        env = self.s.env(GEMINI_CLI_HOME=os.path.join(FIDELITY, "gemini"))
        f = glob.glob(os.path.join(FIDELITY, "gemini", ".gemini", "tmp", "edits", "chats", "*.jsonl"))[0]
        ref = "gemini-cli:5e1aed17-0000-4000-8000-0000000000e2"
        replay = replay_gemini(f, CWD)
        self.assertEqual(replay.state[f"{CWD}/colors.md"], "crimson\nnavy\ncrimson\ngreen\n")
        self.check(env, ref, replay, expect_restored=[f"{CWD}/colors.md", f"{CWD}/new.txt"])
        _c, _o, err = recover(self.s, env, ref, f"{CWD}/shapes.md")
        self.assertIn("edit-disagreement", err)

    def test_copilot_fixture(self):
        env = self.s.env(COPILOT_HOME=os.path.join(FIDELITY, "copilot"))
        f = glob.glob(os.path.join(FIDELITY, "copilot", "session-state", "*", "events.jsonl"))[0]
        ref = "copilot:c0b1ed17-0000-4000-8000-0000000000c2"
        replay = replay_copilot(f, CWD)
        self.assertEqual(replay.state[f"{CWD}/README.md"], "# Demo\n\nDone.\n")
        self.check(env, ref, replay, expect_restored=[f"{CWD}/README.md"])
        _c, _o, err = recover(self.s, env, ref, f"{CWD}/README.md")
        self.assertIn("NOT verified against disk", err)  # the shell mv names it
        code, _h, rows, summary, err = h.run_json("files", ref, "--claude-home", self.s.claude, env=env)
        self.assertEqual((summary["failed_calls"], summary["unconfirmed_calls"]), (2, 1), summary)

    def test_opencode_fixture(self):
        export = os.path.join(FIDELITY, "opencode", "export.json")
        env = self.s.env(OPENCODE_DB=self.s.opencode_db("oc-fixture", export))
        ex = json.load(open(export, encoding="utf-8"))
        replay = replay_opencode(ex)
        self.assertEqual(replay.state[f"{CWD}/util.go"], "package main\n\nfunc b() {}\nfunc c() {}\n")
        self.check(env, "opencode-v1:" + ex["info"]["id"], replay,
                   expect_restored=[f"{CWD}/main.go", f"{CWD}/util.go", f"{CWD}/lib.go"])


if __name__ == "__main__":
    unittest.main()
