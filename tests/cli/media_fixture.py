"""Independent readings of the images a transcript carries, for the image and verbatim tests: parsed here with
Python's json module and base64, never with csift-mcp, so the tool is checked against a second
implementation of the same rules (SPEC.md §9.9)."""
import base64
import binascii
import hashlib
import json
import os
import re
import struct

import harness as h

COMPACTED_HOME = os.path.join(h.REPO, "fixtures", "home-compacted")
PROJECT = os.path.join(COMPACTED_HOME, "projects", "-home-dev-projects-media-demo")
C1 = "c0ffee00-0000-4000-8000-0000000000c1"
C2 = "c0ffee00-0000-4000-8000-0000000000c2"
AGENT = "a7e5700000000001"
C1_PATH = os.path.join(PROJECT, C1 + ".jsonl")
C2_PATH = os.path.join(PROJECT, C2 + ".jsonl")
AGENT_PATH = os.path.join(PROJECT, C1, "subagents", "agent-%s.jsonl" % AGENT)
MARKER = re.compile(r"\[Image #(\d+)\]")


def records(path):
    """(line number, record) for every line that parses as a JSON object."""
    out = []
    with open(path, "rb") as f:
        for n, raw in enumerate(f.read().split(b"\n"), start=1):
            try:
                r = json.loads(raw.decode("utf-8", "replace"))
            except ValueError:
                continue
            if isinstance(r, dict):
                out.append((n, r))
    return out


def images_of(record):
    """[(source dict, nested in a tool_result?)] in document order."""
    msg = record.get("message")
    content = msg.get("content") if isinstance(msg, dict) else None
    out = []
    if not isinstance(content, list):
        return out
    for b in content:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "image":
            out.append((b.get("source") or {}, False))
        elif b.get("type") == "tool_result" and isinstance(b.get("content"), list):
            for part in b["content"]:
                if isinstance(part, dict) and part.get("type") == "image":
                    out.append((part.get("source") or {}, True))
    return out


def markers_of(record):
    msg = record.get("message") or {}
    content = msg.get("content")
    texts = [content] if isinstance(content, str) else [
        b.get("text", "") for b in (content or []) if isinstance(b, dict) and b.get("type") == "text"]
    return [int(m) for t in texts for m in MARKER.findall(t or "")]


def occurrences(path):
    """Every image occurrence: dict(line, ordinal, locator, handle, media_type, data, url, nested)."""
    out = []
    for line, r in records(path):
        imgs = images_of(r)
        direct = [i for i, (_, nested) in enumerate(imgs) if not nested]
        handles = markers_of(r)
        if len(handles) != len(direct):
            handles = r.get("imagePasteIds") or []
        zipped = dict(zip(direct, handles)) if len(handles) == len(direct) else {}
        for k, (src, nested) in enumerate(imgs):
            out.append({"line": line, "ordinal": k + 1, "locator": "L%di%d" % (line, k + 1),
                        "handle": zipped.get(k), "media_type": src.get("media_type"), "data": src.get("data"),
                        "url": src.get("url"), "nested": nested, "uuid": r.get("uuid")})
    return out


def distinct(occs):
    """One occurrence per content (base64 text, or url), the latest kept."""
    latest = {}
    for i, o in enumerate(occs):
        key = ("d", o["data"]) if o["data"] else ("u", o["url"]) if o["url"] else ("i", i)
        latest[key] = i
    keep = sorted(latest.values())
    return [occs[i] for i in keep]


def decoded(o):
    """The payload's bytes, or None when it is not base64."""
    try:
        return base64.b64decode(o["data"] or "", validate=True) if o["data"] else None
    except (binascii.Error, ValueError):
        return None


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def dimensions(data):
    """(width, height) read from a PNG, GIF, JPEG or WebP header, or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", data[6:10])
    if data[:3] == b"\xff\xd8\xff":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2):
                h_, w = struct.unpack(">HH", data[i + 5:i + 9])
                return (w, h_)
            i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
        return None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8 ":
            w, h_ = struct.unpack("<HH", data[26:30])
            return (w & 0x3FFF, h_ & 0x3FFF)
        if chunk == b"VP8L":
            b = data[21:25]
            bits = int.from_bytes(b, "little")
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        if chunk == b"VP8X":
            return (int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1)
    return None
