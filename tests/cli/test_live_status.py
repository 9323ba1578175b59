"""status and wait on a live session: a simulator (live_session.py) appends records while the tools run,
and each verdict and each wait condition must be reached exactly when the session reaches it.
    cd tests/cli && CSIFT_MCP_BIN=... python3 -m unittest -v test_live_status
"""
import json
import os
import select
import subprocess
import time
import unittest

import harness as h
from live_session import LiveSession

EXIT_TIMEOUT = 124


class LiveStatus(unittest.TestCase):
    def setUp(self):
        self.sim = LiveSession()

    def tearDown(self):
        self.sim.cleanup()

    def status(self, *extra):
        code, header, rows, summary, err = h.run_json("status", "@" + self.sim.id, "--claude-home", self.sim.home, *extra)
        self.assertEqual(code, 0, err)
        self.assertEqual(len(rows), 1)
        return rows[0]

    def assertVerdict(self, expected, *extra):
        row = self.status(*extra)
        self.assertEqual(row["verdict"], expected, json.dumps(row, indent=1)[:3000])
        surfaces = {e["surface"] for e in row["evidence"]}
        self.assertTrue({"registry", "tail", "sidecar", "children", "background"} <= surfaces, surfaces)
        return row

    def test_each_verdict_as_the_session_moves(self):
        sim = self.sim
        sim.prompt("run the tests please")
        bash = sim.tool_use("Bash", {"command": "pytest -q", "description": "Run tests"})
        row = self.assertVerdict("running")
        self.assertIn("in a Bash call", row["tail_state"])
        self.assertEqual(row["last"]["human"]["excerpt"], "run the tests please")
        # Nothing in the registry: the verdict says it rested on the transcript alone.
        self.assertTrue(any("registry" in n and "transcript alone" in n for n in row["notes"]), row["notes"])

        sim.tool_result(bash, "3 passed")
        spawn = sim.tool_use("Task", {"description": "review", "prompt": "review the diff", "subagent_type": "general-purpose"})
        lane = sim.lane("a1b2c3d4e5f60718", spawn, "review the diff")
        lane.prompt("review the diff")
        read = lane.tool_use("Read", {"file_path": "/tmp/live/sim/x.py"})
        row = self.assertVerdict("waiting-children")
        self.assertEqual([c["agent_id"] for c in row["children"]], ["a1b2c3d4e5f60718"])
        self.assertEqual(row["children"][0]["state"], "in-flight")
        # Without the lanes the same session is running a Task call whose lane is not read.
        self.assertVerdict("running", "--no-subagents")

        lane.tool_result(read, "ok")
        lane.say("looks good")
        sim.tool_result(spawn, "review: looks good")
        sim.sidecar("pending", "toolu_ask1")
        row = self.assertVerdict("waiting-hitl")
        self.assertEqual([p["kind"] for p in row["pending"]], ["AskUserQuestion"])
        self.assertEqual(row["settled_children"], 1)

        sim.sidecar("resolved", "toolu_ask1")
        bg = sim.tool_use("Bash", {"command": "npm run dev", "description": "Dev server", "run_in_background": True})
        sim.tool_result(bg, "Command running in background with ID: b7636e2.", {"backgroundTaskId": "b7636e2"})
        sim.say("The dev server is up.")
        row = self.assertVerdict("idle-background-open")
        self.assertEqual(row["background"]["open_counted"], 1)
        self.assertEqual(row["background"]["tasks"][0]["task_id"], "b7636e2")
        # The lens: a known never-returning service does not count, and is still listed.
        row = self.assertVerdict("idle-eot", "--ignore-background", "npm run dev")
        self.assertFalse(row["background"]["tasks"][0]["counted"])
        self.assertVerdict("idle-eot", "--background-since", "now")

        sim.task_notification("b7636e2", "completed")
        sim.say("The server exited.")
        row = self.assertVerdict("idle-eot")
        self.assertEqual(row["background"]["closed"], {"completed": 1})
        self.assertTrue(any("PERMISSION" in n for n in row["notes"]), row["notes"])

    def test_older_builds_end_a_turn_with_a_system_marker(self):
        # Claude Code 2.1.39 (../shared/corpus/spotter) persists stop_reason null on a turn's last message and
        # writes turn_duration / stop_hook_summary after it.
        self.sim.prompt("hello")
        self.sim.say("Hi.", stop_reason=None)
        self.assertVerdict("running")
        self.sim.append({"type": "system", "subtype": "stop_hook_summary", "content": ""})
        self.assertEqual(self.assertVerdict("idle-eot")["tail_state"][:4], "idle")

    def test_a_workflow_run_with_agents_in_flight_keeps_the_session_waiting(self):
        sim = self.sim
        sim.prompt("run the review workflow")
        sim.say("Started the workflow.")
        self.assertVerdict("idle-eot")
        run = "wf_5f3a9c"
        os.makedirs(os.path.join(sim.project, sim.id, "workflows"))
        with open(os.path.join(sim.project, sim.id, "workflows", run + ".json"), "w") as f:
            json.dump({"runId": run, "name": "review"}, f)
        jdir = os.path.join(sim.project, sim.id, "subagents", "workflows", run)
        os.makedirs(jdir)
        journal = os.path.join(jdir, "journal.jsonl")

        def event(**e):
            with open(journal, "a") as f:
                f.write(json.dumps(e) + "\n")
        event(type="started", agentId="w1")
        event(type="started", agentId="w2")
        event(type="result", agentId="w1", result="done")
        row = self.assertVerdict("waiting-children")
        self.assertEqual(row["workflows"], [{"run_id": run, "workflow": "review", "started": 2, "returned": 1,
                                             "in_flight": ["w2"]}])
        self.assertTrue(any(e["surface"] == "workflow" and "1 in flight" in e["value"] for e in row["evidence"]),
                        row["evidence"])
        event(type="result", agentId="w2", result={"ok": True})
        row = self.assertVerdict("idle-eot")
        self.assertEqual(row["workflows"][0]["in_flight"], [])
        self.assertFalse(any("workflow journals" in n for n in row["notes"]), row["notes"])

    def test_the_harness_task_list_in_both_directory_forms(self):
        sim = self.sim
        sim.prompt("plan it")
        sim.say("Planned.")
        row = self.assertVerdict("idle-eot")
        self.assertIsNone(row["tasks"])  # no directory: not an empty list
        by_uuid = os.path.join(sim.home, "tasks", sim.id)
        by_prefix = os.path.join(sim.home, "tasks", "session-" + sim.id[:8])
        os.makedirs(by_uuid)
        self.assertEqual(self.status()["tasks"], [])
        os.makedirs(by_prefix)
        tasks = [(by_uuid, {"id": "1", "subject": "Write parser", "status": "completed", "blockedBy": []}),
                 (by_uuid, {"id": "2", "subject": "Test parser", "status": "pending", "blockedBy": ["3"]}),
                 (by_prefix, {"id": "3", "subject": "Fix lexer", "status": "in_progress",
                              "activeForm": "Fixing lexer", "blockedBy": []})]
        for d, t in tasks:
            with open(os.path.join(d, t["id"] + ".json"), "w") as f:
                json.dump(t, f)
        with open(os.path.join(by_prefix, "4.json"), "w") as f:
            f.write("{torn")
        row = self.assertVerdict("idle-eot")
        self.assertEqual([(t["id"], t["status"], t["blocked_by"]) for t in row["tasks"]],
                         [("3", "in_progress", []), ("2", "pending", ["3"])])
        self.assertEqual(row["tasks"][0]["active_form"], "Fixing lexer")
        self.assertEqual(row["tasks_completed"], 1)
        self.assertTrue(any("1 task file(s) could not be parsed" in n for n in row["notes"]), row["notes"])
        self.assertTrue(any(e["surface"] == "tasks" and "2 open" in e["value"] for e in row["evidence"]))

    def test_background_launches_inside_a_subagent_lane(self):
        sim = self.sim
        sim.prompt("review")
        spawn = sim.tool_use("Task", {"description": "review", "prompt": "review", "subagent_type": "general-purpose"})
        lane = sim.lane("b1c2d3e4f5a60718", spawn, "review")
        lane.prompt("review")
        bg = lane.tool_use("Bash", {"command": "make watch", "description": "Watch build", "run_in_background": True})
        lane.tool_result(bg, "Command running in background with ID: bb01.", {"backgroundTaskId": "bb01"})
        lane.say("Watching.")
        sim.tool_result(spawn, "review: done")
        sim.say("Review finished.")
        row = self.assertVerdict("idle-background-open")
        self.assertEqual([(t["task_id"], t["lane"]) for t in row["background"]["tasks"]],
                         [("bb01", "b1c2d3e4f5a60718")])
        # Its completion is reported on the main lane.
        sim.task_notification("bb01", "completed")
        sim.say("The watcher exited.")
        row = self.assertVerdict("idle-eot")
        self.assertEqual(row["background"]["closed"], {"completed": 1})
        self.assertFalse(any("main lane only" in n for n in row["notes"]), row["notes"])

    def test_registry_owner_liveness_with_the_reuse_guard(self):
        sim = self.sim
        sim.prompt("go")
        sim.tool_use("Bash", {"command": "sleep 100"})
        sim.register(os.getpid(), "busy")
        row = self.assertVerdict("running")
        registry = [e["value"] for e in row["evidence"] if e["surface"] == "registry"]
        self.assertIn(" alive ", registry[0])
        # The same pid, but the row was written by a process that started an hour earlier: the pid was
        # reused by another process, so the owner is gone and the tail's open call is stale.
        sim.register(os.getpid(), "busy", proc_start="Tue Dec  1 00:00:01 2020")
        row = self.assertVerdict("stale-dead")
        registry = [e["value"] for e in row["evidence"] if e["surface"] == "registry"]
        self.assertIn("pid-reused", registry[0])
        self.assertNotIn(" alive ", registry[0])
        # A dead pid: a process that has exited.
        gone = subprocess.Popen(["true"])
        gone.wait()
        os.remove(os.path.join(sim.home, "sessions", f"{os.getpid()}.json"))
        sim.register(gone.pid, "idle", proc_start="Tue Dec  1 00:00:01 2020")
        self.assertVerdict("stale-dead")
        os.remove(os.path.join(sim.home, "sessions", f"{gone.pid}.json"))
        # A live row saying waiting (a permission prompt) is the only witness of that block.
        sim.register(os.getpid(), "waiting")
        self.assertVerdict("waiting-hitl")


    def test_the_hook_writes_the_sidecar_that_status_reads(self):
        sim = self.sim
        sim.prompt("pick one")
        sim.say("Let me ask.", stop_reason="tool_use")

        def hook(event, **fields):
            payload = {"session_id": sim.id, "transcript_path": sim.path, "cwd": "/tmp/live/sim",
                       "hook_event_name": event, **fields}
            code, out, err = h.run(["hook", "elicitation"], stdin=json.dumps(payload))
            self.assertEqual(code, 0, err)

        ask = {"questions": [{"question": "Which?", "header": "Pick", "multiSelect": False,
                              "options": [{"label": "a", "description": ""}]}]}
        hook("PreToolUse", tool_name="AskUserQuestion", tool_input=ask, tool_use_id="toolu_hook1")
        hook("PreToolUse", tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="toolu_other")  # not ours
        row = self.assertVerdict("waiting-hitl")
        self.assertEqual([(p["kind"], p["key"]) for p in row["pending"]], [("AskUserQuestion", "toolu_hook1")])
        hook("PostToolUse", tool_name="AskUserQuestion", tool_input=ask, tool_use_id="toolu_hook1")
        hook("Elicitation", mcp_server_name="tracker", message="Which project?")
        row = self.assertVerdict("waiting-hitl")
        self.assertEqual([p["kind"] for p in row["pending"]], ["mcp-elicitation"])
        hook("ElicitationResult", mcp_server_name="tracker", action="accept")
        self.assertEqual(self.status()["pending"], [])
        sidecar = os.path.join(sim.project, sim.id, "elicitations.jsonl")
        with open(sidecar) as f:
            phases = [json.loads(line)["csiftPhase"] for line in f]
        self.assertEqual(phases, ["pending", "resolved", "pending", "resolved"])
        self.assertEqual(sorted(os.listdir(os.path.join(sim.project, sim.id))), ["elicitations.jsonl"])
        code, out, err = h.run(["hook", "elicitation"], stdin="not json")
        self.assertEqual(code, 1)
        self.assertIn("not JSON", err)


