"""Which session am I, over MCP (issue #19). A stdio server names its caller from Claude Code's session registry
(<claude-home>/sessions/<pid>.json) of its ancestor processes, guarded against pid reuse by the start time, and
the registry wins over a stale CLAUDE_CODE_SESSION_ID. `whoami {marker}` and the target `@self:<marker>` find the
transcript whose tail holds the MCP call carrying the marker, with its ancestry, over stdio and HTTP."""
import json
import os
import shutil
import tempfile
import threading
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


def write_registry_row(root, pid, session, proc_start, pid_domain=None):
    row = {"pid": pid, "sessionId": session, "cwd": "/home/dev/caller", "startedAt": 0,
           "procStart": proc_start, "status": "busy", "kind": "interactive", "entrypoint": "cli"}
    if pid_domain:
        row["pidDomain"] = pid_domain
    with open(os.path.join(root, "sessions", f"{pid}.json"), "w") as f:
        json.dump(row, f)


def append_later(path, lines, delay):
    """Appends the lines `delay` seconds from now, the way Claude Code's batched writer lands a call's own
    tool_use after the call has reached the server. Returns the thread."""
    def run():
        time.sleep(delay)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a") as f:
            f.write("".join(line + "\n" for line in lines))
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def process_start_ticks(pid):
    """The process start time the way Claude Code 2.1.332's registry row writes procStart: the starttime of
    /proc/<pid>/stat in clock ticks after boot."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[19]


def current_pid_domain():
    """The pidDomain Claude Code 2.1.332 writes: linux:<machine-id>:pid:[<pid-namespace inode>]."""
    with open("/etc/machine-id") as f:
        return f"linux:{f.read().strip()}:{os.readlink('/proc/self/ns/pid')}"


def tool(client, name, arguments, tool_use_id=None):
    params = {"name": name, "arguments": arguments}
    if tool_use_id:
        params["_meta"] = {"claudecode/toolUseId": tool_use_id, "progressToken": 7}
    r = client.request("tools/call", params)
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

    def test_the_current_row_format_names_the_session(self):
        # Claude Code 2.1.332: pidDomain linux:<machine-id>:pid:[<ns>], procStart in clock ticks after boot.
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, process_start_ticks(os.getpid()),
                           current_pid_domain())
        who = self.assert_resolves_to(self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION), REGISTRY_SESSION)
        row = who["structuredContent"]["rows"][0]
        self.assertEqual(row["source"], "registry:" + os.path.join(self.home, "sessions", f"{os.getpid()}.json"))
        self.assertIn("matched exactly", " ".join(who["structuredContent"]["summary"]["evidence"]))
        # status probes the row's owner instead of calling it foreign.
        status = tool(self.clients[-1], "status", {"targets": ["@" + REGISTRY_SESSION], "format": "json"})
        registry = [e["value"] for e in status["structuredContent"]["rows"][0]["evidence"]
                    if e["surface"] == "registry"]
        self.assertTrue(registry and " alive " in registry[0], registry)
        self.assertNotIn("foreign", " ".join(registry))

    def test_another_machines_row_is_foreign_and_says_whose(self):
        write_registry_row(self.home, os.getpid(), REGISTRY_SESSION, process_start_ticks(os.getpid()),
                           "linux:00000000000000000000000000000000:" + os.readlink("/proc/self/ns/pid"))
        who = self.assert_resolves_to(self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION), STALE_SESSION)
        self.assertIn("another machine", " ".join(who["structuredContent"]["summary"]["evidence"]))

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


class ToolUseCaller(unittest.TestCase):
    """The call's own tool_use id (Claude Code's _meta["claudecode/toolUseId"]) names the calling transcript
    exactly, any lane, over stdio and HTTP, also when the record lands after the call arrives."""

    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="csift-tooluse-")
        make_store(self.home)
        self.proj = os.path.join(self.home, "projects", PROJECT)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def server(self, **env):
        e = server_env(self.home)
        e.pop("CLAUDE_CODE_SESSION_ID", None)
        e.pop("CODEX_COMPANION_SESSION_ID", None)
        e.update(env)
        c = StdioClient(env=e)
        c.initialize()
        self.clients.append(c)
        return c

    def chain(self, result):
        self.assertFalse(result.get("isError"), texts(result))
        return [(r["session_id"], r["depth"], r["is_subagent"]) for r in result["structuredContent"]["rows"]]

    def test_a_subagent_lane_on_disk(self):
        c = self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION)
        who = tool(c, "whoami", {"format": "json"}, tool_use_id="toolu_s1")
        self.assertEqual(self.chain(who), [(CHILD_AGENT, 0, True), (LEAD_AGENT, 1, True), (TEAM_SESSION, 2, False)])
        summary = who["structuredContent"]["summary"]
        self.assertEqual(summary["lane"], "subagent")
        self.assertEqual(who["structuredContent"]["rows"][0]["source"], "tool_use:toolu_s1")
        self.assertEqual(summary["caller_call"]["found"], True)
        self.assertEqual(summary["caller_call"]["landed_late"], False)
        self.assertIn("subagent lane " + CHILD_AGENT, summary["evidence"][0])
        # A tool_use id the transcripts hold only as a tool_result's (or inside another id) is no caller.
        self.assertNotIn("toolu_s", json.dumps(summary["evidence"][1:]))
        # Bare @self is that lane; @main its top-level session.
        stats = tool(c, "stats", {"targets": ["@self"], "format": "json"}, tool_use_id="toolu_s1")
        self.assertFalse(stats.get("isError"), texts(stats))
        self.assertEqual([r["session_id"] for r in stats["structuredContent"]["rows"]], [CHILD_AGENT])
        main = tool(c, "stats", {"targets": ["@main"], "format": "json"}, tool_use_id="toolu_s1")
        # @main is the top-level session (with its lanes, as @<uuid> is).
        self.assertEqual([r["session_id"] for r in main["structuredContent"]["rows"]],
                         [TEAM_SESSION, LEAD_AGENT, CHILD_AGENT])

    def test_a_call_that_lands_late_is_waited_for(self):
        c = self.server()
        path = os.path.join(self.proj, REGISTRY_SESSION + ".jsonl")
        t = append_later(path, [record(REGISTRY_SESSION, "assistant", mcp_call("whoami", {}, "toolu_late_main"), 40)],
                         0.4)
        who = tool(c, "whoami", {"format": "json"}, tool_use_id="toolu_late_main")
        t.join()
        self.assertEqual(self.chain(who), [(REGISTRY_SESSION, 0, False)])
        call = who["structuredContent"]["summary"]["caller_call"]
        self.assertTrue(call["landed_late"], call)
        self.assertGreaterEqual(call["waited_ms"], 300)
        self.assertEqual(call["woken_by"], "inotify")
        # Woken when it landed, not at the bound: the wait's own notice found it ("appended"); a wait that ran to
        # its bound finds it, if at all, in the last look at the store ("recent").
        self.assertEqual(call["found_among"], "appended", call)
        self.assertIn("landed", who["structuredContent"]["summary"]["evidence"][0])

    def test_a_new_lane_that_appears_late(self):
        c = self.server()
        lane = os.path.join(self.proj, OTHER_SESSION, "subagents", "agent-a3333333333333333.jsonl")
        t = append_later(lane, [record(OTHER_SESSION, "user", "go", 50, "a3333333333333333"),
                                record(OTHER_SESSION, "assistant", mcp_call("whoami", {}, "toolu_late_lane"), 51,
                                       "a3333333333333333")], 0.3)
        who = tool(c, "whoami", {"format": "json"}, tool_use_id="toolu_late_lane")
        t.join()
        self.assertEqual(self.chain(who), [("a3333333333333333", 0, True), (OTHER_SESSION, 1, False)])

    def test_a_call_that_never_lands_falls_back_saying_why(self):
        c = self.server(CLAUDE_CODE_SESSION_ID=STALE_SESSION)
        who = tool(c, "whoami", {"format": "json"}, tool_use_id="toolu_never_written")
        self.assertFalse(who.get("isError"), texts(who))
        sc = who["structuredContent"]
        self.assertEqual(sc["rows"][0]["session_id"], STALE_SESSION)
        self.assertEqual(sc["rows"][0]["source"], "env:CLAUDE_CODE_SESSION_ID")
        self.assertIn("in no transcript", sc["summary"]["evidence"][0])
        self.assertIn("fell back", sc["summary"]["source_note"])
        self.assertGreaterEqual(sc["summary"]["caller_call"]["waited_ms"], 1900)

    def test_status_on_its_own_session_names_the_current_call(self):
        # The previous call (stats) is on disk unreturned; its result and this status call's own tool_use land
        # 400 ms after the status call arrives, as Claude Code's batched writer does it.
        path = os.path.join(self.proj, REGISTRY_SESSION + ".jsonl")
        with open(path, "a") as f:
            f.write(record(REGISTRY_SESSION, "assistant", mcp_call("stats", {}, "toolu_prev"), 41) + "\n")
        result = json.dumps({"parentUuid": None, "isSidechain": False, "type": "user", "sessionId": REGISTRY_SESSION,
                             "cwd": "/home/dev/caller", "uuid": "00000000-0000-4000-8000-000000000042",
                             "timestamp": "2026-11-30T10:00:42.000Z",
                             "message": {"role": "user", "content": [{"type": "tool_result",
                                                                       "tool_use_id": "toolu_prev",
                                                                       "content": "stats result"}]}})
        t = append_later(path, [result, record(REGISTRY_SESSION, "assistant",
                                               mcp_call("status", {}, "toolu_own_status"), 43)], 0.4)
        c = self.server()
        status = tool(c, "status", {"targets": ["@" + REGISTRY_SESSION], "format": "json"},
                      tool_use_id="toolu_own_status")
        t.join()
        self.assertFalse(status.get("isError"), texts(status))
        row = status["structuredContent"]["rows"][0]
        self.assertIn("this very call (mcp__csift__status", row["tail_state"])
        self.assertNotIn("mcp__csift__stats", row["tail_state"])
        caller = [e["value"] for e in row["evidence"] if e["surface"] == "caller"]
        self.assertTrue(caller and "main transcript of session " + REGISTRY_SESSION in caller[0], caller)
        self.assertTrue(any("the call running now" in n for n in row["notes"]), row["notes"])

    def test_http(self):
        env = server_env(self.home)
        env.pop("CLAUDE_CODE_SESSION_ID", None)
        s = HttpServer(env=env)
        try:
            sid, init = s.initialize()
            h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}

            def call(n, name, arguments, tool_use_id):
                st, _, body = s.post({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                      "params": {"name": name, "arguments": arguments,
                                                 "_meta": {"claudecode/toolUseId": tool_use_id}}},
                                     session=sid, headers=h)
                self.assertEqual(st, 200)
                return body["result"]

            self.assertEqual(self.chain(call(2, "whoami", {"format": "json"}, "toolu_s1")),
                             [(CHILD_AGENT, 0, True), (LEAD_AGENT, 1, True), (TEAM_SESSION, 2, False)])
            main = call(3, "stats", {"targets": ["@main"], "format": "json"}, "toolu_s1")
            self.assertFalse(main.get("isError"), texts(main))
            # @main is the top-level session (with its lanes, as @<uuid> is).
            self.assertEqual([r["session_id"] for r in main["structuredContent"]["rows"]],
                             [TEAM_SESSION, LEAD_AGENT, CHILD_AGENT])
        finally:
            s.stop()


if __name__ == "__main__":
    unittest.main()
