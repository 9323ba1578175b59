#!/usr/bin/env python3
"""Writes a realistic synthetic Claude Code store for benchmarks.

Shape aimed at: line lengths p50 ~0.8 KB, p90 ~2.6 KB, p99 ~15 KB with a few 400,000-character tool results;
~54 % attachment records; most user records tool-result carriers; English and CJK prose; sessions with builtin
and workflow subagents; one large session to exercise within-file parallelism. Deterministic for a given --seed.
Measured on the default 1 GiB output (bench/store_shape.py, see bench/README.md): p50 908 B, p90 2,584 B, p99
15,674 B, max 1,067,902 B (a 400,000-character CJK result is ~1 MB of UTF-8); 52.0 % attachment records; 89.5 %
of user records are carriers (3-14 tool rounds per human prompt).

Planted words (for the search benchmark): RARE_WORD appears in a few dozen records, ABSENT_WORD never does.
"""
import argparse
import json
import os
import random
import time
import uuid

RARE_WORD = "zanzibarquux"
ABSENT_WORD = "xylophonezebraquartz"

ENGLISH = ("the parser reads each line and the scanner keeps a carry for the partial tail while the tool "
           "checks the error path before it writes the result back to the caller and then runs the tests "
           "again because the build failed on a missing header in the core module of the project").split()
CJK = list("解析器读取每一行扫描器保留部分尾部的进位工具检查错误路径然后将结果写回调用者并再次运行测试因为构建失败")
TOOLS = ["Bash", "Read", "Edit", "Write", "Grep", "Glob", "TodoWrite", "WebFetch"]


def prose(rng, n_chars):
    words = []
    total = 0
    cjk = rng.random() < 0.15
    while total < n_chars:
        if cjk:
            w = "".join(rng.choice(CJK) for _ in range(rng.randint(2, 8)))
        else:
            w = rng.choice(ENGLISH)
        words.append(w)
        total += len(w) + 1
    return " ".join(words)


def line_length(rng):
    # Tool-result sizes; with the other record kinds this gives the measured whole-store line-length shape.
    r = rng.random()
    if r < 0.0015:
        return 400_000
    if r < 0.05:
        return rng.randint(12_000, 22_000)
    if r < 0.45:
        return rng.randint(2_600, 8_000)
    return rng.randint(300, 2_600)


class Session:
    def __init__(self, rng, sid, cwd, is_sidechain=False, agent_id=None):
        self.rng, self.sid, self.cwd = rng, sid, cwd
        self.is_sidechain, self.agent_id = is_sidechain, agent_id
        self.parent = None
        self.t = 1_780_000_000.0 + rng.random() * 8_000_000
        self.msg_n = 0

    def base(self, typ):
        self.t += self.rng.random() * 20
        u = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        rec = {"parentUuid": self.parent, "isSidechain": self.is_sidechain, "userType": "external",
               "cwd": self.cwd, "sessionId": self.sid, "version": "2.1.159", "gitBranch": "main"}
        if self.agent_id:
            rec["agentId"] = self.agent_id
        rec.update({"type": typ, "uuid": u,
                    "timestamp": __import__("time").strftime("%Y-%m-%dT%H:%M:%S", __import__("time").gmtime(self.t))
                    + ".%03dZ" % int((self.t % 1) * 1000)})
        self.parent = u
        return rec

    def human(self, text):
        rec = self.base("user")
        rec["message"] = {"role": "user", "content": text}
        return rec

    def assistant(self, blocks):
        rec = self.base("assistant")
        self.msg_n += 1
        rec["message"] = {"id": "msg_%s_%d" % (self.sid[:8], self.msg_n), "type": "message", "role": "assistant",
                          "model": self.rng.choice(["claude-opus-4-5", "claude-sonnet-4-5"]), "content": blocks,
                          "stop_reason": None,
                          "usage": {"input_tokens": self.rng.randint(1, 50), "output_tokens": self.rng.randint(10, 900),
                                    "cache_read_input_tokens": self.rng.randint(0, 90000),
                                    "cache_creation_input_tokens": self.rng.randint(0, 5000)}}
        return rec

    def tool_result(self, tool_id, text, is_error=False):
        rec = self.base("user")
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": text}
        if is_error:
            block["is_error"] = True
        rec["message"] = {"role": "user", "content": [block]}
        rec["toolUseResult"] = {"stdout": text[:200], "stderr": "", "interrupted": False}
        return rec

    def attachment(self):
        rec = self.base("attachment")
        rec["attachment"] = {"type": "hook_success", "hookName": "SessionStart:startup", "toolUseID": "hook-x",
                             "hookEvent": "SessionStart", "content": prose(self.rng, self.rng.randint(60, 600)),
                             "stdout": "", "stderr": "", "exitCode": 0}
        return rec


