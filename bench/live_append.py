#!/usr/bin/env python3
"""Searches after appends to one live session: how much of a grown transcript a warm server reads again.

A temporary store holds one session made of SOURCE repeated REPEAT times (a large session with synthesized
text, so the server remembers it by a rendered cover). Per build: one stdio server, two absent-word searches
(the first builds the cover) and two label-only counts (the first takes the label census), then ROUNDS rounds
of appending one user line, searching another absent word and counting under another label filter.
Prints each round's call times and the scan memo's and result memo's counters.

Usage: bench/live_append.py --source FILE.jsonl [--repeat 40] [--rounds 3] BIN [BIN ...]
"""
import argparse
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from warm_server import StdioServer  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--repeat", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("bins", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="csift-live-append-")
    try:
        home = os.path.join(tmp, ".claude")
        project = os.path.join(home, "projects", "-live")
        os.makedirs(project)
        sid = os.path.basename(a.source)[:-len(".jsonl")]
        path = os.path.join(project, sid + ".jsonl")
        with open(path, "wb") as out, open(a.source, "rb") as src:
            data = src.read()
            for _ in range(a.repeat):
                out.write(data)
        env = dict(os.environ, CSIFT_THREADS=str(a.threads))
        for b in a.bins:
            server = StdioServer([b, "--stdio", "--claude-home", home], env)
            args = {"count_only": True, "format": "json"}

            def search(word):
                dt, sc = server.call("search", dict(args, pattern=word))
                memo = sc["summary"].get("scan_memo", {})
                return dt, {k: memo.get(k) for k in ("hits", "appended", "covers_built")}

            def count(labels):
                dt, sc = server.call("search", dict(args, pattern="", label=labels))
                memo = sc["summary"].get("result_memo", {})
                return dt, {k: memo.get(k) for k in ("hits", "extended", "misses")}

            search("zzfirstabsent")
            search("zzsecondabsent")
            count(["user.message"])
            count(["agent"])
            rounds, counts = [], []
            for i in range(a.rounds):
                line = {"type": "user", "uuid": f"live-{len(rounds)}-{os.getpid()}-{b[-8:]}", "parentUuid": None,
                        "sessionId": sid, "timestamp": "2026-01-02T03:04:05.000Z",
                        "message": {"role": "user", "content": f"live line {i}"}}
                with open(path, "a") as f:
                    f.write(json.dumps(line) + "\n")
                rounds.append(search(f"zzabsent{i}"))
                counts.append(count(["user.message"] if i % 2 else ["agent.tool.use"]))
            server.close()
            print(f"{b} ({os.path.getsize(path)} bytes):")
            print("  search:", ", ".join(f"{dt:.3f} s {memo}" for dt, memo in rounds))
            print("  label count:", ", ".join(f"{dt:.3f} s {memo}" for dt, memo in counts))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