class LiveWait(unittest.TestCase):
    def setUp(self):
        self.sim = LiveSession()
        self.sim.prompt("start")
        self.bash = self.sim.tool_use("Bash", {"command": "make build"})

    def tearDown(self):
        self.sim.cleanup()

    def start_wait(self, *args):
        p = subprocess.Popen([h.binary(), "--cli", "wait", "@" + self.sim.id, "--claude-home", self.sim.home,
                              "--format", "json", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=h.test_env())
        # The readiness line comes after the baseline: anything appended from here on is an event.
        ready = p.stderr.readline().decode()
        self.assertIn("watching", ready)
        return p

    def still_waiting(self, p, seconds=0.4):
        r, _, _ = select.select([p.stdout], [], [], seconds)
        return not r and p.poll() is None

    def finish(self, p):
        out, err = p.communicate(timeout=30)
        header, rows, summary = h.parse_envelope(out.decode())
        return p.returncode, rows[0], summary

    def test_event_conditions_fire_on_new_records_only(self):
        sim = self.sim
        sim.tool_use("Bash", {"command": "pytest -k old"})  # history: never an event
        p = self.start_wait("--until", "tool:Bash:pytest", "--until", "auq", "--timeout", "20")
        self.assertTrue(self.still_waiting(p))
        sim.tool_use("Edit", {"file_path": "/tmp/x.py", "old_string": "a", "new_string": "b"})
        self.assertTrue(self.still_waiting(p))
        sim.tool_use("Bash", {"command": "pytest -q tests"})
        code, row, summary = self.finish(p)
        self.assertEqual((code, row["fired"]), (0, "tool:Bash:pytest"))
        self.assertEqual(row["activity"]["tool_calls"], {"Bash": 1, "Edit": 1})

    def test_auq_fires_on_a_sidecar_born_after_the_start(self):
        p = self.start_wait("--until", "auq", "--timeout", "20")
        self.assertTrue(self.still_waiting(p))
        self.sim.sidecar("pending", "toolu_ask9")
        code, row, summary = self.finish(p)
        self.assertEqual((code, row["fired"], row["verdict"]), (0, "auq", "waiting-hitl"))

    def test_child_lane_and_write_conditions(self):
        sim = self.sim
        sim.tool_result(self.bash, "built")
        p = self.start_wait("--until", "verdict:waiting-children", "--timeout", "20")
        spawn = sim.tool_use("Task", {"description": "fix", "prompt": "fix it"})
        self.assertTrue(self.still_waiting(p))  # a spawn whose lane is not there yet is still running
        lane = sim.lane("0f1e2d3c4b5a6978", spawn)
        lane.prompt("fix it")
        lane.tool_use("Grep", {"pattern": "bug"})
        code, row, _ = self.finish(p)
        self.assertEqual((code, row["fired"]), (0, "verdict:waiting-children"))
        p = self.start_wait("--until", "write:\\.py$:retry", "--timeout", "20")
        lane.tool_use("Write", {"file_path": "/tmp/live/sim/notes.md", "content": "retry"})
        self.assertTrue(self.still_waiting(p))
        lane.tool_use("Edit", {"file_path": "/tmp/live/sim/net.py", "old_string": "x", "new_string": "retry(x)"})
        code, row, _ = self.finish(p)
        self.assertEqual((code, row["fired"]), (0, "write:\\.py$:retry"))
        self.assertIn("net.py", row["fired_by"])
        self.assertEqual(row["activity"]["tool_calls"], {"Edit": 1, "Write": 1})

    def test_a_lane_born_in_a_session_dir_that_had_no_subagents(self):
        # Discovery lists the session's <id>/ dir and looks for subagents/ only where it holds one; a wait
        # polls the lanes and must look again each time, not trust the listing it started from.
        sim = self.sim
        sim.tool_result(self.bash, "built")
        os.makedirs(os.path.join(sim.project, sim.id, "tool-results"), exist_ok=True)
        p = self.start_wait("--until", "verdict:waiting-children", "--timeout", "20")
        spawn = sim.tool_use("Task", {"description": "probe", "prompt": "probe it"})
        self.assertTrue(self.still_waiting(p))
        lane = sim.lane("1a2b3c4d5e6f7089", spawn)
        lane.prompt("probe it")
        code, row, _ = self.finish(p)
        self.assertEqual((code, row["fired"]), (0, "verdict:waiting-children"))

    def test_stop_waits_out_an_open_background_shell_then_fires(self):
        sim = self.sim
        sim.tool_result(self.bash, "built")
        p = self.start_wait("--until", "stop", "--until", "notification:b99", "--timeout", "20")
        bg = sim.tool_use("Bash", {"command": "npm run dev", "run_in_background": True})
        sim.tool_result(bg, "Command running in background with ID: b99.", {"backgroundTaskId": "b99"})
        sim.say("Server started.")
        self.assertTrue(self.still_waiting(p, 0.8))  # idle-background-open is not a stop
        sim.task_notification("b99", "killed")
        code, row, summary = self.finish(p)
        self.assertEqual((code, row["fired"]), (0, "notification:b99"))
        p = self.start_wait("--until", "stop", "--timeout", "20")
        self.assertTrue(self.still_waiting(p))  # the notification reopened the turn: generating
        sim.say("It was killed.")
        code, row, summary = self.finish(p)
        self.assertEqual((code, row["fired"], row["verdict"]), (0, "stop", "idle-eot"))
        self.assertEqual(row["background"]["closed"], {"killed": 1})

    def test_timeout_exits_124_with_the_report(self):
        code, out, err = h.run_cli("wait", "@" + self.sim.id, "--claude-home", self.sim.home, "--until", "stop",
                                   "--timeout", "0.3", "--format", "json")
        self.assertEqual(code, EXIT_TIMEOUT, err)
        header, rows, summary = h.parse_envelope(out)
        self.assertEqual((rows[0]["fired"], summary["timed_out"]), ("timeout", True))
        self.assertIn("in a Bash call", rows[0]["at_exit"])
        code, out, err = h.run_cli("wait", "@" + self.sim.id, "--claude-home", self.sim.home, "--until", "stop",
                                   "--timeout", "0.3")
        self.assertEqual(code, EXIT_TIMEOUT, err)
        self.assertIn("fired timeout", out)

    def test_bad_calls_are_usage_errors(self):
        base = ["@" + self.sim.id, "--claude-home", self.sim.home]
        code, out, err = h.run_cli("wait", *base, "--until", "stop")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--timeout", err)
        code, out, err = h.run_cli("wait", *base, "--until", "idle", "--timeout", "1")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("stop | hitl | auq", err)


if __name__ == "__main__":
    unittest.main()
