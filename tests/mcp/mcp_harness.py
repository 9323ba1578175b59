"""Shared helpers for the MCP protocol tests: a stdio client and an HTTP server fixture speaking raw JSON-RPC
to the built binary, a generated transcript store big enough to make a call slow, and a small JSON Schema
check. Every test here enumerates tools/list, so a tool added to the table is covered without a test edit.
"""
import fcntl
import http.client
import json
import os
import queue
import re
import select
import shutil
import subprocess
import tempfile
import threading
import time
import uuid

REPO = os.environ.get("CSIFT_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE_HOME = os.path.join(REPO, "fixtures", "home")
SESSION_VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"]
STATELESS = "2026-07-28"
SANITIZED = bool(os.environ.get("CSIFT_TEST_SANITIZED"))
# Waits scale under ASan, where everything runs several times slower.
SLOW = 4.0 if SANITIZED else 1.0


def first_session_id():
    """The first top-level session id of the fixture home, in path order."""
    for root, _, files in sorted(os.walk(os.path.join(FIXTURE_HOME, "projects"))):
        for f in sorted(files):
            if f.endswith(".jsonl") and len(f) == 42:
                return f[:-6]
    return None


def npm_ci_once(folder, lock_name, installed):
    """`npm ci` in `folder` from its committed lockfile unless every path in `installed` exists, under a lock
    (ctest runs tests at once, and a suite's two passes back to back). No npm, or an install that leaves a path
    missing, is a failure, not a skip: `make test` installs npm."""
    with open(os.path.join(tempfile.gettempdir(), lock_name), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if all(os.path.exists(p) for p in installed):
            return
        npm = shutil.which("npm")
        if not npm:
            raise AssertionError(f"npm is not installed: {folder} installs from the npm registry (package-lock.json)")
        p = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                           cwd=folder, capture_output=True, timeout=900)
        missing = [q for q in installed if not os.path.exists(q)]
        if p.returncode != 0 or missing:
            raise AssertionError(f"npm ci in {folder} left {missing} missing: {p.stderr.decode()[-3000:]}")


def binary():
    # Absolute: Claude Code spawns the server it was given from its own working directory, so a relative
    # CSIFT_MCP_BIN (measure.py's usage line) named no binary there and the server never connected.
    return os.path.abspath(os.environ.get("CSIFT_MCP_BIN") or os.path.join(REPO, "build", "csift-mcp"))


# The session triage tools and export: served to local callers only (never over HTTP); the three triage tools
# that can write the state database and export, which writes the directory it is given, say so (readOnlyHint
# false).
LOCAL_ONLY_TOOLS = ("sessions_list", "sessions_digest", "sessions_mark", "sessions_status", "export")
STATE_WRITING_TOOLS = ("sessions_digest", "sessions_mark", "sessions_status", "export")

_STATE_ROOT = []


def state_root():
    """The directory of this test process's state database (the sessions_* tools write there, never to the
    user's): one per process, shared by the server and the CLI runs it is compared with; removed at exit."""
    if not _STATE_ROOT:
        import atexit
        _STATE_ROOT.append(tempfile.mkdtemp(prefix="csift-mcp-state-"))
        atexit.register(shutil.rmtree, _STATE_ROOT[0], True)
    return _STATE_ROOT[0]


def server_env(claude_home=FIXTURE_HOME, **extra):
    env = dict(os.environ, CLAUDE_CONFIG_DIR=claude_home, TZ="UTC", CSIFT_STATE_DB=os.path.join(state_root(), "state.db"),
               CSIFT_CONFIG=os.path.join(state_root(), "no-config.toml"),
               XDG_CACHE_HOME=os.path.join(state_root(), "xdg-cache"))  # the disk cache: never the user's
    env.pop("CSIFT_MCP_TOKEN", None)
    env.update({k: str(v) for k, v in extra.items()})
    return env


def meta(version=STATELESS, **extra):
    m = {"io.modelcontextprotocol/protocolVersion": version,
         "io.modelcontextprotocol/clientInfo": {"name": "csift-tests", "version": "1"},
         "io.modelcontextprotocol/clientCapabilities": {}}
    m.update(extra)
    return m


# ------------------------------------------------------------------------------------------------ stdio
class StdioClient:
    """Runs `csift-mcp` (stdio) and reads its stdout on a thread: every line must be one JSON message."""

    def __init__(self, args=(), env=None, cwd=None, launcher=(), warm_up=False):
        # `launcher` runs the server under another process (e.g. a shell that stays its parent). The server's
        # warm-up (SPEC §7) is off unless asked for: a test whose first call comes 200 ms after the start would
        # otherwise find the memos filled or not by timing, and most tests compare memo counts.
        args = list(args) + ([] if warm_up else ["--no-warm-up"])
        self.proc = subprocess.Popen(list(launcher) + [binary()] + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env or server_env(), cwd=cwd)
        self.messages = queue.Queue()
        self.log = []  # every message in arrival order, with its arrival time
        self.bad_lines = []
        self._next_id = 1000
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                msg = json.loads(raw)
            except ValueError:
                self.bad_lines.append(raw)
                continue
            if raw.rstrip(b"\n").count(b"\n") or not raw.endswith(b"\n"):
                self.bad_lines.append(raw)
            self.log.append((time.monotonic(), msg))
            self.messages.put(msg)

    def send(self, message):
        data = message if isinstance(message, (bytes, str)) else json.dumps(message)
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def new_id(self):
        self._next_id += 1
        return self._next_id

    def request(self, method, params=None, id=None, timeout=30):
        id = self.new_id() if id is None else id
        msg = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.wait_for(lambda m: m.get("id") == id and "method" not in m, timeout)

    def wait_for(self, predicate, timeout=30):
        deadline = time.monotonic() + timeout * SLOW
        seen = [m for _, m in self.log]
        for m in seen:
            if predicate(m):
                return m
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting for a message")
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(m):
                return m

    def initialize(self, version="2025-11-25"):
        r = self.request("initialize", {"protocolVersion": version, "capabilities": {},
                                        "clientInfo": {"name": "csift-tests", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return r

    def close(self, timeout=30):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=timeout * SLOW)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(timeout=5)
        self.stderr = self.proc.stderr.read().decode("utf-8", "replace")
        self.proc.stderr.close()
        self.proc.stdout.close()
        return self.proc.returncode


# ------------------------------------------------------------------------------------------------- HTTP
class HttpServer:
    """`csift-mcp --http --port 0`; the port comes from the line it logs on stderr."""

    def __init__(self, args=(), env=None, warm_up=False):
        args = list(args) + ([] if warm_up else ["--no-warm-up"])  # as StdioClient's
        self.proc = subprocess.Popen([binary(), "--http", "--port", "0"] + list(args), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env or server_env())
        self.port = None
        # Read the descriptor itself, not the buffered file: a readline() pulls every line already in the pipe
        # into Python's buffer, and select() on the descriptor then waits for bytes that were already read --
        # the memo lines and the listening line often arrive in one write burst.
        deadline = time.monotonic() + 30 * SLOW
        seen = b""
        fd = self.proc.stderr.fileno()
        while time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                chunk = os.read(fd, 65536)
                seen += chunk
                m = re.search(rb"http://[^ ]*:(\d+)/mcp", seen)
                if m:
                    self.port = int(m.group(1))
                    break
                if not chunk:
                    break
            if self.proc.poll() is not None and not r:
                break
        if self.port is None:
            self.proc.kill()
            raise AssertionError(f"the HTTP server did not start; it wrote: {seen!r}")
        self.startup_log = seen.decode("utf-8", "replace")
        self.host = "127.0.0.1"

    def post(self, body, headers=None, session=None, raw=False, timeout=60):
        """POST /mcp; returns (status, headers dict lower-cased, parsed body or list of SSE messages)."""
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if session:
            h["Mcp-Session-Id"] = session
        h.update(headers or {})
        data = body if raw else json.dumps(body).encode()
        return self.call("POST", data, h, timeout)

    def call(self, method, data=None, headers=None, timeout=60):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout * SLOW)
        try:
            conn.request(method, "/mcp", body=data, headers=headers or {})
            resp = conn.getresponse()
            hdrs = {k.lower(): v for k, v in resp.getheaders()}
            payload = resp.read()
        finally:
            conn.close()
        return resp.status, hdrs, decode_body(hdrs, payload)

    def initialize(self, version="2025-11-25"):
        st, h, body = self.post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"protocolVersion": version, "capabilities": {},
                                            "clientInfo": {"name": "csift-tests", "version": "1"}}})
        assert st == 200, (st, body)
        sid = h.get("mcp-session-id")
        st2, _, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session=sid,
                              headers={"MCP-Protocol-Version": body["result"]["protocolVersion"]})
        assert st2 == 202, st2
        return sid, body

    def stop(self, sig=None):
        if self.proc.poll() is None:
            if sig is None:
                self.proc.terminate()
            else:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=30 * SLOW)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr = self.startup_log + self.proc.stderr.read().decode("utf-8", "replace")
        self.proc.stderr.close()
        self.proc.stdout.close()
        return self.proc.returncode


