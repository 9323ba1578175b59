"""A small harness the CLI integration tests import: run `csift-mcp` (from $CSIFT_MCP_BIN), read its NDJSON
envelopes, point at the fixture store, and lay out temporary stores from corpus files by symlinks.

    import harness as h
    code, out, err = h.run_cli("list", "--claude-home", h.FIXTURE_HOME, "--format", "json")
    header, rows, summary = h.parse_envelope(out)
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.environ.get("CSIFT_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE_HOME = os.path.join(REPO, "fixtures", "home")
# Exit codes (spec v0.6.4): usage errors 2, every other error 1, success (an empty result included) 0.
EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def binary():
    """The binary under test: $CSIFT_MCP_BIN, else <repo>/build/csift-mcp."""
    return os.environ.get("CSIFT_MCP_BIN") or os.path.join(REPO, "build", "csift-mcp")


_STATE_DIR = []


def state_dir():
    """A temporary directory for the sessions_* tools' state database and config (removed at exit), so no
    test ever writes the user's."""
    if not _STATE_DIR:
        import atexit
        _STATE_DIR.append(tempfile.mkdtemp(prefix="csift-cli-state-"))
        atexit.register(shutil.rmtree, _STATE_DIR[0], True)
    return _STATE_DIR[0]


def test_env(**extra):
    """The process environment for a run: UTC so text timestamps are stable, a state database and a disk
    cache of the tests' own, plus any overrides."""
    env = dict(os.environ, TZ="UTC", CSIFT_STATE_DB=os.path.join(state_dir(), "state.db"),
               CSIFT_CONFIG=os.path.join(state_dir(), "no-config.toml"),
               XDG_CACHE_HOME=os.path.join(state_dir(), "xdg-cache"))  # the disk cache: never the user's
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run(args, stdin=None, env=None, timeout=600):
    """Runs the binary with `args`; returns (exit code, stdout text, stderr text), decoded as UTF-8 with
    replacement so a test can always print what it got."""
    p = subprocess.run([binary()] + [str(a) for a in args], input=stdin.encode("utf-8") if stdin else None,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env or test_env())
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_cli(tool, *args, stdin=None, env=None, timeout=600):
    """`csift-mcp --cli <tool> <args...>`."""
    return run(["--cli", tool, *args], stdin=stdin, env=env, timeout=timeout)


def run_json(tool, *args, **kw):
    """Runs a tool with --format json and parses its envelope; returns (code, header, rows, summary, stderr)."""
    code, out, err = run_cli(tool, *args, "--format", "json", **kw)
    header, rows, summary = parse_envelope(out)
    return code, header, rows, summary, err


def parse_ndjson(text):
    """Every non-blank line as one JSON object (raises ValueError naming the bad line)."""
    objs = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            raise ValueError(f"line {n} is not JSON ({e}): {line[:200]}") from e
    return objs


def parse_envelope(text):
    """Envelope v2: a header line first, kind-tagged rows, a summary line last. Returns (header, rows,
    summary); raises AssertionError when the shape is wrong."""
    objs = parse_ndjson(text)
    assert len(objs) >= 2, f"an envelope needs a header and a summary line, got {len(objs)}: {text[:300]!r}"
    header, rows, summary = objs[0], objs[1:-1], objs[-1]
    assert header.get("kind") == "header", f"first line is not the header: {header}"
    assert summary.get("kind") == "summary", f"last line is not the summary: {summary}"
    for row in rows:
        assert row.get("kind") not in (None, "header", "summary"), f"row without a proper kind: {str(row)[:300]}"
    return header, rows, summary


def rows_of(rows, kind):
    return [r for r in rows if r.get("kind") == kind]


class TempStore:
    """A temporary Claude Code home whose projects/ holds symlinks to existing transcript files.

        with TempStore({"-home-dev-app": [path_a, ("sub/dir/agent-x.jsonl", path_b)]}) as home: ...

    Each mapping value lists files for one project dir: a path is linked under its own base name; a
    (relative name, path) pair is linked at that relative name (for <uuid>/subagents/... layouts)."""

    def __init__(self, projects):
        self.projects = projects
        self.home = None

    def __enter__(self):
        self.home = tempfile.mkdtemp(prefix="csift-store-")
        for project, files in self.projects.items():
            for entry in files:
                name, src = entry if isinstance(entry, tuple) else (os.path.basename(entry), entry)
                dst = os.path.join(self.home, "projects", project, name)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                os.symlink(os.path.abspath(src), dst)
        return self.home

    def __exit__(self, *exc):
        shutil.rmtree(self.home, ignore_errors=True)
        return False


def build_store(projects):
    """Like TempStore but returns the home path; the caller removes it (shutil.rmtree)."""
    return TempStore(projects).__enter__()


def assert_generator_reproduces(case, script, home):
    """fixtures/<script> run into a fresh directory writes exactly the committed store at `home`, byte for byte
    (a fixture edited by hand, or a generator changed without regenerating, fails here)."""
    def files(root):
        return sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "**", "*"), recursive=True)
                      if os.path.isfile(p))

    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, os.path.join(REPO, "fixtures", script), d], check=True)
        made = files(d)
        case.assertEqual(made, files(home))
        for rel in made:
            with open(os.path.join(d, rel), "rb") as a, open(os.path.join(home, rel), "rb") as b:
                case.assertEqual(a.read(), b.read(), rel)
