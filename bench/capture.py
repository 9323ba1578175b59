#!/usr/bin/env python3
"""Captures one binary's answers to a fixed set of CLI calls, one file per call, so two builds can be compared
with `diff -r` (a refactor or a cache change must leave every answer byte-identical).

The calls cover every read-only tool over the fixture homes and the real corpus laid out as a store
(tests/cli/corpus_store.py): list, stats and a spread of searches over each home, then show, agents, files,
plan, verbatim, image, recover and status on the first sessions `list` names. Each file holds the exit status,
stdout and stderr. Paths under the corpus store's temporary directory are written as <corpus>, and the ages
`status` tells as <N>s ago.

Usage: bench/capture.py BIN OUT [--cache-dir DIR]
  --cache-dir DIR: XDG_CACHE_HOME for every call (run twice with the same DIR: once filling the persisted
  cache, once reading it; both captures must be equal). Default: a new empty one.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "cli"))
from corpus_store import build_corpus_store, corpus_root  # noqa: E402

AGO = re.compile(rb"\b\d+s( ago)?\b")
FIXTURE_HOMES = ["home", "records-home", "home-compacted", "recover-home", "agents-home", "windows-home"]

SEARCHES = [
    ["error"], ["error", "-c"], ["error", "-l"], ["zzqxabsentqxzz", "-c"], ["read|write", "-c"],
    ["todo", "-i", "-c"], ["", "-t", "user.message", "-c"], ["error", "--count-by", "label"],
    ["error", "--count-by", "tool"], ["error", "--count-by", "model"], ["\\bfix", "--max-count", "3"],
    ["Bash", "-t", "agent.tool.use", "--max-count", "5"], ["test", "--siblings", "--max-count", "2"],
    ["error", "--raw", "--max-count", "2"], ["error", "--format", "json", "--max-count", "4"],
    ["a{2,}b", "-c"], ["error", "--no-subagents", "-c"], ["error", "-T", "agent.tool.result", "-c"], ["", "-t", "harness", "--count-by", "label"],
]
PER_SESSION = [
    ["show", "--line", "1", "--line", "2"], ["show", "--turn", "1"], ["agents"], ["files"], ["plan"],
    ["verbatim"], ["image"], ["recover", "--coverage", "--file", "@plan"], ["status"], ["stats"], ["files", "--by", "timeline"],
]


def run(bin_path, args, env, out_path, corpus_dir):
    proc = subprocess.run([bin_path, "--cli", *args], capture_output=True, env=env, timeout=600)
    text = b"exit %d\n--- stdout\n%s--- stderr\n%s" % (proc.returncode, proc.stdout, proc.stderr)
    if corpus_dir:
        text = text.replace(corpus_dir.encode(), b"<corpus>")
    text = AGO.sub(b"<N>s\\1", text)  # status tells ages and durations up to now
    with open(out_path, "wb") as f:
        f.write(text)
    return proc


def first_sessions(bin_path, home, env, n):
    proc = subprocess.run([bin_path, "--cli", "list", "--format", "json", "--claude-home", home],
                          capture_output=True, env=env, timeout=600)
    ids = []
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if row.get("kind") == "session" and not row.get("is_subagent"):
            ids.append(row["session_id"])
    return ids[:n]


def capture_home(bin_path, name, home, env, out, corpus_dir=""):
    calls = [["list"], ["list", "--format", "json"], ["list", "--max-count", "3"], ["stats"],
             ["stats", "--cost-by", "day"], ["stats", "--cost-by", "project"]]
    calls += [["search", *s] for s in SEARCHES]
    for sid in first_sessions(bin_path, home, env, 3):
        calls += [[c[0], "@" + sid, *c[1:]] for c in PER_SESSION]
    for i, call in enumerate(calls):
        run(bin_path, [*call, "--claude-home", home], env, os.path.join(out, "%s-%03d-%s.txt" % (name, i, call[0])),
            corpus_dir)
    return len(calls)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin")
    ap.add_argument("out")
    ap.add_argument("--cache-dir")
    args = ap.parse_args()
    bin_path = os.path.abspath(args.bin)
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, TZ="UTC")
    if args.cache_dir:
        env["XDG_CACHE_HOME"] = os.path.abspath(args.cache_dir)
    else:
        env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="csift-capture-")
    os.chdir(REPO)
    total = 0
    for name in FIXTURE_HOMES:
        total += capture_home(bin_path, name, os.path.join("fixtures", name), env, args.out)
    with tempfile.TemporaryDirectory(prefix="csift-capture-corpus-") as tmp:
        build_corpus_store(corpus_root(), tmp)
        total += capture_home(bin_path, "corpus", tmp, env, args.out, corpus_dir=tmp)
    print("%d calls captured in %s" % (total, args.out))


if __name__ == "__main__":
    main()
