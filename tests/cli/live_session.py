"""A live Claude Code session, simulated: a temporary claude home whose transcript, subagent lanes,
elicitation sidecar and session registry row are appended to while `status` and `wait` run. Records are
shaped like Claude Code 2.1's (see fixtures/ and ../shared/corpus for real ones), stamped with the current
instant so the live rules (a young tail is generating) see them as they would a real session.

    sim = LiveSession()
    sim.prompt("run the tests")
    sim.tool_use("Bash", {"command": "pytest"})   # a call in flight
"""
import datetime
import json
import os
import shutil
import tempfile
import uuid

PROJECT = "-tmp-live-sim"


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def process_start_asctime(pid):
    """A process's start time as Claude Code writes `procStart` on unix: asctime in UTC."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[19])
    with open("/proc/stat") as f:
        btime = next(int(line.split()[1]) for line in f if line.startswith("btime"))
    start = btime + ticks / os.sysconf("SC_CLK_TCK")
    return datetime.datetime.fromtimestamp(start, datetime.timezone.utc).strftime("%a %b %e %H:%M:%S %Y")


class Lane:
    """One transcript file (the main session or a subagent) that records are appended to."""

    def __init__(self, path, session_id, agent_id=None):
        self.path, self.session_id, self.agent_id = path, session_id, agent_id
        self.last_uuid = None
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "a").close()

    def append(self, record):
        record.setdefault("uuid", str(uuid.uuid4()))
        record.setdefault("parentUuid", self.last_uuid)
        record.setdefault("sessionId", self.session_id)
        record.setdefault("timestamp", now_iso())
        record.setdefault("cwd", "/tmp/live/sim")
        record.setdefault("version", "2.1.200")
        record.setdefault("isSidechain", self.agent_id is not None)
        if self.agent_id:
            record.setdefault("agentId", self.agent_id)
        self.last_uuid = record["uuid"]
        with open(self.path, "a") as f:  # one write of a whole line, as Claude Code appends
            f.write(json.dumps(record) + "\n")
        return record

    def prompt(self, text):
        return self.append({"type": "user", "message": {"role": "user", "content": text}})

    def tool_use(self, name, tool_input, tool_id=None):
        tool_id = tool_id or "toolu_" + uuid.uuid4().hex[:20]
        self.append({"type": "assistant", "message": {
            "role": "assistant", "model": "claude-opus-4-6", "id": "msg_" + uuid.uuid4().hex[:16],
            "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}],
            "stop_reason": "tool_use"}})
        return tool_id

    def tool_result(self, tool_id, text, tool_use_result=None):
        record = {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": text, "is_error": False}]}}
        if tool_use_result is not None:
            record["toolUseResult"] = tool_use_result
        return self.append(record)

    def say(self, text, stop_reason="end_turn"):
        return self.append({"type": "assistant", "message": {
            "role": "assistant", "model": "claude-opus-4-6", "id": "msg_" + uuid.uuid4().hex[:16],
            "content": [{"type": "text", "text": text}], "stop_reason": stop_reason}})

    def task_notification(self, task_id, status, summary="Background command completed"):
        text = (f"<task-notification>\n<task-id>{task_id}</task-id>\n<status>{status}</status>\n"
                f"<summary>{summary}</summary>\n</task-notification>")
        return self.append({"type": "user", "message": {"role": "user", "content": text},
                            "origin": {"kind": "task-notification"}})


class LiveSession(Lane):
    """The main lane of a fresh session in a temporary claude home, plus its lanes, sidecar and registry."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="csift-live-")
        self.id = str(uuid.uuid4())
        self.project = os.path.join(self.home, "projects", PROJECT)
        super().__init__(os.path.join(self.project, self.id + ".jsonl"), self.id)

    def cleanup(self):
        shutil.rmtree(self.home, ignore_errors=True)

    def lane(self, agent_id, spawn_tool_id, description="simulated subagent"):
        d = os.path.join(self.project, self.id, "subagents")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"agent-{agent_id}.meta.json"), "w") as f:
            json.dump({"agentType": "general-purpose", "description": description, "toolUseId": spawn_tool_id}, f)
        return Lane(os.path.join(d, f"agent-{agent_id}.jsonl"), self.id, agent_id)

    def sidecar(self, phase, key, kind="AskUserQuestion"):
        """One elicitation-sidecar marker, as `csift-mcp hook elicitation` writes it."""
        d = os.path.join(self.project, self.id)
        os.makedirs(d, exist_ok=True)
        line = {"sessionId": self.id, "timestamp": now_iso(), "csift": "elicitation-marker-v1",
                "csiftPhase": phase, "csiftKind": kind, "csiftKey": key}
        if phase == "pending":
            line.update({"type": "assistant", "uuid": "csift-pending-" + key, "message": {
                "role": "assistant", "content": [{"type": "tool_use", "id": key, "name": kind, "input": {
                    "questions": [{"question": "Ship it?", "header": "Ship", "multiSelect": False,
                                   "options": [{"label": "yes", "description": ""}]}]}}]}})
        else:
            line["type"] = "csift-elicitation-resolved"
        with open(os.path.join(d, "elicitations.jsonl"), "a") as f:
            f.write(json.dumps(line) + "\n")

    def register(self, pid, status, proc_start=None):
        """The registry row `<home>/sessions/<pid>.json` naming this session."""
        d = os.path.join(self.home, "sessions")
        os.makedirs(d, exist_ok=True)
        row = {"pid": pid, "sessionId": self.id, "cwd": "/tmp/live/sim", "status": status,
               "statusUpdatedAt": int(datetime.datetime.now().timestamp() * 1000),
               "procStart": proc_start if proc_start is not None else process_start_asctime(pid)}
        tmp = os.path.join(d, f".{pid}.json.tmp")
        with open(tmp, "w") as f:
            json.dump(row, f)
        os.replace(tmp, os.path.join(d, f"{pid}.json"))
