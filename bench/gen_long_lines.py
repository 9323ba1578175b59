#!/usr/bin/env python3
"""Writes a tiny store whose one session holds a single agent message of N MiB of the letter 'a' (no digit,
no 'c'): the worst case for an unanchored regex, which must read the whole line to answer. Used by
`bench/run.sh --only regex` to show that pattern cost grows linearly with the line (1 MiB vs 4 MiB).

    python3 bench/gen_long_lines.py --out bench/out/long-1m --mib 1
"""
import argparse
import json
import os

SESSION = "5e5e5e5e-0000-4000-8000-00000000100a"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="store root (gets projects/-bench-long/<session>.jsonl)")
    ap.add_argument("--mib", type=int, default=1, help="size of the long line in MiB")
    ap.add_argument("--tail", default="", help="text appended after the run of 'a' (e.g. c for a{1000}c)")
    a = ap.parse_args()
    d = os.path.join(a.out, "projects", "-bench-long")
    os.makedirs(d, exist_ok=True)
    base = {"sessionId": SESSION, "cwd": "/bench/long", "version": "2.1.160", "isSidechain": False}
    user = dict(base, type="user", uuid="u1", parentUuid=None, timestamp="2026-01-01T00:00:00.000Z",
                message={"role": "user", "content": "start"})
    agent = dict(base, type="assistant", uuid="a1", parentUuid="u1", timestamp="2026-01-01T00:00:01.000Z",
                 message={"role": "assistant", "model": "claude-opus-4-6", "id": "msg_long",
                          "content": [{"type": "text", "text": "a" * (a.mib << 20) + a.tail}]})
    with open(os.path.join(d, SESSION + ".jsonl"), "w") as f:
        for r in (user, agent):
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
