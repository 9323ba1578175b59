#!/usr/bin/env python3
"""A soak of the warm server (issue #36, item 2): one stdio and one HTTP server (loopback only), both with their
memos on, over a temporary store that a writer keeps changing, for a bounded time. Every answer the servers give
while the store is still is compared with a fresh `csift-mcp --cli` run over the same state, and the servers'
resident memory and open descriptors are sampled from /proc and must stay flat.

The store (a temp dir, never the repo): a copy of fixtures/home, the projects of the other fixture homes and a few
corpus Claude Code sessions (with their subagents) copied under fresh ids. The writer works on the copied live
projects only, from a fixed pool of names (so what the memos may hold stays bounded, as on a real machine):
  - appends a record (a prompt, an agent answer, a Write call and its result);
  - appends half a record (a torn line) and completes it a later step;
  - truncates a log at a line boundary (and, sometimes, inside a line: a torn tail);
  - replaces a log by rename (a new inode at the path);
  - deletes a log, and restores it later (a new inode again);
  - writes, appends to and deletes subagent logs (`<session>/subagents/agent-<id>.jsonl`);
  - renames a project directory away and back.

Each round has two phases. Churn: the writer changes the store every few milliseconds while one client per
server calls read-only tools at random; every reply must be a result (a tool may say a file vanished, but no
JSON-RPC error, no internal error, no hang). Quiesce: the writer is paused, and for a slice of the call list
(every read-only tool the stdio server lists, several search patterns and modes) both servers and a fresh CLI
run answer the same call over the same bytes; their envelopes must be equal once normalised (EXCLUDED below).

Usage: bench/soak.py [--bin build/csift-mcp] [--seconds 300] [--json] [--server-flag=--watch-stamps ...]
Exit status 0 when there was no mismatch, no bad reply and both servers stayed flat; 1 otherwise.
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "cli"))
sys.path.insert(0, os.path.join(REPO, "tests", "mcp"))
os.environ.setdefault("CSIFT_SOURCE_DIR", REPO)
from corpus_store import build_corpus_store, corpus_root  # noqa: E402
from test_cli_parity import cli_flags as parity_flags, positional_properties, spelling_free, timeless  # noqa: E402

# What is left out of the comparison, and why. Nothing else is: every row, header field and summary field of
# both envelopes, the isError flag and the notes must be equal.
EXCLUDED = {
    # A warm server reports its memos' work per call (§7); the CLI has no memo and never prints them.
    "summary.scan_memo": "the warm scan memo's report (servers only)",
    "summary.result_memo": "the warm result memo's report (servers only)",
    "summary.disk_cache": "the disk cache's report (servers only; the CLI shares the cache but prints none)",
    # sessions_digest's row (and its note) says when the session's previous digest was saved: the wall clock of
    # that save, one by the server and one by the CLI (each has its own state database, asked in lockstep),
    # milliseconds apart.
    "row.unmarked_digest_replaced": "when the previous digest was saved (a wall-clock instant)",
}
# Four more, replaced by a placeholder where they occur (the path; the digits of the rest):
#   - the path of the triage state database (header.state_db): the stdio server and the CLI each keep their own,
#     asked in lockstep (STATE_WRITING), so the two paths differ by construction;
#   - how long whoami followed appended bytes before it refused ("... for 2025 ms (inotify)"): a wall-clock wait;
#   - how long ago a status verdict's evidence happened ("in a Write call for 16494446s"): an age, like the ones
#     test_cli_parity.timeless replaces;
#   - the instant in sessions_digest's note "<ref> was digested at 2026-12-05T18:21:27.449Z and not marked since"
#     (row.unmarked_digest_replaced above, in words).
STATE_DBS = []  # set by soak()
WAITED_MS = re.compile(r"followed the appended bytes for \d+ ms|call for \d+s\b|"
                       r"was digested at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
# Point-in-time fields (ages measured at the instant of the call, `status`) are compared as shapes by
# test_cli_parity.timeless; message spellings (a flag on the CLI, an argument name over MCP) by spelling_free.

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SANITIZED = bool(os.environ.get("CSIFT_TEST_SANITIZED"))
SLOW = 4.0 if SANITIZED else 1.0
BIG = 10 ** 7  # a budget no answer here reaches, passed to every side
CLIENT = {"name": "csift-soak", "version": "1"}
# Tools that are never called: `wait` blocks on purpose, `export` and `sessions_mark` write.
NOT_CALLED = {"wait", "export", "sessions_mark"}
# Tools that write the triage state database: the stdio server and the CLI each have their own and are asked in
# lockstep, so both databases hold the same history.
STATE_WRITING = {"sessions_digest"}
WORDS = ("error", "lorem", "Traceback", "deploy", "zanzibar", "résumé", "retry", "ok", "build", "tests", "passed",
         "failed", "kernel", "EACCES", "ſtraße", "quux")


# ------------------------------------------------------------------------------------------------ the store
def copy_swapped(src, dst, fresh):
    """Copies `src` to `dst` with every uuid that names a file replaced by its fresh one (names and bytes)."""
    swap = (lambda m: fresh.get(m.group(0), m.group(0)))
    with open(src, "rb") as f:
        data = f.read()
    try:
        data = UUID.sub(swap, data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    except UnicodeError:
        pass
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "wb") as f:
        f.write(data)


def copy_tree_swapped(files, src_root, dst_root, rng):
    """Copies `files` (paths under src_root) to dst_root under fresh uuids."""
    names = set()
    for f in files:
        names.update(UUID.findall(os.path.relpath(f, src_root)))
    fresh = {u: str(uuid.UUID(int=rng.getrandbits(128), version=4)) for u in sorted(names)}
    for f in files:
        rel = UUID.sub(lambda m: fresh.get(m.group(0), m.group(0)), os.path.relpath(f, src_root))
        copy_swapped(f, os.path.join(dst_root, rel), fresh)


def walk_files(root):
    for dirpath, _dirs, files in os.walk(root, followlinks=True):
        for fn in files:
            yield os.path.join(dirpath, fn)


def build_store(tmp, rng, corpus_sessions=4):
    """The store under tmp/home; returns (home, live project dirs)."""
    home = os.path.join(tmp, "home")
    shutil.copytree(os.path.join(REPO, "fixtures", "home"), home, symlinks=True)
    projects = os.path.join(home, "projects")
    # The other fixture homes' projects, copied under fresh ids into projects of their own.
    for other in ("agents-home", "home-compacted", "recover-home", "records-home"):
        src = os.path.join(REPO, "fixtures", other, "projects")
        if not os.path.isdir(src):
            continue
        for project in sorted(os.listdir(src)):
            files = sorted(walk_files(os.path.join(src, project)))
            copy_tree_swapped(files, os.path.join(src, project),
                              os.path.join(projects, f"{project}-soak-{other}"), rng)
    live = []
    # The live fixture project: the main fixture home's sessions again, under fresh ids.
    main = os.path.join(REPO, "fixtures", "home", "projects")
    live_fix = os.path.join(projects, "-home-soak-live")
    for project in sorted(os.listdir(main)):
        files = sorted(walk_files(os.path.join(main, project)))
        copy_tree_swapped(files, os.path.join(main, project), live_fix, rng)
    live.append(live_fix)
    # A few small corpus sessions with subagents, under fresh ids, in a live project of their own.
    root = corpus_root()
    if root:
        layout = tempfile.mkdtemp(prefix="csift-soak-layout-")
        try:
            placed, _ = build_corpus_store(root, layout)
            # The smallest session that has subagents (a few MB), then small ones (20-400 KB).
            sessions = sorted((os.path.getsize(p["path"]), p["path"], p) for p in placed
                              if p["kind"] == "session" and UUID.fullmatch(p["id"] or ""))
            with_subagents = [p for _, _, p in sessions
                              if os.path.isdir(os.path.join(os.path.dirname(p["path"]), p["id"], "subagents"))]
            small = [p for size, _, p in sessions if 20_000 <= size <= 400_000 and p not in with_subagents]
            picked = with_subagents[:1] + small[:max(0, corpus_sessions - 1)]
            for p in picked[:corpus_sessions]:
                d = os.path.dirname(p["path"])
                files = [p["path"]] + sorted(walk_files(os.path.join(d, p["id"])))
                copy_tree_swapped(files, d, os.path.join(projects, "-home-soak-corpus"), rng)
            if picked:
                live.append(os.path.join(projects, "-home-soak-corpus"))
        finally:
            shutil.rmtree(layout, ignore_errors=True)
    return home, live


# ----------------------------------------------------------------------------------------------- the writer
def now_iso(tick):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1780000000 + tick)) + ".000Z"


def last_record(path):
    """(sessionId, uuid, cwd) of the last complete line of `path` that has them, else fresh ones."""
    sid, last, cwd = None, None, "/home/soak"
    try:
        with open(path, "rb") as f:
            for line in f.read().split(b"\n")[:-1]:
                try:
                    o = json.loads(line)
                except ValueError:
                    continue
                if isinstance(o, dict):
                    sid = o.get("sessionId") or sid
                    last = o.get("uuid") or last
                    cwd = o.get("cwd") or cwd
    except FileNotFoundError:
        pass
    return sid, last, cwd


class Writer:
    """Changes the live projects, one operation a step, from a fixed pool of names."""

    def __init__(self, live, rng):
        self.rng = rng
        self.live = live  # project dirs; each may be renamed to <dir>-moved and back
        self.moved = {d: False for d in live}
        self.pending = {}  # path -> the rest of a torn line
        self.graveyard = {}  # path -> bytes of a deleted log, restored later under the same name
        self.tick = 0
        self.ops = {}
        self.paused = threading.Event()
        self.idle = threading.Event()
        self.stop = threading.Event()
        self.errors = []
        # The store stays about its size: a log grown GROWTH bytes past its first size is truncated instead.
        self.first_size = {os.path.relpath(p, d): os.path.getsize(p) for d in live for p in walk_files(d)}

    GROWTH = 48 * 1024

    def overgrown(self, path):
        for d in self.live:
            for base in (d, d + "-moved"):
                if path.startswith(base + os.sep):
                    first = self.first_size.get(os.path.relpath(path, base), 0)
                    return os.path.getsize(path) > first + self.GROWTH
        return False

    def here(self, d):
        return d + "-moved" if self.moved[d] else d

    def logs(self):
        out = []
        for d in self.live:
            cur = self.here(d)
            for fn in sorted(os.listdir(cur)):
                if fn.endswith(".jsonl") and UUID.fullmatch(fn[:-6]):
                    out.append(os.path.join(cur, fn))
        return out

    def record(self, path, kind):
        sid, parent, cwd = last_record(path)
        sid = sid or os.path.basename(path)[:-6]
        self.tick += 1
        u = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        words = " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(3, 12)))
        base = {"parentUuid": parent, "isSidechain": "subagents" in path, "userType": "external", "cwd": cwd,
                "sessionId": sid, "version": "2.1.160", "uuid": u, "timestamp": now_iso(self.tick)}
        if kind == "prompt":
            return dict(base, type="user", message={"role": "user", "content": f"soak prompt {words}"})
        if kind == "write":
            tid = f"toolu_soak{self.tick:08d}"
            target = f"{cwd}/soak/file{self.rng.randint(0, 3)}.txt"
            call = dict(base, type="assistant", message={
                "model": "claude-opus-4-6", "id": f"msg_soak{self.tick}", "type": "message", "role": "assistant",
                "content": [{"type": "tool_use", "id": tid, "name": "Write",
                             "input": {"file_path": target, "content": f"{words}\nline two\n"}}],
                "usage": {"input_tokens": 3, "output_tokens": 7}})
            self.tick += 1
            result = dict(base, type="user", uuid=str(uuid.UUID(int=self.rng.getrandbits(128), version=4)),
                          parentUuid=u, timestamp=now_iso(self.tick),
                          message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid,
                                                                "content": f"File created at {target}"}]})
            return [call, result]
        return dict(base, type="assistant", message={
            "model": "claude-opus-4-6", "id": f"msg_soak{self.tick}", "type": "message", "role": "assistant",
            "content": [{"type": "text", "text": f"soak answer {words}"}],
            "usage": {"input_tokens": 5, "output_tokens": 11}})

    def lines_of(self, path, kind):
        recs = self.record(path, kind)
        recs = recs if isinstance(recs, list) else [recs]
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs).encode()

    def append_to(self, path, data):
        with open(path, "ab") as f:
            f.write(data)

    def step(self):
        """One change; returns its name."""
        logs = self.logs()
        rng = self.rng
        # A torn line is completed first, most of the time (sometimes it waits a few steps).
        if self.pending and rng.random() < 0.7:
            path, rest = self.pending.popitem()
            if os.path.exists(path):
                self.append_to(path, rest)
            return "complete-torn"
        if self.graveyard and rng.random() < 0.3:
            path, data = self.graveyard.popitem()
            moved = [d for d in self.live if path.startswith(d + os.sep) or path.startswith(d + "-moved" + os.sep)]
            if moved:
                d = moved[0]
                path = os.path.join(self.here(d), os.path.relpath(path, d if path.startswith(d + os.sep)
                                                                   else d + "-moved"))
                with open(path, "wb") as f:
                    f.write(data)
            return "restore"
        op = rng.choices(["append", "append", "append", "torn", "truncate", "rename-replace", "delete",
                          "subagent", "subagent-delete", "move-project"],
                         weights=[6, 3, 2, 2, 1, 1, 1, 2, 1, 1])[0]
        if not logs and op not in ("move-project",):
            op = "move-project"
        path = rng.choice(logs) if logs else None
        if path and op in ("append", "torn") and self.overgrown(path):
            op = "truncate"
        if op == "append":
            self.pending.pop(path, None) if path in self.pending else None
            self.append_to(path, self.lines_of(path, rng.choice(["prompt", "answer", "write"])))
        elif op == "torn":
            if path in self.pending:
                return "none"
            data = self.lines_of(path, rng.choice(["prompt", "answer"]))
            cut = rng.randint(1, len(data) - 2)
            self.append_to(path, data[:cut])
            self.pending[path] = data[cut:]
        elif op == "truncate":
            with open(path, "rb") as f:
                data = f.read()
            ends = [m.end() for m in re.finditer(b"\n", data)]
            if len(ends) < 3:
                return "none"
            keep = ends[rng.randint(len(ends) // 2, len(ends) - 2)]
            if rng.random() < 0.2:  # inside the next line: a torn tail
                keep += rng.randint(1, max(1, ends[ends.index(keep) + 1] - keep - 2))
            os.truncate(path, keep)
            self.pending.pop(path, None)
        elif op == "rename-replace":
            with open(path, "rb") as f:
                data = f.read()
            self.pending.pop(path, None)
            if not data.endswith(b"\n"):
                data = data[:data.rfind(b"\n") + 1]
            tmp = os.path.join(os.path.dirname(path), ".soak-replace.tmp")
            with open(tmp, "wb") as f:
                f.write(data + self.lines_of(path, "prompt"))
            os.replace(tmp, path)
        elif op == "delete":
            if len(logs) < 3:
                return "none"
            with open(path, "rb") as f:
                self.graveyard[path] = f.read()
            self.pending.pop(path, None)
            os.unlink(path)
        elif op == "subagent":
            sid = os.path.basename(path)[:-6]
            agent = f"a50a{rng.randint(0, 2):012x}"
            sub = os.path.join(os.path.dirname(path), sid, "subagents", f"agent-{agent}.jsonl")
            os.makedirs(os.path.dirname(sub), exist_ok=True)
            if not os.path.exists(sub):
                self.tick += 1
                first = {"parentUuid": None, "isSidechain": True, "userType": "external", "cwd": "/home/soak",
                         "sessionId": sid, "agentId": agent, "version": "2.1.160", "type": "user",
                         "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                         "timestamp": now_iso(self.tick),
                         "message": {"role": "user", "content": "soak subagent task: count the errors"}}
                self.append_to(sub, (json.dumps(first) + "\n").encode())
            self.append_to(sub, self.lines_of(sub, rng.choice(["answer", "write"])))
        elif op == "subagent-delete":
            sid = os.path.basename(path)[:-6]
            subdir = os.path.join(os.path.dirname(path), sid, "subagents")
            agents = sorted(f for f in os.listdir(subdir) if f.startswith("agent-a50a")) \
                if os.path.isdir(subdir) else []
            if not agents:
                return "none"
            os.unlink(os.path.join(subdir, rng.choice(agents)))
        elif op == "move-project":
            d = rng.choice(self.live)
            src = self.here(d)
            self.moved[d] = not self.moved[d]
            os.rename(src, self.here(d))
            # Paths held by the writer follow the directory.
            self.pending = {self._moved(p, src, self.here(d)): r for p, r in self.pending.items()}
            self.graveyard = {self._moved(p, src, self.here(d)): r for p, r in self.graveyard.items()}
        return op

    @staticmethod
    def _moved(p, src, dst):
        return os.path.join(dst, os.path.relpath(p, src)) if p.startswith(src + os.sep) else p

    def run(self, interval):
        while not self.stop.is_set():
            if self.paused.is_set():
                self.idle.set()
                time.sleep(0.005)
                continue
            self.idle.clear()
            try:
                op = self.step()
                self.ops[op] = self.ops.get(op, 0) + 1
            except Exception as e:  # noqa: BLE001 - reported, and the soak fails
                self.errors.append(f"{type(e).__name__}: {e}")
            time.sleep(interval)
        self.idle.set()

    def quiesce(self):
        self.paused.set()
        self.idle.clear()
        while not self.idle.wait(1):
            pass

    def resume(self):
        self.paused.clear()


# --------------------------------------------------------------------------------------------- the servers
# Memo budgets small enough that the memos fill during the warm-up and evict from then on (their defaults, 256 and
# 64 MiB, would let a server under churn grow by design for a long time before its first eviction): a server
# whose memory still grows after that leaks. The figures report each memo's entries, bytes and evictions.
MEMO_FLAGS = ["--scan-memo-mb", "2", "--result-memo-mb", "2"]
# A reply that takes longer than this is a hang (the slowest call here takes well under a second in Release).
HTTP_TIMEOUT = float(os.environ.get("SOAK_HTTP_TIMEOUT", 120))

class Stdio:
    def __init__(self, binary, env, cwd):
        self.proc = subprocess.Popen([binary, "--stdio", "--max-answer-chars", "0"] + MEMO_FLAGS, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        self.pid = self.proc.pid
        self.next_id = 0
        self.lock = threading.Lock()
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()

    def request(self, method, params):
        with self.lock:
            self.next_id += 1
            rid = self.next_id
            self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
                                   + "\n").encode())
            self.proc.stdin.flush()
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError("the stdio server closed its stdout")
                msg = json.loads(line)
                if msg.get("id") == rid:
                    return msg

    def close_local(self):
        pass

    def close(self):
        self.proc.stdin.close()
        try:
            rc = self.proc.wait(timeout=30 * SLOW)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.proc.stdout.close()
        return rc


class Http:
    def __init__(self, binary, env, cwd):
        self.proc = subprocess.Popen([binary, "--http", "--host", "127.0.0.1", "--port", "0",
                                      "--max-answer-chars", "0"] + MEMO_FLAGS, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
        self.pid = self.proc.pid
        seen, deadline = b"", time.monotonic() + 60 * SLOW
        self.port = None
        while self.port is None and time.monotonic() < deadline:
            chunk = os.read(self.proc.stderr.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
            m = re.search(rb"http://127\.0\.0\.1:(\d+)/mcp", seen)
            self.port = int(m.group(1)) if m else None
        if self.port is None:
            self.proc.kill()
            raise RuntimeError(f"the HTTP server did not start: {seen!r}")
        # Its log is drained so a full pipe never blocks it.
        threading.Thread(target=lambda: [None for _ in iter(lambda: os.read(self.proc.stderr.fileno(), 65536), b"")],
                         daemon=True).start()
        self.local = threading.local()
        self.reconnects = 0
        self.next_id = 0
        self.lock = threading.Lock()
        body = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT}},
                         init=True)
        self.version = body["result"]["protocolVersion"]
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def conn(self):
        # One keep-alive connection per client thread.
        if getattr(self.local, "c", None) is None:
            self.local.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT * SLOW)
            self.local.used = False
        return self.local.c

    def post(self, body, init=False):
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if not init:
            h["Mcp-Session-Id"] = self.session
            h["MCP-Protocol-Version"] = self.version
        for attempt in (0, 1):
            c = self.conn()
            reused = self.local.used
            try:
                c.request("POST", "/mcp", body=json.dumps(body).encode(), headers=h)
                resp = c.getresponse()
                data = resp.read()
                self.local.used = True
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected) as e:
                # The server closes a keep-alive connection idle for 60 s (SPEC §11), as a client learns when it
                # sends on it: a reused connection is opened afresh once, as HTTP clients do. The calls are
                # read-only.
                self.local.c.close()
                self.local.c = None
                if reused and attempt == 0:
                    self.reconnects += 1
                    continue
                raise RuntimeError(f"HTTP {body.get('method')}: {type(e).__name__}: {e}") from e
            except (http.client.HTTPException, OSError) as e:
                self.local.c = None
                raise RuntimeError(f"HTTP {body.get('method')} {json.dumps(body.get('params'))[:300]}: "
                                   f"{type(e).__name__}: {e}") from e
        if init:
            self.session = resp.getheader("Mcp-Session-Id")
        if resp.status == 202:
            return None
        if resp.status != 200:
            raise RuntimeError(f"HTTP {resp.status}: {data[:300]!r}")
        return json.loads(data)

    def request(self, method, params):
        with self.lock:
            self.next_id += 1
            rid = self.next_id
        return self.post({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})

    def close_local(self):
        """Closes this thread's connection (a churn client's thread ends after its phase)."""
        if getattr(self.local, "c", None) is not None:
            self.local.c.close()
            self.local.c = None

    def close(self):
        self.close_local()
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30 * SLOW)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        return rc


def sample(pid):
    """(RSS in KiB, open descriptors) of a process, from /proc."""
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


# ----------------------------------------------------------------------------------------------- the calls
def call_list(tools, live_ids, recover_file):
    """Every read-only tool the stdio server lists, with argument sets; sessions named are live ones."""
    a, b = (live_ids + live_ids)[:2] if live_ids else (None, None)
    calls = [
        ("list", {}), ("list", {"targets": ["@" + a]}), ("list", {"max_count": 3}),
        ("search", {"pattern": "error"}), ("search", {"pattern": "soak", "count_only": True}),
        ("search", {"pattern": "", "label": ["user.message"], "count_only": True}),
        ("search", {"pattern": "zanzibar|Traceback", "sessions_with_matches": True}),
        ("search", {"pattern": "RÉSUMÉ", "ignore_case": True}),
        ("search", {"pattern": "ſtraße", "ignore_case": True}),
        ("search", {"pattern": "lorem", "targets": ["@" + a], "max_count": 2}),
        ("search", {"pattern": "deploy", "count_by": "session"}), ("search", {"pattern": "soak answer", "raw": True}),
        ("search", {"pattern": "Write", "label": ["agent.tool.use"], "count_only": True}),
        ("search", {"pattern": "EACCES"}), ("search", {"pattern": "a", "label_not": ["user.message"],
                                                        "count_only": True}),
        ("show", {"targets": ["@" + a], "turn": "-2.."}), ("show", {"targets": ["@" + b], "line": ["-3.."],
                                                                     "raw": True}),
        ("show", {"targets": ["@" + b], "turn": "-1"}),
        ("stats", {}), ("stats", {"targets": ["@" + a]}), ("stats", {"cost_by": "day"}),
        ("agents", {}), ("agents", {"targets": ["@" + b], "returned_message": True}),
        ("whoami", {"marker": "SoakMarkerWord4821"}), ("whoami", {"self": "@trap:SoakMarkerWord4821"}),
        ("files", {}), ("files", {"by": "file"}), ("files", {"targets": ["@" + a], "by": "timeline"}),
        ("recover", {"file": recover_file, "coverage": True}), ("recover", {"file": recover_file, "salvage": True}),
        ("plan", {}), ("verbatim", {"targets": ["@" + a]}), ("verbatim", {"targets": ["@" + b], "budget": 4000}),
        ("image", {}), ("status", {"targets": ["@" + a]}), ("status", {"targets": ["@" + b]}),
        ("sessions_list", {}), ("sessions_status", {}), ("sessions_digest", {"refs": ["claude-code:" + a]}),
        ("search", {"pattern": "soak prompt", "format": "text"}), ("show", {"targets": ["@" + a], "format": "text"}),
        ("list", {"format": "text"}),
    ]
    schemas = {t["name"]: t for t in tools}
    out, covered = [], set()
    for name, args in calls:
        if name not in schemas or name in NOT_CALLED:
            continue
        props = schemas[name]["inputSchema"].get("properties", {})
        if any(k not in props for k in args if k != "format"):
            continue
        args = dict(args)
        args.setdefault("format", "json")
        if args["format"] == "text":
            del args["format"]
        if "max_chars" in props:
            args["max_chars"] = BIG
        out.append((name, args))
        covered.add(name)
    readonly = {t["name"] for t in tools if t.get("annotations", {}).get("readOnlyHint")} - NOT_CALLED
    missing = sorted(readonly - covered)
    return out, missing


def normalised(tool, text, stderr_text=""):
    """What is compared of one answer: an envelope (header, rows, summary minus EXCLUDED) when the text is one,
    else the text with spellings replaced; and the notes."""
    for db in STATE_DBS:
        text = text.replace(db, "<state_db>")
    text = WAITED_MS.sub(lambda m: re.sub(r"\d+", "N", m.group(0)), text)
    stderr_text = WAITED_MS.sub(lambda m: re.sub(r"\d+", "N", m.group(0)), stderr_text)
    try:
        objs = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
        if len(objs) >= 2 and objs[0].get("kind") == "header" and objs[-1].get("kind") == "summary":
            for key in EXCLUDED:
                where, field = key.split(".", 1)
                for obj in {"summary": objs[-1:], "header": objs[:1], "row": objs[1:-1]}[where]:
                    obj.pop(field, None)
            body = json.loads(spelling_free(json.dumps(timeless(objs, tool), sort_keys=True), tool))
        else:
            body = spelling_free(text, tool)
    except ValueError:
        body = spelling_free(text, tool)
    return {"body": body, "notes": spelling_free(stderr_text.strip(), tool)}


def mcp_answer(server, tool, args):
    msg = server.request("tools/call", {"name": tool, "arguments": args})
    if "result" not in msg:
        return None, msg
    r = msg["result"]
    texts = [c["text"] for c in r.get("content", []) if c.get("type") == "text"]
    return r, texts


def cli_flags(tool, args):
    """test_cli_parity's flags, with a list argument given as its flag repeated."""
    lists = {k: v for k, v in args.items() if isinstance(v, list) and k not in positional_properties(tool)}
    flags = parity_flags(tool, {k: v for k, v in args.items() if k not in lists})
    for k, v in lists.items():
        for item in v:
            flags += ["--" + k.replace("_", "-"), str(item)]
    return flags