def decode_body(headers, payload):
    ctype = headers.get("content-type", "")
    if ctype.startswith("text/event-stream"):
        return parse_sse(payload.decode())
    if not payload:
        return None
    try:
        return json.loads(payload)
    except ValueError:
        return payload


def parse_sse(text):
    out = []
    for event in re.split(r"\r?\n\r?\n", text):
        data = [ln[5:].lstrip() for ln in event.splitlines() if ln.startswith("data:")]
        if data and "".join(data).strip():
            out.append(json.loads("\n".join(data)))
    return out


def stateless_headers(method, name=None, version=STATELESS):
    h = {"MCP-Protocol-Version": version, "Mcp-Method": method}
    if name is not None:
        h["Mcp-Name"] = name
    return h


# ----------------------------------------------------------------------------------------- a slow store
def make_big_store(root, projects=2, sessions=40, turns=100):
    """A Claude Code store of projects × sessions transcripts, each `turns` user/assistant pairs with real-looking
    records, so stats/list over it take long enough to cancel and to report progress."""
    filler = "lorem ipsum dolor sit amet " * 12
    for p in range(projects):
        proj = os.path.join(root, "projects", f"-home-dev-big-{p}")
        os.makedirs(proj, exist_ok=True)
        for s in range(sessions):
            sid = str(uuid.UUID(int=(p << 64) | s | (0x4000 << 48), version=4))
            lines = []
            parent = None
            for t in range(turns):
                u = str(uuid.UUID(int=(p << 96) | (s << 32) | (2 * t), version=4))
                a = str(uuid.UUID(int=(p << 96) | (s << 32) | (2 * t + 1), version=4))
                ts = f"2026-03-{1 + s % 27:02d}T{t // 60 % 24:02d}:{t % 60:02d}:00.000Z"
                lines.append(json.dumps({"parentUuid": parent, "isSidechain": False, "userType": "external",
                                         "cwd": f"/home/dev/big/{p}", "sessionId": sid, "version": "2.1.160",
                                         "type": "user", "message": {"role": "user", "content": f"q{t} {filler}"},
                                         "uuid": u, "timestamp": ts}))
                lines.append(json.dumps({"parentUuid": u, "isSidechain": False, "userType": "external",
                                         "cwd": f"/home/dev/big/{p}", "sessionId": sid, "version": "2.1.160",
                                         "type": "assistant", "uuid": a, "timestamp": ts,
                                         "message": {"model": "claude-opus-4-6", "id": f"msg_{p}_{s}_{t}",
                                                     "type": "message", "role": "assistant",
                                                     "content": [{"type": "text", "text": f"a{t} {filler}"}],
                                                     "usage": {"input_tokens": 10, "output_tokens": 20}}}))
                parent = a
            with open(os.path.join(proj, sid + ".jsonl"), "w") as f:
                f.write("\n".join(lines) + "\n")
    return root


