#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpora at run time, one directory per target, from fixtures/ and the real
logs of ../shared/corpus (read in place, never copied into the repository), plus the small hand-written
seeds below. Usage: seeds.py OUT_DIR SOURCE_DIR. A missing ../shared/corpus only leaves those seeds out."""
import base64
import hashlib
import json
import os
import struct
import sys
import zlib

OUT, SRC = sys.argv[1], sys.argv[2]
MAX_SEED = 16 << 10   # bytes of one seed: libFuzzer's inputs stay small and fast
MAX_SEEDS = 160       # per target: the short run executes every seed first


def corpus_root():
    for c in (os.path.join(SRC, "..", "shared", "corpus"), "/work/shared/corpus"):
        if os.path.isfile(os.path.join(c, "README.md")):
            return c
    return None


seeds = {}


def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    got = seeds.setdefault(target, {})
    if len(got) < MAX_SEEDS and data:
        got[hashlib.sha1(data).hexdigest()] = data


def files(root, suffixes):
    out = []
    for dirpath, dirnames, names in os.walk(root):
        dirnames.sort()
        for n in sorted(names):
            if n.endswith(suffixes):
                out.append(os.path.join(dirpath, n))
    return out


def head(path, limit=MAX_SEED):
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # whole lines only
        cut = data.rfind(b"\n", 0, limit)
        data = data[: cut + 1] if cut > 0 else data[:limit]
    return data


def lines(path, limit=64 << 20):
    with open(path, "rb") as f:
        return [l.rstrip(b"\n") for l in f.read(limit).split(b"\n") if l.strip()]


def windows(path, size=6, count=6):
    """A few runs of consecutive lines from across the file (its middle and end, not only its head)."""
    ls = lines(path)
    if not ls:
        return
    step = max(1, len(ls) // count)
    for i in range(0, len(ls), step):
        chunk = b"\n".join(l for l in ls[i : i + size] if len(l) < MAX_SEED) + b"\n"
        if len(chunk) <= MAX_SEED:
            yield chunk


def harness_of(path):
    name = os.path.basename(path)
    if name == "events.jsonl":
        return "copilot"
    if "cursor" in path and "agent-transcripts" in path:
        return "cursor"
    first = head(path, 4096)
    if b'"session_meta"' in first or b'"response_item"' in first or name.startswith("rollout-"):
        return "codex"
    if "/chats/session-" in path or "gemini" in path.lower():
        return "gemini_cli"
    return "claude_code"


def walk_strings(v, key, out):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == key and isinstance(x, str):
                out.append(x)
            walk_strings(x, key, out)
    elif isinstance(v, list):
        for x in v:
            walk_strings(x, key, out)


# Logs: fixtures first (hand-made, every shape the readers know), then the real corpus.
logs = files(os.path.join(SRC, "fixtures"), (".jsonl",))
root = corpus_root()
if root:
    logs += files(root, (".jsonl",))
json_lines, commands, image_lines = {}, [], []
for path in logs:
    h = harness_of(path)
    add(h, head(path))
    for w in windows(path):
        add(h, w)
    for l in lines(path):
        if len(l) < 8192:
            kind = l[:200]
            json_lines.setdefault((h, kind[:60]), l)
        if b'"image"' in l and b'"base64"' in l and len(l) < MAX_SEED * 4:
            image_lines.append(l)
        if b'"command"' in l and len(commands) < 2000:
            try:
                walk_strings(json.loads(l), "command", commands)
            except ValueError:
                pass
for l in list(json_lines.values()):
    add("json", l)
    add("scrubber", l)
for c in dict.fromkeys(commands):
    add("shell_words", c)
for l in image_lines[:40]:
    add("image", b"\x00" + l + b"\n")
    try:
        walk = []
        walk_strings(json.loads(l), "data", walk)
        for d in walk[:2]:
            add("image", b"\x01\x00" + base64.b64decode(d, validate=False))
    except ValueError:
        pass

# OpenCode: each message of the triage fixture's export as a rendered OpenCode 1 row, and OpenCode 2 rows.
try:
    with open(os.path.join(SRC, "fixtures", "triage", "opencode-session.json")) as f:
        export = json.load(f)
    rows = [json.dumps({"info": m["info"], "parts": m["parts"], "directory": export["info"]["directory"]},
                       separators=(",", ":")) for m in export["messages"]]
    add("opencode", "\n".join(rows) + "\n")
    for r in rows:
        add("opencode", r)
except (OSError, ValueError, KeyError):
    pass
for row in [
    {"id": "m1", "type": "user", "seq": 1, "time_created": 1790000000000, "directory": "/home/dev/p",
     "data": {"text": "run the tests", "time": {"created": 1790000000000}}},
    {"id": "m2", "type": "assistant", "seq": 2, "time_created": 1790000001000, "directory": "/home/dev/p",
     "data": {"content": [{"type": "text", "text": "ok"},
                          {"type": "tool", "callID": "c1", "tool": "bash", "state": {"status": "completed",
                           "input": {"command": "make test"}, "output": "done", "metadata": {"exit": 0}}}],
              "tokens": {"input": 10, "output": 5, "cache": {"read": 2, "write": 0}}}},
    {"id": "m3", "type": "location-switched", "seq": 3, "time_created": 1790000002000,
     "directory": "/home/dev/q", "data": {"directory": "/home/dev/q"}},
]:
    add("opencode", json.dumps(row))

# The scrubber: every labelled secret, alone and inside text.
try:
    with open(os.path.join(SRC, "fixtures", "triage", "secrets.json")) as f:
        for s in json.load(f):
            add("scrubber", s["value"])
            add("scrubber", "token=" + s["value"] + " and mail dev@example.com from /home/alice/x")
except (OSError, ValueError, KeyError):
    pass

# Hand-written seeds.
for p, subject in [
    ("foo", "a foo b"), ("fo+|ba[rz]", "bar"), ("(?i)hello\\s+world", "HELLO  world"), ("^abc$", "abc"),
    ("\\bword\\b", "a word."), ("a.{3}c", "abxxc"), (".{20}x", "y" * 25 + "x"), ("a{2,4}?b", "aaab"),
    ("[[:alpha:]]+\\d", "abc1"), ("\\p{Lu}\\w*", "Élan"), ("(a|b)*c", "ababc"), ("x(?=y)", "xy"),
    ("(?<=a)b", "ab"), ("é+", "ééé"), ("\\Aa|b\\z", "cb"), ("(?m)^b", "a\nb"), ("[^\\n]{5}$", "abcdef"),
]:
    for flags in (0, 1, 2):
        add("regex", bytes([flags]) + p.encode() + b"\x00" + subject.encode())
for recipe in [b"\x00\x02\x20\x03\x41\xff\x00\x01\x02", b"\x01\x05\x42\x0e\x00\x04\x21\xff" + bytes(range(30)),
               b"\x02\x0e\x00\x02\xc1\x10\x01\xff" + bytes(range(0, 60, 3)), b"\x00\x12\x00\x05\x88\x13\x00\xff\x05\x05\x01"]:
    add("counted_repeat", recipe)
http = [
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    "POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "\r\n\r\nGET /x?y=1 HTTP/1.0\nConnection: keep-alive\nExpect: 100-continue\n\n",
    "DELETE /mcp HTTP/1.1\r\nMcp-Session-Id: abc\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
]
for h in http:
    add("http_head", h)
for step, body in [(1, "2\r\n{}\r\n0\r\n\r\n"), (5, "a;ext=1\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\nGET"),
                   (64, "F \r\n" + "x" * 15 + "\r\n0\n\n"), (3, "zz\r\n")]:
    add("http_chunked", bytes([step]) + body.encode())
rpc = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
     "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list", "arguments": {}}},
    {"jsonrpc": "2.0", "id": "4", "method": "tools/call", "params": {"name": "search",
     "arguments": {"pattern": "a{3}", "max_chars": 100}}},
    {"jsonrpc": "2.0", "id": 5, "method": "resources/list"},
    {"jsonrpc": "2.0", "id": 6, "method": "resources/read", "params": {"uri": "csift://session/x"}},
    {"jsonrpc": "2.0", "id": 7, "method": "prompts/get", "params": {"name": "x", "arguments": {}}},
    {"jsonrpc": "2.0", "id": 8, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt",
     "name": "x"}, "argument": {"name": "a", "value": "b"}}},
    {"jsonrpc": "2.0", "id": 9, "method": "server/discover", "params": {"_meta": {
     "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}},
    {"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "stats", "arguments": {"by": "day"},
     "_meta": {"progressToken": 1}}},
]
add("jsonrpc", "\n".join(json.dumps(m) for m in rpc))
for m in rpc:
    add("jsonrpc", json.dumps(m))
add("jsonrpc", "[1]\n{\"jsonrpc\":\"2.0\",\"id\":null}\n" + "[" * 300)
for t in [
    "[collect]\ndisabled = false\ndeny_paths = [\"~/secret\", \"/tmp\"]\nopt_in_paths = [\"/home/dev/p\"]\nopt_in_only = true\n",
    "[collect]\ndisabled = true\n", "# nothing\n", "[collect]\ndeny_paths = \"/x\"\n", "[other]\nx = 1\n[collect]\n",
]:
    add("collect_policy", t)
for c in ["rm -rf build && mkdir -p out/x", "cat <<'EOF' > f.txt\nhello\nEOF\n", "cd src; sed -i 's/a/b/' *.c",
          "echo \"$HOME\" > ~/x 2>&1 | tee -a log", "(cd /tmp && git mv a b) || python3 -c 'open(\"f\",\"w\")'"]:
    add("shell_words", c)


def png(w, h):
    raw = b"".join(b"\x00" + b"".join(bytes([x * 40 % 256, y * 40 % 256, 128, 200]) for x in range(w)) for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


gif = (b"GIF89a\x02\x00\x02\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x00\x00\x00\x00\x00,"
       b"\x00\x00\x00\x00\x02\x00\x02\x00\x00\x02\x02\x84Q\x00;")
for img in (png(3, 2), png(1, 1), gif):
    add("image", b"\x01\x00" + img)
    line = json.dumps({"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z", "message": {
        "role": "user", "content": [{"type": "text", "text": "[Image #1] see"}, {"type": "image", "source": {
            "type": "base64", "media_type": "image/png", "data": base64.b64encode(img).decode()}}]}})
    add("image", b"\x00" + line.encode() + b"\n")

for target, got in seeds.items():
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    for name, data in got.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
print("seeds: " + ", ".join(f"{t} {len(g)}" for t, g in sorted(seeds.items())))