def cli_answer(binary, env, cwd, tool, args, scrub=False):
    p = subprocess.run([binary, "--cli", tool] + cli_flags(tool, args) + (["--scrub"] if scrub else []),
                       capture_output=True, env=env, cwd=cwd, timeout=300 * SLOW)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 2:
        err = re.sub(r"Run `csift-mcp --cli \w+ --help` for usage\.\n$", "", err)
    return p.returncode, out, err


def first_difference(a, b, path=""):
    """The first place two JSON values differ, as 'path: a != b' (shortened)."""
    if type(a) is not type(b):
        return f"{path}: {json.dumps(a)[:300]} != {json.dumps(b)[:300]}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                return first_difference(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}/{k}")
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}/{i}")
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
    elif a != b:
        return f"{path}: {json.dumps(a)[:300]} != {json.dumps(b)[:300]}"
    return None


def compare(tool, r, texts, rc, out, err):
    """None when the MCP answer and the CLI's agree; else a description of the difference."""
    if r is None:
        return f"JSON-RPC error: {json.dumps(texts)[:300]}"
    if r.get("isError") != (rc != 0):
        return f"isError {r.get('isError')} but CLI exit {rc}: {texts[:1]!r} / {err[:300]!r}"
    printed = out if out.strip() else ""
    if rc != 0 and not printed:
        # A refused call: the CLI's message on stderr is the MCP text.
        mcp = normalised(tool, texts[0] if texts else "")
        cli = normalised(tool, err)
        return None if mcp == cli else f"error text differs:\n  mcp {mcp!r:.600}\n  cli {cli!r:.600}"
    if not printed:
        # Nothing on stdout: MCP's notes come first, alone.
        mcp = normalised(tool, "", texts[0] if texts else "")
        cli = normalised(tool, "", err)
    else:
        mcp = normalised(tool, texts[0] if texts else "", texts[1] if len(texts) > 1 else "")
        cli = normalised(tool, out, err if rc == 0 else "")
    if mcp == cli:
        return None
    return Difference(f"answers differ (mcp != cli) at {first_difference(mcp, cli)}", mcp, cli)


