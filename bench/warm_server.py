#!/usr/bin/env python3
"""Times one long-lived `csift-mcp --stdio` server over a store: each tool call twice, the second with a
different pattern (what a warm server's memory can serve), beside `rg` over the same files in the same run.
Also the p50 of a trivial call (MCP overhead) and the server's resident memory after warming.

Usage: bench/warm_server.py --bin build/csift-mcp --store DIR [--threads 2] [--trivial-calls 20] [--fresh]
Prints Markdown rows: | case | call s | rg s | ratio |. With --fresh: a fresh server's first call with the disk
cache filled by an earlier server (sent at once, and sent once the server started and went idle: after its
warm-up), its warm repeat, a fresh server with the cache off, and the same call from
the CLI with the cache off.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time


class StdioServer:
    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(os.environ.get("SRV_ERR", os.devnull), "a"), env=env)
        self.next_id = 1
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "warm-bench", "version": "1"}})
        self.notify("notifications/initialized")

    def notify(self, method):
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                           "params": params}) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg

    def call(self, tool, args, tool_error_ok=False):
        t0 = time.perf_counter()
        msg = self.request("tools/call", {"name": tool, "arguments": args})
        dt = time.perf_counter() - t0
        res = msg.get("result", {})
        if "error" in msg or (res.get("isError") and not tool_error_ok):
            raise RuntimeError(f"{tool} {args} failed: {json.dumps(msg)[:400]}")
        return dt, res.get("structuredContent")

    def cpu_seconds(self):
        """User + system CPU time the server has used so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def wait_idle(self, quiet=1.0, limit=120.0):
        """Waits until the server used no CPU for `quiet` seconds: the work a reply left for after it (the sketches,
        the disk cache's writes) is done. A call would not do: the next call stops that work after 500 ms."""
        end = time.monotonic() + limit
        last = self.cpu_seconds()
        while time.monotonic() < end:
            time.sleep(quiet)
            now = self.cpu_seconds()
            if now == last:
                return
            last = now

    def rss_mb(self):
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                fields[k] = v.strip()
        kb = lambda k: int(fields.get(k, "0 kB").split()[0])  # noqa: E731
        return kb("VmRSS") / 1024, kb("VmHWM") / 1024

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def rg_seconds(argv, env=None):
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("SRV_ERR", os.devnull), "a"), env=env)
    return time.perf_counter() - t0


def memo_of(sc):
    summary = (sc or {}).get("summary", {})
    memo = summary.get("scan_memo")
    census = summary.get("result_memo") if "scan_memo" in summary else None
    out = ""
    if memo:
        ruled = memo.get("texts_ruled_out", 0)
        kept = f" ({ruled} ruled out by kept texts)" if ruled else ""
        out += (f" (memo: {memo.get('hits', 0)} hits, {memo.get('misses', 0)} misses, "
                f"{memo.get('rescreened', 0)} rescreened{kept}, "
                f"{memo.get('bytes_not_read', 0) / 2**20:.0f} MiB not read, "
                f"{memo.get('bytes_held', 0) / 2**20:.0f} MiB held)")
    if census and (census.get("hits") or census.get("misses")):
        out += f" (label censuses: {census.get('hits', 0)} hits, {census.get('misses', 0)} misses)"
    return out


FRESH_CASES = [
    ("search absent literal (count)", "search", {"count_only": True, "format": "json",
                                                 "pattern": "xylophonezebraquartz"},
     ["-c", "-F", "xylophonezebraquartz"], ["search", "xylophonezebraquartz", "-c"]),
    ("search -t user.message (count)", "search", {"count_only": True, "format": "json", "pattern": "",
                                                  "label": ["user.message"]}, ["-c", '"role":"user"'],
     ["search", "", "-t", "user.message", "-c"]),
    ("list", "list", {"max_count": 0, "format": "json"}, ["-c", "x"], ["list", "--max-count", "0"]),
    ("list, default page", "list", {"format": "json"}, ["-c", "x"], ["list"]),
    ("stats", "stats", {"max_count": 0, "format": "json"}, ["-c", "x"], ["stats", "--max-count", "0"]),
]


