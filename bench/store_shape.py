#!/usr/bin/env python3
"""Measures the shape of a store (for bench/README.md): line-length percentiles, record-type shares, the share of
user records that are tool-result carriers, file sizes. Reads every .jsonl under <store>/projects once.

Record type is the first `"type":"..."` of the line (the generator writes the top-level type before any nested
one) and a carrier is a user record containing `"type":"tool_result"`; both are byte checks, exact for
gen_corpus.py output. Usage: bench/store_shape.py bench/out/store-1024m
"""
import collections
import os
import re
import sys

TYPE = re.compile(rb'"type":"([a-z_-]+)"')


def main():
    root = os.path.join(sys.argv[1], "projects")
    if not os.path.isdir(root):  # any directory of .jsonl files (e.g. a real corpus)
        root = sys.argv[1]
    lengths = []
    types = collections.Counter()
    carriers = blank = files = total = 0
    sizes = []
    for d, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".jsonl"):
                continue
            path = os.path.join(d, name)
            files += 1
            sizes.append(os.path.getsize(path))
            with open(path, "rb") as f:
                for line in f:
                    total += len(line)
                    body = line.rstrip(b"\n")
                    if not body.strip():
                        blank += 1
                        continue
                    lengths.append(len(body))
                    m = TYPE.search(body)
                    t = m.group(1).decode() if m else "?"
                    types[t] += 1
                    if t == "user" and b'"type":"tool_result"' in body:
                        carriers += 1
    lengths.sort()
    n = len(lengths)

    def pct(p):
        return lengths[min(n - 1, int(p / 100 * n))]

    sizes.sort()
    print(f"files {files}, bytes {total} ({total / 2**20:.0f} MiB), records {n}, blank lines {blank}")
    print(f"file size: median {sizes[len(sizes) // 2] / 2**20:.2f} MiB, max {sizes[-1] / 2**20:.1f} MiB")
    print(f"line length bytes: p50 {pct(50)}, p90 {pct(90)}, p99 {pct(99)}, max {lengths[-1]}")
    for t, c in types.most_common():
        print(f"type {t}: {c} ({100 * c / n:.1f} %)")
    print(f"user records that are tool_result carriers: {carriers} of {types['user']} "
          f"({100 * carriers / max(types['user'], 1):.1f} %)")


if __name__ == "__main__":
    main()