class Difference(str):
    """A mismatch's description, carrying both normalised answers for keep_mismatch."""

    def __new__(cls, text, mcp, cli):
        obj = super().__new__(cls, text)
        obj.answers = {"mcp": mcp, "cli": cli}
        return obj


def keep_mismatch(tmp, n, server, tool, args, diff, client, cli):
    """With SOAK_KEEP=<dir>: the still store of a mismatch copied there (the writer is quiesced), to replay the
    call on a fresh server and the CLI; a soak finds what no scripted test thought of."""
    keep = os.environ.get("SOAK_KEEP")
    if not keep:
        return
    dst = os.path.join(keep, f"mismatch-{n}")
    shutil.copytree(tmp, dst, symlinks=True, ignore=shutil.ignore_patterns("*.db*"), dirs_exist_ok=True)
    # The same call again on the same server: a persistent difference is a remembered result, a passing one a
    # race inside the first call.
    r, again = mcp_answer(client, tool, args)
    per_session = {}
    if tool == "search" and "count_by" not in args:
        # Which transcript differs: the same count by session, from the same still store.
        by = dict({k: v for k, v in args.items() if k not in ("count_only", "sessions_with_matches")},
                  count_by="session")
        r, texts = mcp_answer(client, tool, by)
        rc, out, err = cli(by)
        per_session = {"mcp": texts, "cli": out}
    with open(os.path.join(dst, "call.json"), "w") as f:
        json.dump({"server": server, "tool": tool, "args": args, "diff": str(diff),
                   "answers": getattr(diff, "answers", None), "per_session": per_session,
                   "again_same_as_first": normalised(tool, again[0] if again else "",
                                                     again[1] if again and len(again) > 1 else "")
                   == (getattr(diff, "answers", None) or {}).get("mcp")}, f, indent=1)