def prefix_case(files):
    """search of one session named by an 8-hex @<prefix> (SKILL.md's example form), beside rg over that
    session's files: the first session whose 8-character prefix no other session or agent id shares."""
    ids = {}
    for f in files:
        base = os.path.basename(f)[:-len(".jsonl")]
        ids.setdefault(base.removeprefix("agent-")[:8].lower(), []).append(f)
    for f in files:
        base = os.path.basename(f)[:-len(".jsonl")]
        if base.startswith("agent-") or len(base) < 8 or len(ids[base[:8].lower()]) != 1:
            continue
        lane = [g for g in files if g == f or g.startswith(f[:-len(".jsonl")] + "/")]
        target = "@" + base[:8]
        return ("search one session by @<8-hex prefix> (count)", "search",
                {"count_only": True, "format": "json", "pattern": "xylophonezebraquartz", "targets": [target]},
                ["-c", "-F", "xylophonezebraquartz"], ["search", "xylophonezebraquartz", target, "-c"], lane)
    return None


def fresh_mode(a, files, env):
    """A fresh server's first call, as Claude Code makes it (one server per session): with the disk cache
    filled by an earlier server, then a second call on that server (warm), then a fresh server with the
    cache off; rg in the same run. The cache lives in a temp XDG_CACHE_HOME, never the user's."""
    import shutil
    import tempfile
    xdg = tempfile.mkdtemp(prefix="csift-bench-xdg-")
    env = dict(env, XDG_CACHE_HOME=xdg)
    rg = ["rg", "-j", str(a.threads)]
    base = [a.bin, "--stdio", "--claude-home", a.store] + a.server_arg
    peak = 0.0

    def first_call(extra, tool, args, repeat=False, fill=False, after_idle=False):
        nonlocal peak
        server = StdioServer(base + extra, env)
        if after_idle:  # a model's first call comes seconds after the start: the warm-up has run
            time.sleep(0.3)
            server.wait_idle(quiet=0.5)
        dt, sc = server.call(tool, args)
        if fill:
            server.wait_idle()
        # The repeat sent the moment the reply arrived, then one sent once the server is idle (a model's next
        # call comes seconds later: the reply's leftover work and the watches are done by then).
        dt2 = server.call(tool, args)[0] if repeat else None
        if repeat:
            server.wait_idle()
        dt3 = server.call(tool, args)[0] if repeat else None
        # The peak is the high-water mark: it holds whatever the first call's leftover work reached.
        server.call("whoami", {"format": "json"}, tool_error_ok=True)
        peak = max(peak, server.rss_mb()[1])
        server.close()
        return dt, dt2, dt3, sc

    print("| fresh server, first call | cache s | after start idle s | repeat at once s | repeat once idle s | "
          "cache off s | cold CLI s | rg s | cache | start idle | at once | idle | off | cold CLI |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    cases = FRESH_CASES + [c for c in [prefix_case(files)] if c]
    for name, tool, args, rg_args, cli_args, *rg_files in cases:
        first_call([], tool, args, fill=True)  # fills the cache (its own time is a cold call's)
        dt, warm, idle, sc = first_call([], tool, args, repeat=True)
        started = first_call([], tool, args, after_idle=True)[0]
        off = first_call(["--disk-cache-mb", "0"], tool, args)[0]
        # The CLI with the cache off: what a cold server's first call is held to.
        cli = rg_seconds([a.bin, "--cli", *cli_args, "--disk-cache-mb", "0", "--claude-home", a.store], env)
        r = rg_seconds(rg + rg_args + (rg_files[0] if rg_files else files))
        disk = (sc or {}).get("summary", {}).get("disk_cache", {})
        print(f"| {name} (disk: {disk.get('hits', 0)} hits, {disk.get('misses', 0)} misses) | {dt:.3f} | "
              f"{started:.3f} | {warm:.3f} | {idle:.3f} | {off:.3f} | {cli:.3f} | {r:.3f} | {dt / r:.2f}x | "
              f"{started / r:.2f}x | {warm / r:.2f}x | {idle / r:.2f}x | {off / r:.2f}x | {cli / r:.2f}x |")
    cache_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(xdg) for f in fs)
    store_bytes = sum(os.path.getsize(f) for f in files)
    print()
    print(f"cache on disk: {cache_bytes / 2**20:.1f} MiB = {100 * cache_bytes / max(store_bytes, 1):.2f} % of the "
          f"store's {store_bytes / 2**20:.0f} MiB; peak server RSS: {peak:.0f} MB")
    shutil.rmtree(xdg, True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fresh", action="store_true",
                    help="time a fresh server's first call with the disk cache filled (and cache off) instead")
    ap.add_argument("--server-arg", action="append", default=[],
                    help="extra server flag, e.g. --server-arg=--scan-memo-mb=0 (the uncached baseline)")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--store", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trivial-calls", type=int, default=20)
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.store, "projects", "**", "*.jsonl"), recursive=True))
    env = dict(os.environ, CSIFT_THREADS=str(a.threads), TBB_NUM_THREADS=str(a.threads))
    if a.fresh:
        return fresh_mode(a, files, env)
    # The warm rows measure one server's memory: a disk cache left by an earlier run would make its first calls
    # warm too, so the cache is off unless --fresh.
    if not any(arg.startswith("--disk-cache") for arg in a.server_arg):
        a.server_arg = a.server_arg + ["--disk-cache-mb", "0"]
    server = StdioServer([a.bin, "--stdio", "--claude-home", a.store] + a.server_arg, env)
    rg = ["rg", "-j", str(a.threads)]
    rows = []

    def row(name, tool, args, rg_argv):
        # Each call begins on an idle server, as a model's calls come seconds apart: the work the last reply
        # left (sketches, covers) and the watches are done, and rg never runs beside that work.
        server.wait_idle()
        dt, sc = server.call(tool, args)
        server.wait_idle()
        r = rg_seconds(rg_argv + files)
        rows.append(f"| {name}{memo_of(sc)} | {dt:.3f} | {r:.3f} | {dt / r:.2f}x |")

    search = {"count_only": True, "format": "json"}
    row("search absent literal, first call (cold server)", "search",
        dict(search, pattern="xylophonezebraquartz"), rg + ["-c", "-F", "xylophonezebraquartz"])
    row("search another absent literal, second call", "search",
        dict(search, pattern="quuxzanzibarvelour"), rg + ["-c", "-F", "quuxzanzibarvelour"])
    row("search rare literal ENOSPC, third call", "search", dict(search, pattern="ENOSPC"),
        rg + ["-c", "-F", "ENOSPC"])
    # Absent too, but its 4-grams occur apart in many files: their sketches say maybe.
    row("search rare literal EACCES, fourth call", "search", dict(search, pattern="EACCES"),
        rg + ["-c", "-F", "EACCES"])
    row("search -t user.message, first label-only call", "search",
        dict(search, pattern="", label=["user.message"]), rg + ["-c", '"role":"user"'])
    row("search -t agent, second label-only call", "search",
        dict(search, pattern="", label=["agent"]), rg + ["-c", '"role":"assistant"'])
    row("list, first call", "list", {"max_count": 0, "format": "json"}, rg + ["-c", "x"])
    row("list, second call", "list", {"max_count": 0, "format": "json"}, rg + ["-c", "x"])
    row("stats, first call", "stats", {"max_count": 0, "format": "json"}, rg + ["-c", "x"])
    row("stats, second call", "stats", {"max_count": 0, "format": "json"}, rg + ["-c", "x"])
    # A trivial call: whoami answers at once (here with "no session registry row", a tool-level answer).
    trivial = [server.call("whoami", {"format": "json"}, tool_error_ok=True)[0] for _ in range(a.trivial_calls)]
    rss, hwm = server.rss_mb()
    server.close()
    print("| warm server case | call s | rg s | ratio |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(r)
    print()
    print(f"trivial call (whoami) p50 over {len(trivial)} calls: {statistics.median(trivial) * 1000:.1f} ms; "
          f"server RSS after warming: {rss:.0f} MB (peak {hwm:.0f} MB)")


if __name__ == "__main__":
    sys.exit(main())