def write_session(path, s, target_bytes, rng, planted):
    out = []
    size = 0
    while size < target_bytes:
        if rng.random() < 0.02:
            out.append("\n")  # blank lines happen in real stores; line numbers must count them
            size += 1
        recs = [s.human(prose(rng, rng.randint(40, 400)))]
        for _ in range(rng.randint(3, 14)):
            n = line_length(rng)
            tool_id = "toolu_%024x" % rng.getrandbits(96)
            tool = rng.choice(TOOLS)
            recs.append(s.assistant([{"type": "thinking", "thinking": prose(rng, rng.randint(50, 600)),
                                      "signature": "EqQBCkYIBxgCKkB" + "a" * 40}]))
            recs.append(s.assistant([{"type": "tool_use", "id": tool_id, "name": tool,
                                      "input": {"command": prose(rng, rng.randint(20, 120))}}]))
            body = prose(rng, n)
            if planted["written"] + size >= planted["next"]:
                body = body[: len(body) // 2] + " " + RARE_WORD + " " + body[len(body) // 2:]
                planted["next"] += planted["every"]
                planted["done"] += 1
            recs.append(s.tool_result(tool_id, body, is_error=rng.random() < 0.03))
            for _ in range(rng.randint(2, 5)):
                recs.append(s.attachment())
        recs.append(s.assistant([{"type": "text", "text": prose(rng, rng.randint(80, 900))}]))
        for r in recs:
            line = json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
            out.append(line)
            size += len(line.encode())
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(out)
    planted["written"] += size
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="claude home to create (writes <out>/projects/...)")
    ap.add_argument("--size-mb", type=int, default=1024, help="total size in MiB (default 1024)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--big-session-mb", type=int, default=120, help="size of each large session (0 = none)")
    ap.add_argument("--big-sessions", type=int, default=1, help="how many large sessions (default 1)")
    ap.add_argument("--session-kb", default="256,6144", help="a session's size range in KiB (default 256,6144)")
    ap.add_argument("--subagent-kb", default="64,2048", help="a subagent's size range in KiB (default 64,2048)")
    ap.add_argument("--idle-share", type=float, default=0.0,
                    help="share of files whose mtime is set 30-400 days back (a real store is mostly idle)")
    args = ap.parse_args()
    session_kb = [int(v) for v in args.session_kb.split(",")]
    subagent_kb = [int(v) for v in args.subagent_kb.split(",")]
    rng = random.Random(args.seed)
    total_target = args.size_mb << 20
    # Plant the rare word about 40 times, spread evenly over the bytes written.
    planted = {"every": max(total_target // 40, 1), "next": max(total_target // 80, 1), "done": 0, "written": 0}
    written = 0
    files = 0
    project_i = 0
    bigs_left = args.big_sessions if args.big_session_mb > 0 else 0
    written_paths = []
    while written < total_target:
        project_i += 1
        cwd = "/home/dev/projects/bench-%03d" % project_i
        pdir = os.path.join(args.out, "projects", cwd.replace("/", "-").replace("_", "-"))
        os.makedirs(pdir, exist_ok=True)
        for _ in range(rng.randint(3, 10)):
            if written >= total_target:
                break
            sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            target = rng.randint(session_kb[0] << 10, session_kb[1] << 10)
            # The large sessions are spread over the middle third of the bytes written.
            if bigs_left > 0 and written > total_target // 3 + (args.big_sessions - bigs_left) * total_target // (
                    3 * args.big_sessions):
                target, bigs_left = args.big_session_mb << 20, bigs_left - 1
            path = os.path.join(pdir, sid + ".jsonl")
            written += write_session(path, Session(rng, sid, cwd), target, rng, planted)
            written_paths.append(path)
            files += 1
            for k in range(rng.choice([0, 0, 1, 2])):
                agent = "a%016x" % rng.getrandbits(64)
                if k == 1:
                    adir = os.path.join(pdir, sid, "subagents", "workflows", "wf_%08x" % rng.getrandbits(32))
                else:
                    adir = os.path.join(pdir, sid, "subagents")
                os.makedirs(adir, exist_ok=True)
                sub = Session(rng, sid, cwd, is_sidechain=True, agent_id=agent)
                path = os.path.join(adir, "agent-%s.jsonl" % agent)
                written += write_session(path, sub, rng.randint(subagent_kb[0] << 10, subagent_kb[1] << 10), rng,
                                         planted)
                written_paths.append(path)
                with open(os.path.join(adir, "agent-%s.meta.json" % agent), "w") as f:
                    json.dump({"agentType": "general-purpose", "description": "bench agent"}, f)
                files += 1
    if args.idle_share > 0:
        now = time.time()
        for path in written_paths:
            if rng.random() < args.idle_share:
                t = now - rng.uniform(30, 400) * 86400
                os.utime(path, (t, t))
    print(json.dumps({"out": args.out, "bytes": written, "files": files, "rare_word": RARE_WORD,
                      "rare_word_records": planted["done"], "absent_word": ABSENT_WORD}))


if __name__ == "__main__":
    main()
