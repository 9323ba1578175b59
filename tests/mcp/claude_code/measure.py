"""What Claude Code (the version package.json pins) makes of csift-mcp, measured with the scripted model of
scripted_api.py and printed as Markdown. Not a test: it asserts nothing, it reports.

1. The tool surface as Claude Code sends it to the model after ToolSearch loads it: characters per tool (name +
   description + input_schema as compact JSON), how many of them are the description repeated as
   input_schema.description, and where '…' in our text arrived as '...'.
2. Per tool: the characters of the tool_result Claude Code handed the model against our own text form of the same
   call (the text content of the very reply, read by stdio_tap.py; and `csift-mcp --cli <tool> ... --format text`,
   run as soon as the call's result has come back), with the candidate forms for a client that hands
   structuredContent to the model measured on the same replies.
3. whoami with a marker as the first csift call, over several fresh conversations: does it find its caller, and
   how long after tools/call arrives does the calling tool_use reach the transcript (stdio_tap.py)?
4. The protocol Claude Code speaks (methods, protocol version, the _meta of a tools/call), the session registry
   row it writes, and the transcript record types it wrote (per type, per attachment type).

Usage: CSIFT_MCP_BIN=build/csift-mcp python3 tests/mcp/claude_code/measure.py [--whoami-runs N]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import time
import uuid

from claude_code import VERSION, Home, converse, csift_names, definition_chars, ensure_installed
from mcp_harness import binary, server_env
from scripted_api import result_text, tool_results, tool_use_id

TAP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stdio_tap.py")
WORD = "QuillonZephyrMarsh"
MARKER = "CopperLanternMoss3917"


def calls_for(sid):
    """tool -> (MCP arguments, CLI arguments) of the same call."""
    at, ref = "@" + sid, "claude-code:" + sid
    return {
        "list": ({}, []),
        "search": ({"pattern": WORD, "targets": [at]}, [WORD, at]),
        "show": ({"targets": [at], "turn": "0"}, [at, "--turn", "0"]),
        "stats": ({"targets": [at]}, [at]),
        "whoami": ({}, []),
        "agents": ({"targets": [at]}, [at]),
        "files": ({"targets": [at]}, [at]),
        "verbatim": ({"targets": [at]}, [at]),
        "recover": ({"targets": [at], "file": "notes.txt"}, [at, "--file", "notes.txt"]),
        "plan": ({"targets": [at]}, [at]),
        "image": ({"targets": [at]}, [at]),
        "status": ({"targets": [at]}, [at]),
        "wait": ({"targets": [at], "until": ["stop"], "timeout": 1}, [at, "--until", "stop", "--timeout", "1"]),
        "sessions_list": ({}, []),
        "sessions_digest": ({"refs": [ref]}, [ref]),
        "sessions_mark": ({"refs": [ref], "outcome": "skipped"}, [ref, "--outcome", "skipped"]),
        "sessions_status": ({}, []),
        "export": ({"targets": [at], "to": "/tmp/csift-measure-export"}, [at, "--to", "/tmp/csift-measure-export"]),
    }


def add_tapped(home, log):
    return home.claude_cmd(["mcp", "add", "--scope", "user", "csift", "--", sys.executable, TAP, log, home.claude,
                            "--", binary(), "--claude-home", home.claude])


def select_step(names):
    return {"content": [{"type": "tool_use", "name": "ToolSearch",
                         "input": {"query": "select:" + ",".join("mcp__csift__" + n for n in names)}}]}


def read_log(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def compact(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v)


def call_replies(entries):
    """{tool: the server's reply to its tools/call} from the tap's log (each tool is called once)."""
    names, replies = {}, {}
    for e in entries:
        m = e.get("from_client")
        if isinstance(m, dict) and m.get("method") == "tools/call":
            names[json.dumps(m.get("id"))] = (m.get("params") or {}).get("name")
        m = e.get("from_server")
        if isinstance(m, dict) and "result" in m and json.dumps(m.get("id")) in names:
            replies[names[json.dumps(m["id"])]] = m["result"]
    return replies


TRIO = ("session_id", "is_subagent", "parent_session_id")


def lean_rows(envelope):
    """Candidate (b): the envelope's rows alone, each without the session id trio and empty values."""
    def lean(v):
        if isinstance(v, dict):
            return {k: lean(x) for k, x in v.items() if k not in TRIO and x not in (None, "", [], {}, False)}
        if isinstance(v, list):
            return [lean(x) for x in v]
        return v
    return [lean(r) for r in (envelope or {}).get("rows", [])]


def our_tools():
    from mcp_harness import StdioClient
    c = StdioClient()
    try:
        return {t["name"]: t for t in c.request("tools/list")["result"]["tools"]}
    finally:
        c.close()


def surface(out):
    """One conversation calling every tool once; returns what the later sections need."""
    home = Home()
    try:
        return surface_in(out, home)
    except BaseException:
        home.cleanup()
        raise


def surface_in(out, home):
    log = os.path.join(home.root, "tap.jsonl")
    rc, o, e, _ = add_tapped(home, log)
    assert rc == 0, o + e
    names = csift_names()
    sid = str(uuid.uuid4())
    calls = calls_for(sid)
    assert sorted(calls) == sorted(names), (sorted(calls), sorted(names))
    env = server_env(home.claude, CLAUDE_CODE_SESSION_ID=sid)
    cli_runs = {}

    def step(k):
        """Step k (1-based call k); first runs the CLI form of call k-1, whose result has just arrived, so both
        see the transcript as it was then (not the finished one)."""
        def make(_convo):
            if k > 1:
                n = names[k - 2]
                argv = [binary(), "--cli", n] + calls[n][1] + ["--format", "text", "--claude-home", home.claude]
                cli_runs[n] = subprocess.run(argv, capture_output=True, env=env, timeout=60)
            if k > len(names):
                return None  # the final answer
            n = names[k - 1]
            return {"content": [{"type": "tool_use", "name": "mcp__csift__" + n, "input": calls[n][0]}]}
        return make

    steps = [select_step(names)] + [step(k) for k in range(1, len(names) + 2)]
    api, rc, events, err, secs = converse(home, steps, sid, f"Look up {WORD} in my sessions with csift.")
    assert rc == 0, err[-3000:]
    convo = api.conversation

    # 1. Definitions, from the request after ToolSearch.
    ours = our_tools()
    sent = {t["name"][len("mcp__csift__"):]: t for t in convo[1]["tools"] if t["name"].startswith("mcp__csift__")}
    out.append(f"## Tool definitions as Claude Code {VERSION} sends them (after ToolSearch select)\n")
    out.append("| tool | chars (name+description+input_schema) | description | input_schema | "
               "of which input_schema.description = description | '…' in ours | '…' arrived | "
               "= ours with '…' → '...' |")
    out.append("|---|--:|--:|--:|--:|--:|--:|---|")
    tot = collections.Counter()
    rewritten = []
    for n in names:
        t = sent[n]
        schema = compact(t["input_schema"])
        repeated = t["input_schema"].get("description") == t["description"]
        dup = len(t["description"]) if repeated else 0
        total = definition_chars(t["name"], t["description"], t["input_schema"])
        ours_ell = sum(s.count("…") for s in strings(ours[n]))
        sent_ell = sum(s.count("…") for s in strings(t))
        if ours_ell and sent_ell < ours_ell:
            rewritten.append(n)
        tot.update(total=total, desc=len(t["description"]), schema=len(schema), dup=dup, ell=ours_ell)
        tot.update(kept=sent_ell)
        same = (t["description"] == ours[n]["description"].replace("…", "...") and
                t["input_schema"] == json.loads(compact(ours[n]["inputSchema"]).replace("…", "...")))
        out.append(f"| {n} | {total} | {len(t['description'])} | {len(schema)} | {dup} | {ours_ell} | {sent_ell} | "
                   f"{same} |")
    out.append(f"| **all {len(names)}** | **{tot['total']}** | {tot['desc']} | {tot['schema']} | {tot['dup']} | "
               f"{tot['ell']} | {tot['kept']} | |\n")
    kept = sorted({s[max(0, s.find("…") - 40):s.find("…") + 10]
                   for t in sent.values() for s in strings(t) if "…" in s})
    out.append(f"Where '…' arrived intact: {kept}\n")
    out.append(f"Tools whose '…' did not arrive as '…': {', '.join(rewritten) or 'none'}. "
               f"Our tools/list already carries the description inside inputSchema for "
               f"{sum(1 for t in ours.values() if t['inputSchema'].get('description'))} of {len(ours)} tools. "
               f"Sent keys per tool: {sorted(set(k for t in sent.values() for k in t))}.\n")

    # 2. Results handed to the model against our text form, and the candidate forms measured on the same replies.
    replies = call_replies(read_log(log))
    out.append("## Per tool: what the model was handed vs our text form\n")
    out.append("Our text form is the reply's text content (what a client that reads content hands its model); the "
               "structured form is its structuredContent as compact JSON, the string Claude Code hands the model "
               "when a result has one. Candidates for a client that hands structuredContent to the model: (b) lean "
               "rows, the envelope's rows only, each without the session id trio and empty values; (c) the text "
               "inside the structured result, `{\"text\": <our text>}`.\n")
    out.append("| tool | handed to the model | our text form | handed/text | structuredContent sent | "
               "(b) lean rows | (c) text inside | `--cli` text | is_error |")
    out.append("|---|--:|--:|--:|--:|--:|--:|--:|---|")
    tot = collections.Counter()
    for i, n in enumerate(names):
        block = tool_results(convo[i + 2]).get(tool_use_id(i + 1, 0)) if i + 2 < len(convo) else None
        if block is None:
            out.append(f"| {n} | (no result) | | | | | | | |")
            continue
        handed = result_text(block)
        reply = replies.get(n, {})
        text = "".join(c.get("text", "") for c in reply.get("content", []) if c.get("type") == "text")
        structured = reply.get("structuredContent")
        sc = len(compact(structured)) if structured is not None else 0
        lean = len(compact(lean_rows(structured))) if structured is not None else 0
        inside = len(compact({"text": text}))
        cli = cli_runs[n].stdout.decode("utf-8", "replace")
        ratio = f"{len(handed) / len(text):.2f}" if text else "-"
        tot.update(handed=len(handed), text=len(text), sc=sc, lean=lean, inside=inside, cli=len(cli))
        out.append(f"| {n} | {len(handed)} | {len(text)} | {ratio} | {sc or '-'} | {lean or '-'} | {inside} | "
                   f"{len(cli)} | {bool(block.get('is_error'))} |")
        if block.get("is_error"):
            out.append(f"|  | ↳ `{handed[:160].replace('|', '/').replace(chr(10), ' ')}` | | | | | | | |")
    out.append(f"| **all** | **{tot['handed']}** | **{tot['text']}** | "
               f"{tot['handed'] / max(tot['text'], 1):.2f} | {tot['sc']} | {tot['lean']} | {tot['inside']} | "
               f"{tot['cli']} | |")
    out.append("\n(Each CLI call runs when the next request arrives, so it sees the transcript with the call's own "
               "tool_use and tool_result, which the call itself may not have; whoami's CLI form has "
               "CLAUDE_CODE_SESSION_ID set. The CLI prints notes on stderr; MCP text carries them.)\n")
    return home, log, sid, secs, api


def protocol(out, log):
    entries = read_log(log)
    msgs = [e["from_client"] for e in entries if isinstance(e.get("from_client"), dict)]
    methods = collections.Counter(m.get("method", "(response)") for m in msgs)
    out.append("## What Claude Code sends a stdio server\n")
    first = [m.get("method") for m in msgs[:4]]
    out.append(f"- first messages: {first}")
    out.append(f"- methods: {dict(methods)}")
    versions = set()
    for m in msgs:
        p = m.get("params") or {}
        if "protocolVersion" in p:
            versions.add(p["protocolVersion"])
        v = (p.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
        if v:
            versions.add(v)
    out.append(f"- protocol versions named: {sorted(versions)}")
    call = next((m for m in msgs if m.get("method") == "tools/call"), None)
    if call:
        out.append(f"- a tools/call's params: `{compact(call['params'])[:600]}`")
    arrival = [e["toolUseId_in_transcript_on_arrival"] for e in entries if "toolUseId_in_transcript_on_arrival" in e]
    delays = sorted(e["tool_use_in_transcript_ms"] for e in entries if e.get("tool_use_in_transcript_ms") is not None)
    out.append(f"- the calling tool_use already in the transcript when tools/call arrived: {sum(arrival)} of "
               f"{len(arrival)} calls; otherwise it appeared after {delays[0] if delays else '-'}–"
               f"{delays[-1] if delays else '-'} ms (median {delays[len(delays) // 2] if delays else '-'})")
    rows = [e["registry_rows"] for e in entries if e.get("registry_rows")]
    starts = next((e["proc_starttime_ticks"] for e in entries if e.get("proc_starttime_ticks")), {})
    try:
        machine = open("/etc/machine-id").read().strip()
        pidns = os.readlink("/proc/self/ns/pid")
    except OSError:
        machine = pidns = "?"
    out.append(f"- the row's owner per /proc/<pid>/stat starttime (clock ticks): {starts}; this machine: "
               f"/etc/machine-id {machine}, /proc/self/ns/pid {pidns}")
    out.append(f"- session registry rows seen during tools/call: "
               f"{('`' + compact(rows[0])[:800] + '`') if rows else 'none (no <home>/sessions/*.json)'}")
    out.append("")


def record_types(out, home):
    types, attachments, systems = collections.Counter(), collections.Counter(), collections.Counter()
    keys = collections.defaultdict(set)
    for path in home.transcripts():
        with open(path) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    types["(unparsable)"] += 1
                    continue
                types[r.get("type")] += 1
                keys[r.get("type")].update(r)
                if r.get("type") == "attachment":
                    attachments[(r.get("attachment") or {}).get("type")] += 1
                if r.get("type") == "system":
                    systems[r.get("subtype")] += 1
    others = sorted(os.path.relpath(os.path.join(d, f), home.root) for d, _, files in os.walk(home.root)
                    for f in files if f != "tap.jsonl")
    out.append(f"## Transcript records Claude Code {VERSION} wrote (the surface conversation)\n")
    out.append("| type | count |\n|---|--:|")
    out += [f"| {t} | {c} |" for t, c in sorted(types.items(), key=lambda kv: (-kv[1], str(kv[0])))]
    out.append("\n| attachment type | count |\n|---|--:|")
    out += [f"| {t} | {c} |" for t, c in sorted(attachments.items(), key=lambda kv: (-kv[1], str(kv[0])))]
    if systems:
        out.append("\n| system subtype | count |\n|---|--:|")
        out += [f"| {t} | {c} |" for t, c in sorted(systems.items(), key=lambda kv: (-kv[1], str(kv[0])))]
    out.append("\nTop-level keys per type:\n")
    out += [f"- {t}: {', '.join(sorted(k))}" for t, k in sorted(keys.items(), key=lambda kv: str(kv[0]))]
    out.append(f"\nFiles under the isolated HOME afterwards: {others}\n")


ASKS = {"search my session history": "search", "which files did I change": "files", "recover a file": "recover",
        "is that session done": "status", "which session am I": "whoami"}


def tool_search(out):
    """Claude Code's ToolSearch (keyword form) asked the users' words: its first three answers each."""
    home = Home()
    try:
        rc, o, e, _ = home.add_stdio()
        assert rc == 0, o + e
        steps = [{"content": [{"type": "tool_use", "name": "ToolSearch", "input": {"query": q, "max_results": 3}}]}
                 for q in ASKS] + [None]
        api, rc, events, err, _ = converse(home, steps, str(uuid.uuid4()), "Which csift tool?")
        out.append("## ToolSearch asked a user's words (keyword form, max_results 3)\n")
        out.append("| asked | expected | found (in order) | first is expected |\n|---|---|---|---|")
        for i, (q, want) in enumerate(ASKS.items()):
            block = tool_results(api.conversation[i + 1]).get(tool_use_id(i, 0)) or {} \
                if i + 1 < len(api.conversation) else {}
            found = [b.get("tool_name") for b in block.get("content") or []
                     if isinstance(b, dict) and b.get("type") == "tool_reference"]
            out.append(f"| {q} | {want} | {', '.join(found)} | {found[:1] == ['mcp__csift__' + want]} |")
        out.append("")
    finally:
        home.cleanup()


def whoami_runs(out, runs):
    out.append(f"## whoami with a marker as the first csift call ({runs} fresh conversations, stdio)\n")
    out.append("| run | found its caller | tool_use in transcript when tools/call arrived | "
               "ms until it was | csift definitions after selecting whoami alone | answer (start) |")
    out.append("|--:|---|---|--:|--:|---|")
    ok = 0
    for r in range(runs):
        home = Home()
        try:
            log = os.path.join(home.root, "tap.jsonl")
            rc, o, e, _ = add_tapped(home, log)
            assert rc == 0, o + e
            sid = str(uuid.uuid4())
            steps = [select_step(["whoami"]),
                     {"content": [{"type": "tool_use", "name": "mcp__csift__whoami", "input": {"marker": MARKER}}]}]
            api, rc, events, err, _ = converse(home, steps, sid, "Which session am I?")
            block = tool_results(api.conversation[2]).get(tool_use_id(1, 0)) if len(api.conversation) > 2 else None
            text = result_text(block) if block else "(no result)"
            found = bool(block) and not block.get("is_error") and sid in text
            ok += found
            time.sleep(0.3)  # the tap's watcher thread logs when it sees the id
            entries = read_log(log)
            on_arrival = next((e["toolUseId_in_transcript_on_arrival"] for e in entries
                               if "toolUseId_in_transcript_on_arrival" in e), None)
            ms = next((e["tool_use_in_transcript_ms"] for e in entries if "tool_use_in_transcript_ms" in e), None)
            loaded = sum(1 for t in api.conversation[1].get("tools", []) if t["name"].startswith("mcp__csift__")) \
                if len(api.conversation) > 1 else 0
            out.append(f"| {r + 1} | {found} | {on_arrival} | {ms if ms is not None else '-'} | {loaded} | "
                       f"`{text[:90].replace('|', '/').replace(chr(10), ' ')}` |")
        finally:
            home.cleanup()
    out.append(f"\nwhoami {{marker}} on the first call found its caller in {ok} of {runs} runs.\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--whoami-runs", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep the surface conversation's HOME and print its path")
    args = ap.parse_args()
    ensure_installed()
    out = [f"# csift-mcp under Claude Code {VERSION} (scripted model)\n"]
    t = time.monotonic()
    home, log, sid, secs, api = surface(out)
    try:
        protocol(out, log)
        record_types(out, home)
    finally:
        if args.keep:
            out.append(f"(kept: {home.root})")
        else:
            home.cleanup()
    tool_search(out)
    whoami_runs(out, args.whoami_runs)
    out.append(f"(surface conversation {secs:.1f} s; everything {time.monotonic() - t:.1f} s)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
