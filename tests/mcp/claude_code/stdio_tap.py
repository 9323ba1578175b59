"""A stdio pass-through between Claude Code and csift-mcp for measure.py: forwards every line unchanged both ways
and logs what Claude Code sends (JSON lines to LOG), so the measurement can see the protocol it speaks and the
_meta of each tools/call, and each reply the server sends (so a call's text form can be set beside what the model
was handed). For each tools/call it also records, at the moment the call arrives, the Claude Code
session registry rows (<claude home>/sessions/*.json: Claude Code removes its row when it exits) and how many
milliseconds later the calling tool_use's id (_meta["claudecode/toolUseId"]) first appears in a transcript under
<claude home>/projects: the window in which a marker lookup cannot find the call yet.

With `--strip-tool-use-id-when KEY=VALUE` it also removes `_meta["claudecode/toolUseId"]` from every tools/call
whose arguments[KEY] is VALUE, so a test can make one call the way a client that names no tool_use does (the
server then answers from Claude Code's session registry); `--quiet` logs and watches nothing.

Usage: stdio_tap.py LOG CLAUDE_HOME [--quiet] [--strip-tool-use-id-when KEY=VALUE] -- SERVER [ARGS...]
"""
import glob
import json
import os
import subprocess
import sys
import threading
import time


def main():
    log_path, home = sys.argv[1], sys.argv[2]
    options = sys.argv[3:sys.argv.index("--")]
    quiet = "--quiet" in options
    strip = None
    if "--strip-tool-use-id-when" in options:
        strip = options[options.index("--strip-tool-use-id-when") + 1].split("=", 1)
    server = sys.argv[sys.argv.index("--") + 1:]
    child = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    log = None if quiet else open(log_path, "a", buffering=1)

    def write(entry):
        if log is None:
            return
        with lock:
            log.write(json.dumps(entry) + "\n")

    def watch(tool_use_id, arrived):
        needle = tool_use_id.encode()
        deadline = arrived + 5.0
        while time.monotonic() < deadline:
            for path in glob.glob(os.path.join(home, "projects", "*", "*.jsonl")):
                try:
                    with open(path, "rb") as f:
                        if needle in f.read():
                            write({"tool_use_in_transcript_ms": round((time.monotonic() - arrived) * 1000, 1),
                                   "toolUseId": tool_use_id})
                            return
                except OSError:
                    pass
            time.sleep(0.001)
        write({"tool_use_in_transcript_ms": None, "toolUseId": tool_use_id})

    def pump_out():
        for raw in child.stdout:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            try:
                write({"from_server": json.loads(raw)})
            except ValueError:
                write({"from_server": raw.decode("utf-8", "replace")})
        sys.stdout.close()

    out = threading.Thread(target=pump_out, daemon=True)
    out.start()
    for raw in sys.stdin.buffer:
        arrived = time.monotonic()
        try:
            msg = json.loads(raw)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("method") == "tools/call" and strip:
            params = msg.get("params") or {}
            if str((params.get("arguments") or {}).get(strip[0])) == strip[1] and \
                    (params.get("_meta") or {}).pop("claudecode/toolUseId", None):
                raw = (json.dumps(msg) + "\n").encode()
        if isinstance(msg, dict) and msg.get("method") == "tools/call" and not quiet:
            tid = ((msg.get("params") or {}).get("_meta") or {}).get("claudecode/toolUseId")
            if tid:
                # Scanned before the call is forwarded, so the server's own answer cannot be what is found.
                found_now = any(tid.encode() in open(p, "rb").read()
                                for p in glob.glob(os.path.join(home, "projects", "*", "*.jsonl")))
                write({"toolUseId_in_transcript_on_arrival": found_now, "toolUseId": tid})
                if not found_now:
                    threading.Thread(target=watch, args=(tid, arrived), daemon=True).start()
            rows, starts = {}, {}
            for p in glob.glob(os.path.join(home, "sessions", "*.json")):
                try:
                    rows[os.path.basename(p)] = row = json.load(open(p))
                    # The owner's start in clock ticks after boot (/proc/<pid>/stat field 22), to set beside
                    # the row's procStart.
                    with open(f"/proc/{int(row['pid'])}/stat") as f:
                        starts[os.path.basename(p)] = f.read().rsplit(")", 1)[1].split()[19]
                except (OSError, ValueError, KeyError, TypeError, IndexError):
                    rows.setdefault(os.path.basename(p), None)
            write({"registry_rows": rows, "proc_starttime_ticks": starts})
        write({"from_client": msg if msg is not None else raw.decode("utf-8", "replace")})
        child.stdin.write(raw)
        child.stdin.flush()
    child.stdin.close()
    out.join(timeout=30)
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
