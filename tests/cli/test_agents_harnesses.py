"""`agents` beyond Claude Code (SPEC.md §9.6 "Other harnesses"): on Codex, Copilot CLI, Gemini CLI and
OpenCode 1/2 sessions from fixtures/fidelity/agents/ (built by fixtures/make_agents_fidelity_fixtures.py in
each harness's current and older shapes) it lists the children the harness records — spawn call, prompt,
status, what it returned, the child's ref — with a spawn that failed as a row carrying its failure, and says
what the harness does not record. The real corpus logs hold no sub-agents: agents on them lists none."""
import glob
import os
import subprocess
import unittest

import corpus_store as cs

AGENTS = os.path.join(cs.FIXTURES, "fidelity", "agents")
CX_PARENT = "codex:019d0000-0000-7000-8000-00000000a001"
CX_CHILD = "019d0000-0000-7000-8000-00000000a002"
CX_NESTED = "019d0000-0000-7000-8000-00000000a003"
CX_OLD = "codex:019d0000-0000-7000-8000-00000000b001"
CX_ZST = "codex:019d0000-0000-7000-8000-00000000c001"
CX_ZST_CHILD = "019d0000-0000-7000-8000-00000000c002"
CP_NEW = "copilot:5f1b0000-0000-4000-8000-0000000000c1"
CP_OLD = "copilot:5f1b0000-0000-4000-8000-0000000000c2"
GM_MAIN = "gemini-cli:8a7e0000-0000-4000-8000-0000000000d1"


