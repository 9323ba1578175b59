"""Claude Code (pinned in package.json, installed from npm with `npm ci` when node_modules is missing) driven as a
real MCP client of csift-mcp: an isolated HOME, the server registered in user scope, and one `claude -p`
conversation whose model is the scripted stand-in in scripted_api.py. Shared by tests/mcp/test_claude_code.py
and measure.py.

The npm package's postinstall copies the platform binary over its bin/claude.exe placeholder; npm runs here with
--ignore-scripts, so the platform package's binary is run directly (it needs no Node at all).
"""
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # mcp_harness

from mcp_harness import binary, npm_ci_once, server_env  # noqa: E402
from scripted_api import ScriptedApi  # noqa: E402

MODULES = os.path.join(HERE, "node_modules")
with open(os.path.join(HERE, "package.json")) as _f:
    VERSION = json.load(_f)["dependencies"]["@anthropic-ai/claude-code"]


def platform_package():
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower())
    if sys.platform != "linux" or not machine:
        raise AssertionError(f"no Claude Code platform package is pinned for {sys.platform}/{platform.machine()}")
    musl = platform.libc_ver()[0] != "glibc"
    return f"claude-code-linux-{machine}" + ("-musl" if musl else "")


CLAUDE = os.path.join(MODULES, "@anthropic-ai", platform_package(), "claude")


def ensure_installed():
    """Claude Code at the pinned version, installed once from the lockfile."""
    npm_ci_once(HERE, "csift-mcp-claude-code.lock", [CLAUDE])


def csift_names(http=False):
    """The server's tool names as tools/list gives them (HTTP serves the local-only triage tools to nobody)."""
    from mcp_harness import LOCAL_ONLY_TOOLS, StdioClient
    c = StdioClient()
    try:
        names = [t["name"] for t in c.request("tools/list")["result"]["tools"]]
    finally:
        c.close()
    return [n for n in names if not (http and n in LOCAL_ONLY_TOOLS)]


# The tool surface: what the pinned Claude Code sends the model for our tools once ToolSearch has loaded them, in
# characters (name + description + input_schema as compact JSON), all tools together at most SURFACE_BUDGET. It
# sends each tools/list entry as name "mcp__<server>__<tool>", our description and our inputSchema, with every
# ellipsis character (U+2026) rewritten as '...' (measured: README.md); `type` moves first, which changes no length.
SURFACE_BUDGET = 30000


def definition_chars(name, description, input_schema):
    """Characters of one definition as the model receives it (measure.py's table and the tests count alike)."""
    return len(name) + len(description) + len(json.dumps(input_schema, ensure_ascii=False, separators=(",", ":")))


def as_sent(tool, server="csift"):
    """One tools/list entry as Claude Code sends it: (name, description, input_schema)."""
    def rewrite(v):
        if isinstance(v, str):
            return v.replace("\u2026", "...")
        if isinstance(v, dict):
            return {k: rewrite(x) for k, x in v.items()}
        if isinstance(v, list):
            return [rewrite(x) for x in v]
        return v
    return f"mcp__{server}__{tool['name']}", rewrite(tool["description"]), rewrite(tool["inputSchema"])


class Home:
    """A temporary HOME for Claude Code: ~/.claude is where it writes this conversation's transcript, and the
    server reads that same home (--claude-home), so a tool can see the live session."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="csift-claude-code-")
        self.claude = os.path.join(self.root, ".claude")
        self.work = os.path.join(self.root, "work")
        # Claude Code keeps its scratch files and its messaging socket (<tmp>/cc-socks/<pid>.sock) under TMPDIR.
        self.tmp = os.path.join(self.root, "tmp")
        for d in (self.claude, self.work, self.tmp):
            os.makedirs(d)

    def env(self, api_url):
        # A clean environment: nothing of an enclosing Claude Code session (CLAUDE_CODE_SESSION_ID, ...) or of the
        # user's (CLAUDE_CONFIG_DIR) leaks in. The stdio server inherits it, state database included.
        base = server_env(self.claude)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.root, "TZ": "UTC", "LANG": "C.UTF-8",
               "TMPDIR": self.tmp, "ANTHROPIC_BASE_URL": api_url, "ANTHROPIC_API_KEY": "sk-ant-csift-test",
               "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "NO_COLOR": "1",
               # Claude Code connects MCP servers without blocking by default (MCP_CONNECTION_NONBLOCKING unset
               # reads as true): on a loaded machine the first request can leave before the server has listed
               # its tools, and the conversation's first step then has no csift tool to call. The tests are
               # about what the model sees of a connected server, so the client waits for the connection.
               "MCP_CONNECTION_NONBLOCKING": "false",
               "CSIFT_STATE_DB": base["CSIFT_STATE_DB"], "CSIFT_CONFIG": base["CSIFT_CONFIG"]}
        for k in ("CSIFT_TEST_SANITIZED", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        return env

    def claude_cmd(self, args, api_url="http://127.0.0.1:9", timeout=120):
        t = time.monotonic()
        p = subprocess.run([CLAUDE] + list(args), env=self.env(api_url), cwd=self.work, capture_output=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        return p.returncode, out, err, time.monotonic() - t

    def add_stdio(self, name="csift", server=None, extra=()):
        return self.claude_cmd(["mcp", "add", "--scope", "user", name, "--", server or binary(), "--claude-home",
                                self.claude] + list(extra))

    def add_http(self, url, name="csift"):
        return self.claude_cmd(["mcp", "add", "--scope", "user", "--transport", "http", name, url])

    def transcripts(self):
        out = []
        for d, _, files in os.walk(os.path.join(self.claude, "projects")):
            out += [os.path.join(d, f) for f in files if f.endswith(".jsonl")]
        return sorted(out)

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


class ClaudeCodeCase(unittest.TestCase):
    """A test with Claude Code installed once per class and a fresh isolated HOME per test (self.home)."""

    @classmethod
    def setUpClass(cls):
        ensure_installed()

    def setUp(self):
        self.home = Home()
        self.started = time.monotonic()

    def tearDown(self):
        self.home.cleanup()


def converse(home, script, session_id, prompt, timeout=120, lanes=None, allowed="mcp__csift__*"):
    """One `claude -p` conversation against a scripted API; returns (api, rc, stream-json events, stderr, secs).
    `lanes` are the scripts of the subagents the conversation spawns (ScriptedApi)."""
    api = ScriptedApi(script, lanes=lanes)
    try:
        rc, out, err, secs = home.claude_cmd(
            ["-p", prompt, "--session-id", session_id, "--allowedTools", allowed, "--output-format",
             "stream-json", "--verbose"], api.url, timeout)
    finally:
        api.stop()
    events = []
    for line in out.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    return api, rc, events, err, secs


def envelope(text):
    """A tool's JSON answer as (rows, summary), whether it came as one structuredContent object or JSON lines."""
    try:
        obj = json.loads(text)
        if isinstance(obj, dict) and "summary" in obj:
            return obj.get("rows", []), obj["summary"]
    except ValueError:
        pass
    rows, summary = [], None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            if r.get("kind") == "summary":
                summary = r
            elif r.get("kind") != "header":
                rows.append(r)
    return rows, summary


TOKEN_FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def token_totals(per_model):
    """stats' tokens ({model: {field: n}}) summed over the models."""
    return {f: sum(m.get(f, 0) for m in per_model.values()) for f in TOKEN_FIELDS}


def usage_totals(usages):
    return {f: sum(u.get(f, 0) for u in usages) for f in TOKEN_FIELDS}
