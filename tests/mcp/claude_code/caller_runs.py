"""Does whoami name its caller on the first call? N fresh conversations per transport with Claude Code (the pinned
version) and the scripted model: each registers a fresh server (stdio: spawned by Claude Code; HTTP: started
here), loads whoami through ToolSearch and calls it with no argument as its first csift call, then spawns a
subagent (Agent, in the foreground) whose own first csift call is whoami too. Counts how many answers name the
calling transcript (the session; the subagent's lane, is_subagent true, under that session) and reports how
long the server waited for the calling tool_use to land (summary.caller_call.waited_ms). Not a test: it
asserts nothing, it prints Markdown.

Usage: CSIFT_MCP_BIN=build/csift-mcp python3 tests/mcp/claude_code/caller_runs.py [--runs N] [--transport stdio|http]
"""
import argparse
import re
import statistics
import sys
import time
import uuid

from claude_code import VERSION, Home, converse, ensure_installed
from mcp_harness import HttpServer, server_env
from scripted_api import result_text, tool_results, tool_use_id

LANE_KEY = "LanternLaneOrchid5281"


def select(names):
    return {"content": [{"type": "tool_use", "name": "ToolSearch",
                         "input": {"query": "select:" + ",".join("mcp__csift__" + n for n in names)}}]}


def whoami_step():
    return {"content": [{"type": "tool_use", "name": "mcp__csift__whoami", "input": {}}]}


def answer(body, tid):
    """(identity, text) of the bare whoami result a request carries: what the model read (our text form, since the
    server sends Claude Code no structuredContent), parsed; identity is None for an error or no identity."""
    block = tool_results(body).get(tid) if body else None
    if not block:
        return None, "(no result)"
    text = result_text(block)
    rows = [{"session_id": m[0], "is_subagent": m[1] == "subagent", "parent_session_id": m[2] or m[0]}
            for m in re.findall(r"^session (\S+)  \((subagent|top-level) · depth \d+(?: · parent session (\S+))?\)",
                                text, re.M)]
    found = re.search(r"found by this call's own tool_use (\S+) \((?:it landed (\d+) ms|already on disk)", text)
    if block.get("is_error") or not rows or not found:
        return None, text
    return {"rows": rows, "tool_use": found.group(1),
            "caller_call": {"waited_ms": int(found.group(2) or 0), "landed_late": found.group(2) is not None}}, text


def one_run(transport):
    home = Home()
    server = None
    try:
        if transport == "stdio":
            rc, o, e, _ = home.add_stdio()
        else:
            try:
                server = HttpServer(args=["--claude-home", home.claude], env=server_env(home.claude))
            except AssertionError as e:  # say why, then try once more: one failed start is not a failed run
                print(f"HTTP server start failed ({e}); retrying", file=sys.stderr)
                server = HttpServer(args=["--claude-home", home.claude], env=server_env(home.claude))
            rc, o, e, _ = home.add_http(f"http://127.0.0.1:{server.port}/mcp")
        assert rc == 0, o + e
        sid = str(uuid.uuid4())
        steps = [select(["whoami"]), whoami_step(),
                 {"content": [{"type": "tool_use", "name": "Agent", "input": {
                     "description": "identify the lane", "prompt": f"{LANE_KEY}: which session am I?",
                     "subagent_type": "general-purpose", "run_in_background": False}}]}]
        lane = [select(["whoami"]), whoami_step()]
        api, rc, events, err, secs = converse(home, steps, sid, "Which session am I?",
                                              lanes={"sub": (LANE_KEY, lane)}, allowed="mcp__csift__* Agent")
        convo, lane_convo = api.conversation, api.lane_conversation["sub"]
        main, main_text = answer(convo[2] if len(convo) > 2 else None, tool_use_id(1, 0))
        sub, sub_text = answer(lane_convo[2] if len(lane_convo) > 2 else None, tool_use_id(1, 0, "sub"))
        main_ok = bool(main) and main["rows"][0]["session_id"] == sid and main["tool_use"] == tool_use_id(1, 0)
        sub_ok = bool(sub) and sub["rows"][0]["is_subagent"] is True and \
            sub["rows"][0]["parent_session_id"] == sid and sub["rows"][-1]["session_id"] == sid
        return {"main_ok": main_ok, "sub_ok": sub_ok, "secs": secs,
                "main_call": (main or {}).get("caller_call"),
                "sub_call": (sub or {}).get("caller_call"),
                "main_text": main_text[:120], "sub_text": sub_text[:120]}
    finally:
        if server:
            server.stop()
        home.cleanup()


def waits(rows, key):
    return [r[key]["waited_ms"] for r in rows if r.get(key)]


def spread(ms):
    if not ms:
        return "-"
    return f"{min(ms)} / {statistics.median(ms):g} / {max(ms)} ms"


class Emitted(list):
    """The report's lines, printed as they come (a long measurement that stops half way keeps what it had)."""

    def append(self, line):
        super().append(line)
        print(line, flush=True)

    def __iadd__(self, lines):
        for line in lines:
            self.append(line)
        return self


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--transport", choices=["stdio", "http"], action="append")
    args = ap.parse_args()
    ensure_installed()
    out = Emitted()
    out += [f"# whoami's first call under Claude Code {VERSION}: {args.runs} fresh conversations per transport\n"]
    summary = []
    t0 = time.monotonic()
    for transport in args.transport or ["stdio", "http"]:
        out.append(f"## {transport}\n")
        out.append("| run | session found | lane found | session: waited ms (landed late) | "
                   "lane: waited ms (landed late) | conversation s |")
        out.append("|--:|---|---|--:|--:|--:|")
        rows = []
        for r in range(args.runs):
            row = one_run(transport)
            rows.append(row)

            def cell(call):
                return f"{call['waited_ms']} ({call['landed_late']})" if call else "-"
            out.append(f"| {r + 1} | {row['main_ok']} | {row['sub_ok']} | {cell(row['main_call'])} | "
                       f"{cell(row['sub_call'])} | {row['secs']:.1f} |")
            if not row["main_ok"] or not row["sub_ok"]:
                out.append(f"|  | `{row['main_text']}` | `{row['sub_text']}` | | | |")
            print(f"{transport} run {r + 1}: session {row['main_ok']}, lane {row['sub_ok']}", file=sys.stderr)
        main_ms, sub_ms = waits(rows, "main_call"), waits(rows, "sub_call")
        late = sum(1 for r in rows for k in ("main_call", "sub_call") if r.get(k) and r[k]["landed_late"])
        line = (f"{transport}: the session in {sum(r['main_ok'] for r in rows)} of {len(rows)}, the subagent's "
                f"lane in {sum(r['sub_ok'] for r in rows)} of {len(rows)}; waited (min / median / max) "
                f"{spread(main_ms)} for the session's call, {spread(sub_ms)} for the lane's; "
                f"{late} of {len(main_ms) + len(sub_ms)} calls had not landed when they arrived")
        summary.append(line)
        out.append("\n" + line + "\n")
    out.append("## Summary\n")
    out += ["- " + s for s in summary]
    out.append(f"\n(everything {time.monotonic() - t0:.0f} s)")


if __name__ == "__main__":
    main()