def first_write_path(binary, env, cwd):
    p = subprocess.run([binary, "--cli", "files", "--by", "file", "--format", "json"], capture_output=True,
                       env=env, cwd=cwd, timeout=300 * SLOW)
    for ln in p.stdout.decode().splitlines()[1:-1]:
        row = json.loads(ln)
        if row.get("path"):
            return row["path"]
    return "/home/soak/soak/file0.txt"


# ------------------------------------------------------------------------------------------------- the soak
def prime(stdio, http_server, http_tools, calls):
    """Calls every argument set once on both servers before the clock starts, so that the warm-up meets every
    tool's working set. Without it a short run met some tools for the first time after the warm-up sample: the
    suite's 20 s run compares the argument sets in order and reaches about half of them, and under a loaded
    `ctest -j2` its warm-up held a round or two, so the later rounds' first calls to other tools read as growth
    (stdio 75 -> 93 MB against a 91 MB bound, twice in about ten runs; a rerun alone passed)."""
    def prime_one(server, names):
        for tool, args in calls:
            if tool in names and tool not in STATE_WRITING:
                server.request("tools/call", {"name": tool, "arguments": args})
        server.close_local()
    both = [threading.Thread(target=prime_one, args=(stdio, {t for t, _ in calls})),
            threading.Thread(target=prime_one, args=(http_server, http_tools))]
    for t in both:
        t.start()
    for t in both:
        t.join()


