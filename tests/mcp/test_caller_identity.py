"""Which session am I, over MCP (issue #19). A stdio server names its caller from Claude Code's session registry
(<claude-home>/sessions/<pid>.json) of its ancestor processes, guarded against pid reuse by the start time, and
the registry wins over a stale CLAUDE_CODE_SESSION_ID. `whoami {marker}` and the target `@self:<marker>` find the
transcript whose tail holds the MCP call carrying the marker, with its ancestry, over stdio and HTTP."""
import json
import os
import shutil
import tempfile
import time
import unittest

from mcp_harness import HttpServer, StdioClient, server_env

PROJECT = "-home-dev-caller"
REGISTRY_SESSION = "c0ffee00-0000-4000-8000-000000000001"
STALE_SESSION = "c0ffee00-0000-4000-8000-000000000002"
TEAM_SESSION = "c0ffee00-0000-4000-8000-000000000003"
OTHER_SESSION = "c0ffee00-0000-4000-8000-000000000004"
LEAD_AGENT = "a1111111111111111"
CHILD_AGENT = "a2222222222222222"
MARKER = "CopperLanternMoss3917"


def record(session, kind, content, n, agent=None):
    r = {"parentUuid": None, "isSidechain": agent is not None, "type": kind, "sessionId": session,
         "cwd": "/home/dev/caller", "version": "2.1.160", "uuid": f"00000000-0000-4000-8000-{n:012d}",
         "timestamp": f"2026-11-30T10:00:{n % 60:02d}.000Z"}
    if agent:
        r["agentId"] = agent
    if kind == "user":
        r["message"] = {"role": "user", "content": content}
    else:
        r["message"] = {"id": f"msg_{n}", "model": "claude-opus-4-6", "role": "assistant", "type": "message",
                        "content": content, "stop_reason": "tool_use"}
    return json.dumps(r)


def mcp_call(tool, arguments, call_id):
    return [{"type": "tool_use", "id": call_id, "name": f"mcp__csift__{tool}", "input": arguments}]


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))