class BigStore:
    """One generated store per test process (generation takes a moment)."""
    _root = None

    @classmethod
    def path(cls, sessions=40):
        if cls._root is None:
            cls._root = tempfile.mkdtemp(prefix="csift-mcp-big-")
            make_big_store(cls._root, sessions=sessions)
        return cls._root

    @classmethod
    def calibrated(cls, measure, at_least=1.0):
        """A store on which measure(home) (one uncancelled slow call) takes at least `at_least` seconds, so that
        a prompt cancellation is distinguishable from a finished call whatever the build type; returns
        (home, seconds)."""
        sessions = 40
        attempts = 5
        for attempt in range(attempts):
            home = cls.path(sessions)
            seconds = measure(home)
            # The last store is kept whatever it measured (removing it would leave the tests an empty home).
            if seconds >= at_least or attempt == attempts - 1:
                break
            cls.cleanup()
            sessions = int(sessions * min(8.0, 1.5 * at_least / max(seconds, 0.05)))
        return home, seconds

    @classmethod
    def cleanup(cls):
        if cls._root:
            shutil.rmtree(cls._root, ignore_errors=True)
            cls._root = None


def slow_call(tools):
    """The slowest call the table offers over a big store, as (name, arguments): a search whose one-byte pattern
    admits no prefilter (every record is parsed and matched), else stats, else list, else the first tool.
    Progress and cancellation tests run it: the issue's case is a cancelled long search."""
    names = [t["name"] for t in tools]
    for name, args in (("search", {"pattern": "e", "count_only": True}), ("stats", {"all_projects": True}),
                       ("list", {"all_projects": True})):
        if name in names:
            schema = next(t for t in tools if t["name"] == name)["inputSchema"]
            return name, {k: v for k, v in args.items() if k in schema.get("properties", {})}
    return names[0], {}


def http_slow_call_seconds(home):
    """How long slow_call takes, uncancelled, over HTTP on `home` (BigStore.calibrated's measure)."""
    s = HttpServer(env=server_env(home))
    try:
        sid, init = s.initialize()
        h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}
        tools = s.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, session=sid, headers=h)[2]
        name, args = slow_call(tools["result"]["tools"])
        t0 = time.monotonic()
        s.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": args}},
               session=sid, headers=h)
        return time.monotonic() - t0
    finally:
        s.stop()


def stdio_slow_call_seconds(home):
    """How long slow_call takes, uncancelled, over stdio on `home` (BigStore.calibrated's measure)."""
    c = StdioClient(env=server_env(home))
    try:
        c.initialize()
        name, args = slow_call(c.request("tools/list")["result"]["tools"])
        t0 = time.monotonic()
        c.request("tools/call", {"name": name, "arguments": args}, timeout=300)
        return time.monotonic() - t0
    finally:
        c.close()


def cpu_seconds(pid):
    """The CPU (user + system, every thread) a running process has used so far. Cancellation tests compare it
    before and after: a call that stops burns next to nothing, one that runs on burns a call's worth, and unlike
    a wall clock that does not grow when the machine is loaded."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------------------------------- JSON Schema
def schema_errors(instance, schema):
    """Validates with the jsonschema package (Draft 2020-12); returns a list of messages."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)]