def soak(binary, seconds, seed=36, churn_seconds=0.75, compares_per_round=6, writer_interval=0.004,
         cover_all=True, rss_flat=True):
    """Runs the soak for `seconds` (and, with cover_all, at least until every argument set was compared once);
    returns its figures (a dict; "ok" says whether it passed). rss_flat=False: resident memory is sampled and
    reported but not judged (a sanitizer build, whose allocator keeps freed memory quarantined and resident)."""
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix="csift-soak-")
    fig = {"seconds": seconds, "calls": 0, "churn_calls": 0, "compared": 0, "mismatches": 0, "bad_replies": 0,
           "rounds": 0, "mismatch_details": [], "bad_reply_details": []}
    servers = []
    try:
        home, live = build_store(tmp, rng)
        base = dict(os.environ, CLAUDE_CONFIG_DIR=home, TZ="UTC", CSIFT_CONFIG=os.path.join(tmp, "no-config.toml"))
        base.pop("CSIFT_MCP_TOKEN", None)
        base.pop("CLAUDE_CODE_SESSION_ID", None)
        server_env = dict(base, CSIFT_STATE_DB=os.path.join(tmp, "state-server.db"))
        cli_env = dict(base, CSIFT_STATE_DB=os.path.join(tmp, "state-cli.db"))
        STATE_DBS[:] = [server_env["CSIFT_STATE_DB"], cli_env["CSIFT_STATE_DB"]]
        http_env = dict(base, CSIFT_STATE_DB=os.path.join(tmp, "state-http.db"))
        cwd = tmp
        stdio = Stdio(binary, server_env, cwd)
        servers.append(stdio)
        http_server = Http(binary, http_env, cwd)
        servers.append(http_server)
        tools = stdio.request("tools/list", {})["result"]["tools"]
        http_tools = {t["name"] for t in http_server.request("tools/list", {})["result"]["tools"]}
        writer = Writer(live, rng)
        live_ids = [os.path.basename(p)[:-6] for p in writer.logs()]
        rng.shuffle(live_ids)
        # Sessions that the writer never deletes are the named targets (a deleted one is an error on every side,
        # which is compared too, but the tools' answers are the point).
        calls, missing = call_list(tools, live_ids[:2], first_write_path(binary, cli_env, cwd))
        if missing:
            raise RuntimeError(f"read-only tools the soak does not call: {missing}")
        fig["tools_called"] = sorted({t for t, _ in calls})
        fig["argument_sets"] = len(calls)
        samples = {"stdio": [sample(stdio.pid)], "http": [sample(http_server.pid)]}
        prime(stdio, http_server, http_tools, calls)
        thread = threading.Thread(target=writer.run, args=(writer_interval,), daemon=True)
        thread.start()
        start = time.monotonic()
        # Warm-up: the first third of the run (at least its first round). The post-warm-up value is the highest
        # sample taken in it: the level the memos and allocator arenas reached while the pool's files were first
        # read at their various sizes.
        # A short run (the suite's 20 s) takes its first half, sampled every 2 s: its first third held one sample
        # after the start, taken at 5 s, before the memos and the allocator's arenas had met the larger files (a
        # local run judged 31 -> 43 MB as growth; 120 s runs plateau at 40-50 MB).
        short = seconds < 60
        warm_until = start + (seconds / 2 if short else seconds / 3)
        sample_every = 2 if short else 5
        warm = None
        next_sample = start + sample_every
        cursor = 0

        def churn_client(server, names):
            r = random.Random(rng.random())
            pool = [(t, a) for t, a in calls if t in names and t not in STATE_WRITING]
            end = time.monotonic() + churn_seconds
            while time.monotonic() < end:
                tool, args = r.choice(pool)
                try:
                    msg = server.request("tools/call", {"name": tool, "arguments": args})
                except Exception as e:  # noqa: BLE001
                    msg = {"error": f"{type(e).__name__}: {e}"}
                fig["churn_calls"] += 1
                res = msg.get("result")
                if res is None or (res.get("isError") and "internal" in json.dumps(res).lower()):
                    fig["bad_replies"] += 1
                    fig["bad_reply_details"].append(f"{tool} {args}: {json.dumps(msg)[:400]}")
            server.close_local()

        def compare_one(server, tool, args, scrub):
            r, texts = mcp_answer(server, tool, args)
            # HTTP always scrubs (SPEC §13.4): its CLI twin is asked with scrub on.
            rc, out, err = cli_answer(binary, cli_env, cwd, tool, args, scrub=scrub)
            return compare(tool, r, texts, rc, out, err)

        pool = concurrent.futures.ThreadPoolExecutor(2)
        # Until the time is up, and at least until every argument set was compared once.
        while time.monotonic() - start < seconds or (cover_all and cursor < len(calls)):
            # Churn: the writer runs, both servers answer at once.
            writer.resume()
            clients = [threading.Thread(target=churn_client, args=(stdio, {t["name"] for t in tools})),
                       threading.Thread(target=churn_client, args=(http_server, http_tools))]
            for c in clients:
                c.start()
            for c in clients:
                c.join()
            # Quiesce: compare a slice of the call list on both servers with the CLI.
            writer.quiesce()
            for _ in range(compares_per_round):
                tool, args = calls[cursor % len(calls)]
                cursor += 1
                targets = [("stdio", stdio)] + ([("http", http_server)] if tool in http_tools else [])
                # The two servers' comparisons run side by side (the store is still; each has its own CLI run).
                for name, diff in pool.map(lambda t: (t[0], compare_one(t[1], tool, args, t[0] == "http")), targets):
                    fig["calls"] += 2
                    fig["compared"] += 1
                    if diff:
                        fig["mismatches"] += 1
                        fig["mismatch_details"].append(f"[{name}] {tool} {json.dumps(args)}: {diff}")
                        keep_mismatch(tmp, fig["mismatches"], name, tool, args, diff,
                                      dict(targets)[name], lambda a: cli_answer(binary, cli_env, cwd, tool, a,
                                                                                scrub=name == "http"))
            fig["rounds"] += 1
            t = time.monotonic()
            if t >= next_sample or (warm is None and t >= warm_until):
                for name, s in (("stdio", stdio), ("http", http_server)):
                    samples[name].append(sample(s.pid))
                next_sample = t + sample_every
            if warm is None and t >= warm_until:
                warm = {name: (max(r for r, _ in samples[name][1:]), max(f for _, f in samples[name][1:]))
                        for name in samples}
        pool.shutdown()
        writer.stop.set()
        writer.resume()
        thread.join()
        end = {"stdio": sample(stdio.pid), "http": sample(http_server.pid)}
        for name, s in (("stdio", stdio), ("http", http_server)):
            r, texts = mcp_answer(s, "stats", {"format": "json", "max_chars": BIG})
            summary = json.loads(texts[0].splitlines()[-1]) if r and texts else {}
            r, texts = mcp_answer(s, "search", {"pattern": "soak", "count_only": True, "format": "json"})
            summary.update(json.loads(texts[0].splitlines()[-1]) if r and texts else {})
            fig[f"{name}_memos"] = {k: summary.get(k) for k in ("scan_memo", "result_memo")}
        if warm is None:
            warm = end
        fig["writer_ops"] = dict(sorted(writer.ops.items()))
        fig["writer_errors"] = writer.errors
        fig["cursor_wraps"] = cursor // len(calls)
        flat = True
        for name in ("stdio", "http"):
            peak = max(s[0] for s in samples[name] + [end[name], warm[name]])
            fig[name] = {**fig.get(name, {}), "rss_kib_start": samples[name][0][0], "rss_kib_warm": warm[name][0],
                         "rss_kib_samples": [r for r, _ in samples[name]] + [end[name][0]],
                         "rss_kib_end": end[name][0], "rss_kib_peak": peak,
                         "fds_start": samples[name][0][1], "fds_warm": warm[name][1], "fds_end": end[name][1]}
            # Flat: the end within RSS_SLACK of the post-warm-up value, and no descriptor more than after warm-up.
            rss_ok = not rss_flat or end[name][0] <= warm[name][0] * (1 + RSS_SLACK_FRACTION) + RSS_SLACK_KIB
            fig[name]["rss_judged"] = rss_flat
            fds_ok = end[name][1] <= warm[name][1] + FD_SLACK
            fig[name]["flat"] = rss_ok and fds_ok
            flat = flat and rss_ok and fds_ok
        fig["flat"] = flat
        rcs = [s.close() for s in servers]
        servers = []
        fig["server_exit_codes"] = rcs
        fig["http_reconnects"] = http_server.reconnects
        fig["ok"] = (fig["mismatches"] == 0 and fig["bad_replies"] == 0 and flat and not writer.errors
                     and fig["compared"] > 0 and all(rc in (0, -signal.SIGTERM) for rc in rcs))
        return fig
    finally:
        for s in servers:
            try:
                s.proc.kill()
                s.proc.wait()
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


