#!/usr/bin/env python3
"""Builds a real-shaped Claude Code store from ../shared/corpus: the corpus laid out as a store (the layout the
CLI tests use, tests/cli/corpus_store.py), then copied N times under fresh session ids until it reaches the size
asked for. Every uuid that names a file or folder is replaced by a fresh one in names and in file contents, so
each replica is a distinct set of sessions with the corpus's shape: thousands of small subagent files beside a
few large sessions, old and new layouts, forks and sidechains.

Each file's mtime is its last record's timestamp, as Claude Code leaves it (it appends each record as it is
made): copies stamped with the moment they were written made every session look active in the last day, and
a server keeps more for such a file (a `stats` tally keeps the fold an append resumes from), which no real
store of weeks of sessions shows. `--restamp DIR` applies that to a store built before.

Usage: bench/corpus_replicas.py --out DIR [--size-mb 1024] [--seed 7]
       bench/corpus_replicas.py --restamp DIR
"""
import datetime
import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cli"))
from corpus_store import build_corpus_store, corpus_root  # noqa: E402

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def store_files(projects):
    for dirpath, _dirs, files in os.walk(projects, followlinks=True):
        for fn in files:
            yield os.path.join(dirpath, fn)


def last_record_time(data):
    """The epoch seconds of the last `"timestamp":"…Z"` in a transcript's bytes, or None."""
    at = data.rfind(b'"timestamp":"')
    if at < 0:
        return None
    end = data.find(b'"', at + 13)
    try:
        text = data[at + 13:end].decode("ascii").replace("Z", "+00:00")
        return datetime.datetime.fromisoformat(text).timestamp()
    except (UnicodeError, ValueError):
        return None


def stamp_like_claude_code(path, data):
    t = last_record_time(data)
    if t is not None:
        os.utime(path, (t, t))


def restamp(store):
    n = 0
    for f in store_files(os.path.join(store, "projects")):
        if f.endswith(".jsonl"):
            with open(f, "rb") as fh:
                fh.seek(max(0, os.path.getsize(f) - (1 << 20)))
                stamp_like_claude_code(f, fh.read())
            n += 1
    print(f'{{"restamped": {n}}}')


def replicate(projects, out_projects, k, rng):
    """One copy of every project under `<project>-r<k>`, named uuids replaced by fresh ones."""
    files = sorted(store_files(projects))
    names = set()
    for f in files:
        names.update(UUID.findall(os.path.relpath(f, projects)))
    fresh = {u: str(uuid.UUID(int=rng.getrandbits(128), version=4)) for u in sorted(names)}
    swap = (lambda m: fresh.get(m.group(0), m.group(0)))
    written = 0
    for f in files:
        rel = os.path.relpath(f, projects)
        project, rest = rel.split(os.sep, 1)
        dst = os.path.join(out_projects, f"{project}-r{k}", UUID.sub(swap, rest))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(f, "rb") as src:
            data = src.read()
        try:
            data = UUID.sub(swap, data.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        except UnicodeError:
            pass  # keep bytes that do not round-trip as they are
        with open(dst, "wb") as out:
            out.write(data)
        stamp_like_claude_code(dst, data)
        written += len(data)
    return written, len(files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--restamp", metavar="DIR", help="stamp an existing store's transcripts; build nothing")
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if a.restamp:
        return restamp(a.restamp)
    if not a.out:
        ap.error("--out DIR is required (or --restamp DIR)")
    root = corpus_root()
    if root is None:
        sys.exit("corpus not found at ../shared/corpus")
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="csift-corpus-layout-")
    try:
        build_corpus_store(root, tmp)
        out_projects = os.path.join(a.out, "projects")
        os.makedirs(out_projects, exist_ok=True)
        total = files = k = 0
        while total < a.size_mb << 20:
            n, f = replicate(os.path.join(tmp, "projects"), out_projects, k, rng)
            total, files, k = total + n, files + f, k + 1
        print(f'{{"out": "{a.out}", "replicas": {k}, "files": {files}, "bytes": {total}}}')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
