"""Shared helpers for the CLI integration tests: an independent Python model of the Claude Code record rules
(spec §4.1/§4.2 genuine user, §6.4 turn openers, §6.12 token dedup) and a builder that lays the read-only
real corpus (../shared/corpus) out as a proper Claude Code store in a temp dir, by symlinks.

Nothing here imports or mirrors the C++ code: it is written from the spec so that it can disagree with it.
"""
import json
import os
import re
import subprocess
import unicodedata

REPO = os.environ.get("CSIFT_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(REPO, "fixtures")
FIXTURE_HOME = os.path.join(FIXTURES, "home")


def corpus_root():
    """$CSIFT_SOURCE_DIR/../shared/corpus (CI lays shared/ beside the clone), else /work/shared/corpus."""
    for cand in (os.path.join(REPO, "..", "shared", "corpus"), "/work/shared/corpus"):
        if os.path.isfile(os.path.join(cand, "README.md")):
            return os.path.abspath(cand)
    return None


def binary():
    b = os.environ.get("CSIFT_MCP_BIN") or os.path.join(REPO, "build", "csift-mcp")
    return b


def run_cli(args, timeout=600):
    """Runs `csift-mcp --cli <args>`; returns (exit code, stdout bytes, stderr bytes)."""
    p = subprocess.run([binary(), "--cli"] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, env=dict(os.environ, TZ="UTC"))
    return p.returncode, p.stdout, p.stderr


def parse_envelope(stdout):
    """NDJSON envelope v2: header line, kind-tagged rows, summary line. Raises AssertionError on a bad shape."""
    lines = [ln for ln in stdout.decode("utf-8").split("\n") if ln.strip()]
    assert len(lines) >= 2, f"envelope needs a header and a summary line, got {len(lines)} line(s)"
    objs = [json.loads(ln) for ln in lines]
    assert objs[0].get("kind") == "header", f"first line is not the header: {lines[0][:200]}"
    assert objs[-1].get("kind") == "summary", f"last line is not the summary: {lines[-1][:200]}"
    for o in objs[1:-1]:
        assert "kind" in o and o["kind"] not in ("header", "summary"), f"bad row kind: {str(o)[:200]}"
    return objs[0], objs[1:-1], objs[-1]


# ------------------------------------------------------------------------------------------- line census
def physical_lines(data):
    """Physical lines of a file's bytes: every '\n' ends one; a final fragment without '\n' is one more."""
    if not data:
        return []
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
        return [(p, True) for p in parts]
    return [(p, True) for p in parts[:-1]] + [(parts[-1], False)]


def is_blank(line):
    return line.strip(b" \t\r\n\f\v") == b""


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(v):
    """python's json pairs escaped surrogates itself, so any surrogate left in a string is lone: U+FFFD, as the
    reader's repair writes it."""
    if isinstance(v, str):
        return _LONE_SURROGATE.sub("\ufffd", v)
    if isinstance(v, list):
        return [replace_lone_surrogates(x) for x in v]
    if isinstance(v, dict):
        return {replace_lone_surrogates(k): replace_lone_surrogates(x) for k, x in v.items()}
    return v


def census(path):
    """Independent line accounting of one transcript: {lines, blank, malformed, torn, repaired, records:[(lineno,
    obj)]}. A line is a record when it is newline-terminated, non-blank and a JSON object. A line whose only
    fault is its text encoding is still a record (the reader parses a repaired copy): invalid UTF-8 bytes decode
    to U+FFFD (errors="replace") and lone UTF-16 surrogate escapes, which python's json accepts as lone
    surrogate characters, become U+FFFD too; such lines are listed in `repaired`. The torn final fragment is
    never parsed (counted as torn)."""
    with open(path, "rb") as f:
        data = f.read()
    out = {"lines": 0, "blank": 0, "malformed": 0, "torn": 0, "repaired": [], "records": []}
    for i, (line, terminated) in enumerate(physical_lines(data), start=1):
        out["lines"] += 1
        if line.endswith(b"\r"):
            line = line[:-1]
        if not terminated:
            if is_blank(line):
                out["blank"] += 1
            else:
                out["torn"] += 1
            continue
        if is_blank(line):
            out["blank"] += 1
            continue
        text = line.decode("utf-8", errors="replace")
        try:
            obj = json.loads(text)
        except ValueError:
            out["malformed"] += 1
            continue
        if not isinstance(obj, dict):
            out["malformed"] += 1
            continue
        fixed = replace_lone_surrogates(obj)
        if fixed != obj or text.encode("utf-8") != line:
            out["repaired"].append(i)
        out["records"].append((i, fixed))
    return out


# ------------------------------------------------------------------------------------------- record rules
INTERRUPTS = ("[Request interrupted by user]", "[Request interrupted by user for tool use]")
PEER_PREAMBLES = ("Another Claude session sent a message:",
                  "Another Claude session sent a message while you were working:",
                  "A peer session sent a message while you were working:")
SECTION_CLOSES = ("</task-notification>", "</teammate-message>", "</agent-message>")
AUQ_MARKERS = ("User has answered your questions", "Your questions have been answered", "The user answered:")
REJECT_MARKER = "The user doesn't want to proceed with this tool use"
REJECT_SAID = "To tell you how to proceed, the user said:\n"


def _message(r):
    m = r.get("message")
    return m if isinstance(m, dict) else {}


def _blocks(r):
    c = _message(r).get("content")
    return [b for b in c if isinstance(b, dict)] if isinstance(c, list) else []


def user_text(r):
    c = _message(r).get("content")
    if isinstance(c, str):
        return c
    return "\n".join(b.get("text", "") for b in _blocks(r) if b.get("type") == "text" and isinstance(b.get("text"), str))


def _boundary(prefix):
    t = prefix.rstrip()
    return t == "" or t.endswith(PEER_PREAMBLES) or t.endswith(SECTION_CLOSES)


def has_section(text, open_tag):
    """An open tag at a section boundary (content start, after a relay preamble, or after a close tag)."""
    start = 0
    while True:
        i = text.find(open_tag, start)
        if i < 0:
            return False
        if _boundary(text[:i]):
            return True
        start = i + len(open_tag)


def is_peer_text(text):
    return has_section(text, "<teammate-message") or has_section(text, "<agent-message")


def is_agents_stopped(text):
    s = text.lstrip()
    if s.startswith('Background agent "') and " was stopped by the user" in s:
        return True
    m = re.match(r"\d+ background agents? (was|were) stopped by the user", s)
    return bool(m)


def is_synthetic(text):
    """The harness-written user shapes; `!` bash mode's command and output included (our SPEC.md §4)."""
    bash = text.lstrip().startswith(("<bash-input>", "<bash-stdout>", "<bash-stderr>"))
    return (text in INTERRUPTS or text.startswith("<local-command-stdout>") or text.startswith("<command-name>")
            or text.startswith("<command-message>") or is_agents_stopped(text) or bash)


def main_lane(records, path):
    """A session file's own records: Claude Code 1.x wrote its subagents' records inline, flagged isSidechain,
    and those belong to the subagent (our SPEC.md §4). Only 1.x did so: a flagged 2.x record stays. In an
    agent-<id>.jsonl every record is the agent's."""
    if os.path.basename(path).startswith("agent-"):
        return records

    def inline(r):
        v = r.get("version") if isinstance(r.get("version"), str) else ""
        return r.get("isSidechain") is True and v.startswith(("1.", "0."))
    return [(i, r) for i, r in records if not inline(r)]


def _is_carrier(r):
    return any(b.get("type") == "tool_result" for b in _blocks(r))


def is_genuine_user(r):
    """Spec §4.1 (1)-(4) plus the §4.2 synthesized shapes, the peer messages, task notifications (our
    SPEC.md §4) and the agents-stopped notice (seed v0.10.0 ④)."""
    if r.get("type") != "user" or _message(r).get("role") != "user":
        return False
    if r.get("isCompactSummary") or r.get("isMeta"):
        return False
    c = _message(r).get("content")
    if isinstance(c, list):
        types = [b.get("type") for b in _blocks(r)]
        if "text" not in types or "tool_result" in types:
            return False
    elif not isinstance(c, str):
        return False
    text = user_text(r)
    return not (is_synthetic(text) or is_peer_text(text) or has_section(text, "<task-notification>"))


def _result_text(block):
    c = block.get("content")
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "\n".join(p.get("text", "") for p in c if isinstance(p, dict) and p.get("type") == "text")
    return ""


def is_auq_answer(r):
    if r.get("type") != "user":
        return False
    results = [b for b in _blocks(r) if b.get("type") == "tool_result"]
    if not results or any(b.get("is_error") is True for b in results):
        return False
    tur = r.get("toolUseResult")
    if isinstance(tur, dict):
        if isinstance(tur.get("answers"), dict) and tur["answers"]:
            return True
        if isinstance(tur.get("response"), str) and tur["response"].strip():
            return True
    return any(_result_text(b).lstrip().startswith(AUQ_MARKERS) for b in results)


def is_rejection_with_message(r):
    if r.get("type") != "user":
        return False
    for b in _blocks(r):
        if b.get("type") != "tool_result":
            continue
        t = _result_text(b)
        if REJECT_MARKER in t and REJECT_SAID in t and t.split(REJECT_SAID, 1)[1].strip():
            return True
    return False


def is_peer_record(r):
    return r.get("type") == "user" and not _is_carrier(r) and is_peer_text(user_text(r))


def is_task_notification_record(r):
    return (r.get("type") == "user" and not r.get("isMeta") and not r.get("isCompactSummary")
            and not _is_carrier(r) and has_section(user_text(r), "<task-notification>"))


def opens_turn(r):
    return (is_genuine_user(r) or is_auq_answer(r) or is_rejection_with_message(r) or is_peer_record(r)
            or is_task_notification_record(r))


def superseded_drafts(records):
    """Openers whose parentUuid a LATER opener shares (esc-recall + edit + resend): the earlier one is a draft."""
    drafts = set()
    openers = [(i, r) for i, r in records if opens_turn(r)]
    for k, (i, r) in enumerate(openers):
        p = r.get("parentUuid")
        if p and any(r2.get("parentUuid") == p for _j, r2 in openers[k + 1:]):
            drafts.add(i)
    return drafts


def turn_count(records):
    drafts = superseded_drafts(records)
    return sum(1 for i, r in records if opens_turn(r) and i not in drafts)


def agent_text(r):
    if r.get("type") != "assistant":
        return None
    texts = [b.get("text") for b in _blocks(r) if b.get("type") == "text" and isinstance(b.get("text"), str)]
    return "\n".join(texts) if texts else None


def first_last_human(records):
    genuine = [(i, r) for i, r in records if is_genuine_user(r)]
    if not genuine:
        return None, None
    return genuine[0], genuine[-1]


FIELDS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def _usage_of(r):
    """(model or "", message id or None, usage per FIELDS) of a record that carries usage, else None."""
    m = _message(r)
    use = m.get("usage")
    if not isinstance(use, dict):
        return None
    u = {f: int(use.get(f) or 0) if isinstance(use.get(f), (int, float)) else 0 for f in FIELDS}
    model = m.get("model") if isinstance(m.get("model"), str) and m.get("model") else ""
    mid = m.get("id") if isinstance(m.get("id"), str) and m.get("id") else None
    return model, mid, u


def _model_tally():
    """A per-model sum of FIELDS and the function that adds one usage to it."""
    out = {}

    def add(model, u):
        acc = out.setdefault(model, dict.fromkeys(FIELDS, 0))
        for f in FIELDS:
            acc[f] += u[f]

    return out, add


def tokens_by_model(records, dedupe=True):
    """Spec §6.12: per file, usage counted ONCE per message.id with a per-field MAX over the id's records; an
    id-less record counts on its own. dedupe=False gives the (wrong) per-record sum."""
    by_id = {}
    out, add = _model_tally()
    for _i, r in records:
        usage = _usage_of(r)
        if usage is None:
            continue
        model, mid, u = usage
        model = model or "(unknown)"
        if mid is None or not dedupe:
            add(model, u)
            continue
        if mid not in by_id:
            by_id[mid] = [model, dict(u)]
        else:
            cur = by_id[mid]
            if cur[0] == "(unknown)" and model != "(unknown)":
                cur[0] = model
            for f in FIELDS:
                cur[1][f] = max(cur[1][f], u[f])
    for model, u in by_id.values():
        add(model, u)
    return out


def tokens_across_files(files):
    """Spec §9.4 (ours): the scope's tokens with each API message counted once across files. Per file a
    message id keeps its per-field max and the first request id seen for it; across files the key is message
    id + request id, again with a per-field max. Id-less usage sums. `files`: one records list per file."""
    merged = {}
    out, add = _model_tally()
    for records in files:
        per_file = {}
        for _i, r in records:
            usage = _usage_of(r)
            if usage is None:
                continue
            model, mid, u = usage
            if mid is None:
                add(model or "(unknown)", u)
                continue
            rid = r.get("requestId") if isinstance(r.get("requestId"), str) else ""
            cur = per_file.setdefault(mid, [model, rid, dict.fromkeys(FIELDS, 0)])
            cur[0] = cur[0] or model
            cur[1] = cur[1] or rid
            for f in FIELDS:
                cur[2][f] = max(cur[2][f], u[f])
        for mid, (model, rid, u) in per_file.items():
            cur = merged.setdefault(mid + "\n" + rid, [model, dict.fromkeys(FIELDS, 0)])
            cur[0] = cur[0] or model
            for f in FIELDS:
                cur[1][f] = max(cur[1][f], u[f])
    for model, u in merged.values():
        add(model or "(unknown)", u)
    return out


def one_line(s):
    """Folds runs of ASCII whitespace to one space and trims (Unicode spaces such as NBSP are kept)."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", s).strip(" ")


# ------------------------------------------------------------------------------------------- store builder
def encode_cwd(cwd):
    s = unicodedata.normalize("NFC", cwd)
    u = s.encode("utf-16-le")
    out = []
    for i in range(0, len(u), 2):
        c = int.from_bytes(u[i:i + 2], "little")
        out.append(chr(c) if c < 128 and chr(c).isalnum() else "-")
    return "".join(out)


def _first_record_field(path, field):
    with open(path, "rb") as f:
        for line in f:
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if isinstance(o, dict) and isinstance(o.get(field), str) and o.get(field):
                return o[field]
    return None


def looks_like_claude_code(path, max_lines=400):
    """Claude Code jsonl: records carry sessionId and type user/assistant with a message{role} payload."""
    hits = 0
    with open(path, "rb") as f:
        for n, line in enumerate(f):
            if n >= max_lines:
                break
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if (isinstance(o, dict) and o.get("type") in ("user", "assistant") and isinstance(o.get("message"), dict)
                    and "sessionId" in o and "uuid" in o):
                hits += 1
    return hits > 0


def _link(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    os.symlink(src, dst)


def temp_corpus_store(prefix):
    """The corpus laid out in a fresh temp dir: returns (dir, placed) as build_corpus_store does. A missing
    corpus is a failure that says where it was looked for, never a skip."""
    import tempfile
    root = corpus_root()
    if root is None:
        raise AssertionError("corpus not found at $CSIFT_SOURCE_DIR/../shared/corpus or /work/shared/corpus")
    tmp = tempfile.mkdtemp(prefix=prefix)
    placed, _ = build_corpus_store(root, tmp)
    return tmp, placed


class CorpusHome:
    """A unittest mixin (before unittest.TestCase in the bases): the corpus laid out in a temp store for the
    class, as cls.home and cls.placed, removed after its tests."""
    home_prefix = "csift-corpus-"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.home, cls.placed = temp_corpus_store(cls.home_prefix)

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.home, ignore_errors=True)
        super().tearDownClass()


def build_corpus_store(root, tmp):
    """Lays the corpus out under tmp/projects/ by symlinks. Returns a list of dicts
    {path, source, kind: session|subagent|legacy_flat, id} for every transcript placed."""
    projects = os.path.join(tmp, "projects")
    os.makedirs(projects, exist_ok=True)
    placed = []

    def place(src, project, name, kind, tid):
        dst = os.path.join(projects, project, name)
        if os.path.lexists(dst):
            raise AssertionError(f"store collision: {dst} (from {src})")
        _link(src, dst)
        placed.append({"path": dst, "source": src, "kind": kind, "id": tid})
        return dst

    # claude-backups: three trees of projects/<encoded>/<uuid>.jsonl; the same project name recurs across trees
    cb = os.path.join(root, "claude-backups")
    for dirpath, _dirs, files in sorted(os.walk(cb)):
        for fn in sorted(files):
            if not fn.endswith(".jsonl"):
                continue
            src = os.path.join(dirpath, fn)
            project = os.path.basename(dirpath)
            tree = os.path.relpath(dirpath, cb).split(os.sep)[0].strip(".") or "root"
            if os.path.lexists(os.path.join(projects, project, fn)):
                project = f"{project}--{tree}"
            place(src, project, fn, "session", fn[:-6])
    # spotter: flat <uuid>.jsonl (+ <uuid>/subagents/) under one encoded project; named non-uuid files too
    sp = os.path.join(root, "spotter", "test", "fixtures", "transcripts")
    sp_project = None
    for fn in sorted(os.listdir(sp)):
        src = os.path.join(sp, fn)
        if fn.endswith(".jsonl") and os.path.isfile(src):
            cwd = _first_record_field(src, "cwd") or "/home/USER/projects/spotter"
            project = encode_cwd(cwd)
            sid = _first_record_field(src, "sessionId")
            uuid_name = re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl", fn)
            name = fn if uuid_name else f"{sid}.jsonl" if sid else fn
            if not uuid_name and sid and os.path.lexists(os.path.join(projects, project, name)):
                project = project + "-named"
            place(src, project, name, "session", name[:-6])
            sub = os.path.join(sp, fn[:-6], "subagents")
            if uuid_name and os.path.isdir(sub):
                for afn in sorted(os.listdir(sub)):
                    if afn.endswith(".jsonl"):
                        place(os.path.join(sub, afn), project, os.path.join(fn[:-6], "subagents", afn), "subagent",
                              afn[len("agent-"):-6])
                    elif afn.endswith(".meta.json"):
                        _link(os.path.join(sub, afn), os.path.join(projects, project, fn[:-6], "subagents", afn))
            sp_project = project
    # a sidecar dir whose session file is absent (spec §1 fact 2: a project dir with no top-level jsonl)
    for dn in sorted(os.listdir(sp)):
        sub = os.path.join(sp, dn, "subagents")
        if os.path.isdir(sub) and not os.path.exists(os.path.join(sp, dn + ".jsonl")):
            for afn in sorted(os.listdir(sub)):
                if afn.endswith(".jsonl"):
                    src = os.path.join(sub, afn)
                    project = encode_cwd(_first_record_field(src, "cwd") or "/orphan") + "-orphan"
                    place(src, project, os.path.join(dn, "subagents", afn), "orphan_subagent", afn[len("agent-"):-6])
    # entire checkpoints: cli/ and skills/ <xx>/<id>/<n>/full.jsonl, only Claude Code transcripts
    for src_name in ("cli", "skills"):
        base = os.path.join(root, src_name)
        if not os.path.isdir(base):
            continue
        for dirpath, _dirs, files in sorted(os.walk(base)):
            if "full.jsonl" not in files:
                continue
            src = os.path.join(dirpath, "full.jsonl")
            # metadata.json "agent" is unreliable (a Claude Code transcript is labelled "Gemini CLI" in one
            # checkpoint), so the line shapes decide: Gemini's pretty-printed JSON and Codex's records fail.
            if not looks_like_claude_code(src):
                continue
            sid = _first_record_field(src, "sessionId")
            cwd = _first_record_field(src, "cwd")
            if not sid:
                continue
            project = encode_cwd(cwd) if cwd else "-corpus-" + src_name
            if os.path.lexists(os.path.join(projects, project, f"{sid}.jsonl")):
                ckpt = os.path.relpath(dirpath, base).replace(os.sep, "-")
                project = f"{project}--ckpt-{ckpt}"
            place(src, project, f"{sid}.jsonl", "session", sid)
    # scripts-and-tools: a legacy flat project dir (sessions + agent-*.jsonl side by side)
    flat = os.path.join(root, "scripts-and-tools", "src", "claude-history", "test", "fixtures", "claude-projects")
    if os.path.isdir(flat):
        for project in sorted(os.listdir(flat)):
            pdir = os.path.join(flat, project)
            for fn in sorted(os.listdir(pdir)):
                if not fn.endswith(".jsonl"):
                    continue
                kind = "legacy_flat" if fn.startswith("agent-") else "session"
                tid = fn[len("agent-"):-6] if kind == "legacy_flat" else fn[:-6]
                place(os.path.join(pdir, fn), project, fn, kind, tid)
    return placed, sp_project