# Flat means: at the end, resident memory at most RSS_SLACK_FRACTION + RSS_SLACK_KIB above the post-warm-up value
# (the highest sample of the first third of the run: the store's files keep changing size within their bound, so
# the memos' contents move up and down), and no more open descriptors than after warm-up plus FD_SLACK (a
# keep-alive connection may be open or not at the instant of the sample). Sampled every 5 s from /proc.
RSS_SLACK_FRACTION = 0.10
RSS_SLACK_KIB = 8 * 1024
FD_SLACK = 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.environ.get("CSIFT_MCP_BIN") or os.path.join(REPO, "build", "csift-mcp"))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", 300)))
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--server-flag", action="append", default=[],
                    help="one more flag for both servers (repeatable), e.g. --server-flag=--watch-stamps")
    a = ap.parse_args()
    MEMO_FLAGS.extend(a.server_flag)
    fig = soak(os.path.abspath(a.bin), a.seconds, seed=a.seed)
    if a.json:
        print(json.dumps(fig, indent=1))
    else:
        for k in ("seconds", "rounds", "argument_sets", "calls", "churn_calls", "compared", "mismatches",
                  "bad_replies", "writer_ops", "writer_errors", "stdio", "http", "stdio_memos", "http_memos",
                  "http_reconnects", "flat",
                  "server_exit_codes"):
            print(f"{k}: {fig.get(k)}")
        for d in fig["mismatch_details"][:20] + fig["bad_reply_details"][:20]:
            print(d)
    sys.exit(0 if fig["ok"] else 1)


if __name__ == "__main__":
    main()