def process_start_utc(pid):
    """The process start time the way Claude Code's registry row writes procStart on unix (asctime, UTC)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    with open("/proc/stat") as f:
        btime = next(int(line.split()[1]) for line in f if line.startswith("btime"))
    start = btime + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    return time.asctime(time.gmtime(start))


def make_store(root):
    proj = os.path.join(root, "projects", PROJECT)
    write(os.path.join(proj, REGISTRY_SESSION + ".jsonl"), [record(REGISTRY_SESSION, "user", "registry one", 1)])
    write(os.path.join(proj, STALE_SESSION + ".jsonl"), [record(STALE_SESSION, "user", "stale one", 2)])
    write(os.path.join(proj, OTHER_SESSION + ".jsonl"), [record(OTHER_SESSION, "user", "other", 3)])
    # A session whose subagent spawned a subagent; the child's tail holds its own csift search call with
    # the marker, the way Claude Code writes the call before running it.
    write(os.path.join(proj, TEAM_SESSION + ".jsonl"), [
        record(TEAM_SESSION, "user", "start the team", 10),
        record(TEAM_SESSION, "assistant", [{"type": "tool_use", "id": "toolu_lead", "name": "Task",
                                            "input": {"prompt": "lead"}}], 11)])
    sub = os.path.join(proj, TEAM_SESSION, "subagents")
    write(os.path.join(sub, f"agent-{LEAD_AGENT}.jsonl"), [
        record(TEAM_SESSION, "user", "lead the work", 20, LEAD_AGENT),
        record(TEAM_SESSION, "assistant", [{"type": "tool_use", "id": "toolu_child", "name": "Task",
                                            "input": {"prompt": "child"}}], 21, LEAD_AGENT)])
    with open(os.path.join(sub, f"agent-{LEAD_AGENT}.meta.json"), "w") as f:
        json.dump({"agentType": "general-purpose", "description": "lead", "toolUseId": "toolu_lead"}, f)
    write(os.path.join(sub, f"agent-{CHILD_AGENT}.jsonl"), [
        record(TEAM_SESSION, "user", "look for the bug", 30, CHILD_AGENT),
        record(TEAM_SESSION, "assistant", mcp_call("search", {"pattern": "bug", "targets": [f"@self:{MARKER}"]},
                                                   "toolu_s1"), 31, CHILD_AGENT)])
    with open(os.path.join(sub, f"agent-{CHILD_AGENT}.meta.json"), "w") as f:
        json.dump({"agentType": "general-purpose", "description": "child", "toolUseId": "toolu_child",
                   "parentAgentId": LEAD_AGENT}, f)
    os.makedirs(os.path.join(root, "sessions"), exist_ok=True)


def write_registry_row(root, pid, session, proc_start):
    with open(os.path.join(root, "sessions", f"{pid}.json"), "w") as f:
        json.dump({"pid": pid, "sessionId": session, "cwd": "/home/dev/caller", "startedAt": 0,
                   "procStart": proc_start, "status": "busy", "kind": "interactive", "entrypoint": "cli"}, f)


def tool(client, name, arguments):
    r = client.request("tools/call", {"name": name, "arguments": arguments})
    return r["result"]


def texts(result):
    return "\n".join(c["text"] for c in result["content"])


class RegistryCaller(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="csift-caller-")
        make_store(self.home)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def server(self, launcher=(), **env):
        e = server_env(self.home, **env)
        e.pop("CLAUDE_CODE_SESSION_ID", None)
        e.pop("CODEX_COMPANION_SESSION_ID", None)
        e.update(env)
        c = StdioClient(env=e, launcher=launcher)
        c.initialize()
        self.clients.append(c)
        return c

    def assert_resolves_to(self, client, session):
        who = tool(client, "whoami", {"format": "json"})
        self.assertFalse(who.get("isError"), texts(who))
        self.assertEqual(who["structuredContent"]["rows"][0]["session_id"], session)
        stats = tool(client, "stats", {"targets": ["@main"], "format": "json"})
        self.assertFalse(stats.get("isError"), texts(stats))
        self.assertEqual([r["session_id"] for r in stats["structuredContent"]["rows"]], [session])
        return who

    def test_registry_row_of_the_parent_names_the_session(self):
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, process_start_utc(os.getpid()))
        who = self.assert_resolves_to(self.server(), REGISTRY_SESSION)
        row = who["structuredContent"]["rows"][0]
        self.assertEqual(row["source"], "registry:" + os.path.join(self.home, "sessions", f"{os.getpid()}.json"))
        self.assertIn("matched", " ".join(who["structuredContent"]["summary"]["evidence"]))

    def test_registry_found_through_an_intermediate_shell(self):
        # sh stays the server's parent: the row is two levels up.
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, process_start_utc(os.getpid()))
        c = self.server(launcher=("sh", "-c", '"$0" "$@"; exit $?'))
        who = self.assert_resolves_to(c, REGISTRY_SESSION)
        evidence = who["structuredContent"]["summary"]["evidence"]
        self.assertIn("ancestor 1", evidence[0])
        self.assertIn("no registry row", evidence[0])
        self.assertIn("ancestor 2", evidence[1])

    def test_registry_wins_over_a_stale_environment_id(self):
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, process_start_utc(os.getpid()))
        who = self.assert_resolves_to(self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION), REGISTRY_SESSION)
        summary = who["structuredContent"]["summary"]
        self.assertIn(STALE_SESSION, summary["source_note"])
        self.assertIn("registry", summary["source_note"])
        self.assertTrue(any(STALE_SESSION in e for e in summary["evidence"]))
        self.assertIn(STALE_SESSION, texts(who))  # the disagreement is stated to the model too

    def test_a_reused_pid_is_refused_by_start_time(self):
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, "Mon Jan  1 00:00:00 2024")
        who = self.assert_resolves_to(self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION), STALE_SESSION)
        summary = who["structuredContent"]["summary"]
        self.assertIn("pid was reused", " ".join(summary["evidence"]))
        self.assertIn("fell back", summary["source_note"])
        # Nothing at all: the error says how to identify yourself instead.
        err = tool(self.server(), "whoami", {})
        self.assertTrue(err.get("isError"))
        self.assertIn("marker", texts(err))


class SelfMarker(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.mkdtemp(prefix="csift-self-")
        make_store(cls.home)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def check_chain(self, result):
        self.assertFalse(result.get("isError"), texts(result))
        rows = result["structuredContent"]["rows"]
        self.assertEqual([(r["session_id"], r["depth"], r["is_subagent"]) for r in rows],
                         [(CHILD_AGENT, 0, True), (LEAD_AGENT, 1, True), (TEAM_SESSION, 2, False)])
        self.assertEqual(result["structuredContent"]["summary"]["lane"], "subagent")

    def test_stdio(self):
        c = StdioClient(env=server_env(self.home))
        try:
            c.initialize()
            self.check_chain(tool(c, "whoami", {"marker": MARKER, "format": "json"}))
            self.check_chain(tool(c, "whoami", {"self": f"@self:{MARKER}", "format": "json"}))
            # Every tool takes @self:<marker>: the subagent's own transcript (and descendants) is the scope.
            stats = tool(c, "stats", {"targets": [f"@self:{MARKER}"], "format": "json"})
            self.assertEqual([r["session_id"] for r in stats["structuredContent"]["rows"]], [CHILD_AGENT])
            shown = tool(c, "show", {"targets": [f"@self:{MARKER}"], "turn": "..", "format": "json"})
            self.assertFalse(shown.get("isError"), texts(shown))
            # An absent marker says what was searched.
            miss = tool(c, "whoami", {"marker": "BrassOrchidValley4071"})
            self.assertTrue(miss.get("isError"))
            self.assertIn("searched the last", texts(miss))
            self.assertIn("BrassOrchidValley4071", texts(miss))
        finally:
            c.close()

    def test_http(self):
        env = server_env(self.home)
        env.pop("CLAUDE_CODE_SESSION_ID", None)
        env.pop("CODEX_COMPANION_SESSION_ID", None)
        s = HttpServer(env=env)
        try:
            sid, init = s.initialize()
            h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}

            def call(n, name, arguments):
                st, _, body = s.post({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                      "params": {"name": name, "arguments": arguments}}, session=sid, headers=h)
                self.assertEqual(st, 200)
                return body["result"]

            self.check_chain(call(2, "whoami", {"marker": MARKER, "format": "json"}))
            stats = call(3, "stats", {"targets": [f"@self:{MARKER}"], "format": "json"})
            self.assertEqual([r["session_id"] for r in stats["structuredContent"]["rows"]], [CHILD_AGENT])
            # @main over HTTP has no process relation to go on: the error teaches the marker.
            main = call(4, "whoami", {})
            self.assertTrue(main.get("isError"))
            self.assertIn("@self:<marker>", texts(main))
            self.assertIn("HTTP", texts(main))
        finally:
            s.stop()

    def test_same_marker_in_two_transcripts_is_ambiguous(self):
        home = tempfile.mkdtemp(prefix="csift-self-amb-")
        try:
            make_store(home)
            other = os.path.join(home, "projects", PROJECT, OTHER_SESSION + ".jsonl")
            with open(other, "a") as f:
                f.write(record(OTHER_SESSION, "assistant", mcp_call("whoami", {"marker": MARKER}, "toolu_w"), 4)
                        + "\n")
            c = StdioClient(env=server_env(home))
            try:
                c.initialize()
                err = tool(c, "whoami", {"marker": MARKER})
                self.assertTrue(err.get("isError"))
                text = texts(err)
                self.assertIn("ambiguous", text)
                self.assertIn(CHILD_AGENT, text)
                self.assertIn(OTHER_SESSION, text)
            finally:
                c.close()
        finally:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