def run(args, extra_env=None):
    env = dict(os.environ, TZ="UTC", CODEX_HOME=os.path.join(AGENTS, "codex"),
               COPILOT_HOME=os.path.join(AGENTS, "copilot"), GEMINI_CLI_HOME=os.path.join(AGENTS, "gemini"),
               OPENCODE_DB=os.path.join(AGENTS, "opencode", "opencode-v1.db"), XDG_DATA_HOME="/nonexistent-xdg")
    env.update(extra_env or {})
    p = subprocess.run([cs.binary(), "--cli"] + args + ["--claude-home", cs.FIXTURE_HOME, "--format", "json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=60)
    return p.returncode, cs.parse_envelope(p.stdout), p.stderr


def agents_of(target, extra_env=None, extra_args=()):
    code, (_h, rows, summary), err = run(["agents", target, "--returned-message"] + list(extra_args), extra_env)
    assert code == 0, err
    return {r["agent_id"]: r for r in rows if r["kind"] == "agent"}, rows, summary


class CodexAgentsTest(unittest.TestCase):
    def test_spawned_threads_failed_spawns_and_nesting(self):
        agents, rows, summary = agents_of(CX_PARENT)
        child = agents[CX_CHILD]
        self.assertEqual(child["shape"], "codex-thread")
        self.assertEqual(child["ref"], "codex:" + CX_CHILD)
        self.assertEqual(child["spawn_tool"], "spawn_agent")
        self.assertEqual(child["spawn_tool_use_id"], "call_sp1")
        self.assertEqual(child["name"], "Euclid")
        self.assertEqual(child["agent_type"], "explorer")
        self.assertEqual(child["model"], "gpt-5.4-mini")
        self.assertEqual(child["prompt"], "Find every unchecked read in parser.c")
        self.assertEqual(child["status"], "completed")
        self.assertEqual(child["returned_message"], "Three unchecked reads: lines 40, 88, 131.")
        self.assertEqual(child["returned_message_source"], "codex-agent-status")
        self.assertEqual(child["tool_calls"], {"shell": 1, "spawn_agent": 1})
        self.assertEqual(child["tokens"]["gpt-5.4-mini"]["output_tokens"], 120)
        # The thread the child spawned hangs under it.
        nested = agents[CX_NESTED]
        self.assertEqual(nested["parent_agent_id"], CX_CHILD)
        self.assertEqual(nested["depth"], 1)
        self.assertEqual(nested["returned_message"], "Line 131 reads past the buffer.")
        # A spawn refused by the depth limit, and one whose only record is a failed item: rows with failures.
        self.assertEqual(agents["call_sp2"]["status"], "failed")
        self.assertIn("depth limit", agents["call_sp2"]["failure"])
        self.assertEqual(agents["call_sp3"]["status"], "failed")
        self.assertIn("failed", agents["call_sp3"]["failure"])
        self.assertEqual(summary["agents"], 4)

    def test_older_shape_and_child_rollouts_listed_once(self):
        agents, _rows, _s = agents_of(CX_OLD)
        (child,) = agents.values()
        self.assertEqual(child["ref"], "codex:019d0000-0000-7000-8000-00000000b002")
        self.assertEqual(child["status"], "running")  # its newest call never answered
        self.assertEqual(child["pending_tool_name"], "shell")
        self.assertEqual(child["prompt"], "Run the test suite and report failures")
        # Over the whole store the sub-agents' own rollouts are not sessions of their own.
        code, (_h, rows, summary), err = run(["agents", "--harness", "codex"])
        self.assertEqual(code, 0, err)
        sessions = [r["session_id"] for r in rows if r["kind"] == "session"]
        self.assertEqual(sorted(sessions), sorted([CX_PARENT, CX_OLD, CX_ZST]))
        self.assertEqual(summary["agents"], 6)

    def test_compressed_parent_and_child_rollouts(self):
        # Both rollouts are .jsonl.zst: the spawn call is read from the parent's decompressed stream, the
        # child's parent, nickname and final message from its own.
        agents, _rows, _s = agents_of(CX_ZST)
        (child,) = agents.values()
        self.assertEqual(child["agent_id"], CX_ZST_CHILD)
        self.assertEqual(child["ref"], "codex:" + CX_ZST_CHILD)
        self.assertEqual(child["spawn_tool_use_id"], "call_z1")
        self.assertEqual(child["prompt"], "Which tokens does the lexer drop?")
        self.assertEqual(child["name"], "Noether")
        self.assertEqual(child["status"], "completed")
        self.assertEqual(child["returned_message"], "It drops comments and BOMs.")
        self.assertEqual(child["returned_message_source"], "child-task-complete")

    def test_the_childs_ref_reaches_show(self):
        code, (header, _rows, _s), err = run(["show", "codex:" + CX_CHILD, "--turn", ".."])
        self.assertEqual(code, 0, err)
        self.assertEqual(header["transcript_id"], "codex:" + CX_CHILD)


class CopilotAgentsTest(unittest.TestCase):
    def check_common(self, agents):
        ok = agents["tc_task1"]
        self.assertEqual(ok["shape"], "copilot-subagent")
        self.assertEqual(ok["ref"], ok["parent_session_id"])  # its events are inline in the session's log
        self.assertEqual(ok["status"], "completed")
        self.assertEqual(ok["agent_type"], "explore")
        self.assertEqual(ok["description"], "Find the config loader")
        self.assertEqual(ok["returned_message"], "The config is parsed in src/config.ts, loadConfig() at line 12.")
        self.assertEqual(ok["returned_message_source"], "task-tool-result")
        self.assertEqual(ok["recorded"]["total_tokens"], 4321)
        self.assertEqual(ok["recorded"]["inline_tool_calls"], 1)
        self.assertIn("totalTokens", ok["not_recorded"])
        bad = agents["tc_task2"]
        self.assertEqual(bad["status"], "failed")
        self.assertEqual(bad["failure"], "Model overloaded: 529")

    def test_current_shape_with_a_background_agent(self):
        agents, _rows, _s = agents_of(CP_NEW)
        self.check_common(agents)
        bg = agents["tc_task3"]
        self.assertEqual(bg["status"], "completed")
        self.assertEqual(bg["returned_message"], "Version 2 drops Node 16 support.")
        self.assertEqual(bg["returned_message_source"], "read-agent-result")

    def test_older_shape_parent_tool_call_id(self):
        agents, _rows, _s = agents_of(CP_OLD)
        self.check_common(agents)
        self.assertEqual(len(agents), 2)


class GeminiAgentsTest(unittest.TestCase):
    def test_linked_failed_and_unlinked_subagents(self):
        agents, _rows, _s = agents_of(GM_MAIN)
        ok = agents["8a7e0000-0000-4000-8000-0000000000d2"]
        self.assertEqual(ok["shape"], "gemini-subagent")
        self.assertEqual(ok["spawn_tool"], "codebase_investigator")
        self.assertEqual(ok["status"], "completed")
        self.assertEqual(ok["returned_message"], "Auth goes through middleware/session.ts.")
        self.assertIn("Map the auth flow", ok["prompt"])
        self.assertEqual(ok["ref"], "gemini-cli:8a7e0000-0000-4000-8000-0000000000d2")
        self.assertEqual(ok["tokens"]["gemini-2.5-flash"]["output_tokens"], 70)
        bad = agents["8a7e0000-0000-4000-8000-0000000000d3"]
        self.assertEqual(bad["status"], "failed")
        self.assertIn("quota exceeded", bad["failure"])
        old = agents["8a7e0000-0000-4000-8000-0000000000d4"]
        self.assertIsNone(old["spawn_tool"])
        self.assertIn("do not link", old["not_recorded"])

    def test_a_subagents_ref_reaches_show(self):
        # The ref agents prints for a sub-agent log (which store listings leave out) names that log.
        agents, _rows, _s = agents_of(GM_MAIN)
        for agent_id in ("8a7e0000-0000-4000-8000-0000000000d2", "8a7e0000-0000-4000-8000-0000000000d4"):
            ref = agents[agent_id]["ref"]
            code, (header, rows, _s), err = run(["show", ref, "--turn", ".."])
            self.assertEqual(code, 0, err)
            self.assertEqual(header["transcript_id"], ref)
        self.assertIn("Four routes.", str(rows))
        # A prefix names a listed session before a child log; listings still leave the logs out.
        code, (header, _rows, _s), err = run(["show", "gemini-cli:8a7e0000", "--turn", ".."])
        self.assertEqual(code, 0, err)
        self.assertEqual(header["transcript_id"], GM_MAIN)
        code, (_h, rows, _s), err = run(["list", "--harness", "gemini-cli"])
        self.assertEqual(code, 0, err)
        self.assertEqual([r["session_id"] for r in rows if r.get("kind") == "session"], [GM_MAIN])


class OpenCodeAgentsTest(unittest.TestCase):
    def test_v1_task_calls_and_child_sessions(self):
        agents, _rows, _s = agents_of("opencode-v1:ses_oc1_main")
        child = agents["ses_oc1_child"]
        self.assertEqual(child["shape"], "opencode-child")
        self.assertEqual(child["spawn_tool"], "task")
        self.assertEqual(child["spawn_tool_use_id"], "toolu_task1")
        self.assertEqual(child["spawn_line"], 2)
        self.assertEqual(child["agent_type"], "explore")
        self.assertEqual(child["status"], "completed")
        self.assertEqual(child["returned_message"], "Routes live in src/routes.ts (12 of them).")
        self.assertEqual(child["ref"], "opencode-v1:ses_oc1_child")
        self.assertEqual(child["tokens"]["claude-haiku-4"]["output_tokens"], 20)
        bad = agents["toolu_task2"]
        self.assertEqual(bad["status"], "failed")
        self.assertIn("Unknown agent type", bad["failure"])
        orphan = agents["ses_oc1_orphan"]
        self.assertIsNone(orphan["spawn_tool"])
        self.assertIn("no task call", orphan["not_recorded"])

    def test_v2_child_session(self):
        env = {"OPENCODE_DB": os.path.join(AGENTS, "opencode", "opencode-v2.db")}
        agents, _rows, _s = agents_of("opencode-v2:ses_oc2_main", env)
        child = agents["ses_oc2_child"]
        self.assertEqual(child["status"], "completed")
        self.assertEqual(child["returned_message"], "12 routes in src/routes.ts")
        self.assertEqual(child["ref"], "opencode-v2:ses_oc2_child")

    def test_a_child_sessions_ref_reaches_show(self):
        for db, main, kids in (("opencode-v1.db", "opencode-v1:ses_oc1_main", ("ses_oc1_child", "ses_oc1_orphan")),
                               ("opencode-v2.db", "opencode-v2:ses_oc2_main", ("ses_oc2_child",))):
            env = {"OPENCODE_DB": os.path.join(AGENTS, "opencode", db)}
            agents, _rows, _s = agents_of(main, env)
            for kid in kids:
                ref = agents[kid]["ref"]
                code, (header, rows, _s), err = run(["show", ref, "--turn", ".."], env)
                self.assertEqual(code, 0, err)
                self.assertEqual(header["transcript_id"], ref)
                self.assertTrue(rows)
                if kid == "ses_oc1_child":
                    self.assertIn("Routes live in src/routes.ts", str(rows))


class CorpusAgentsTest(unittest.TestCase):
    """The corpus's Codex rollouts (skills, localpush) and OpenCode export record no sub-agent: none listed."""

    def test_corpus_codex_rollouts_hold_no_subagents(self):
        corpus = cs.corpus_root()
        rollouts = sorted(glob.glob(os.path.join(corpus or "/nonexistent", "localpush", "**", "rollout-*.jsonl"),
                                    recursive=True))
        if not rollouts:
            self.skipTest("corpus not present")
        home = os.path.dirname(os.path.dirname(rollouts[0]))  # .../raw, holding sessions/
        code, (_h, rows, summary), err = run(["agents", "--harness", "codex"], {"CODEX_HOME": home})
        self.assertEqual(code, 0, err)
        self.assertEqual(summary["agents"], 0)
        self.assertEqual(rows, [])


if __name__ == "__main__":
    unittest.main()
