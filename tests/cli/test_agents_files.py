"""`agents` and `files` over the hand-built stores: fixtures/agents-home (a workflow session, a teammate session,
a nested-subagent session; fixtures/make_agent_fixtures.py says what each holds) and fixtures/home (session 4's
mixed tree, the CC 1.x legacy layouts). Expected values are read off the fixture text, not off the tool.
"""
import json
import os
import unittest

import harness as h

AGENTS_HOME = os.path.join(h.REPO, "fixtures", "agents-home")
CWD = "/home/dev/projects/fleet"
SW = "a0000000-0000-4000-8000-0000000000a1"
ST = "b0000000-0000-4000-8000-0000000000b2"
SN = "c0000000-0000-4000-8000-0000000000c3"


def run_json(tool, *args, home=AGENTS_HOME):
    code, header, rows, summary, err = h.run_json(tool, "--claude-home", home, *args)
    assert code == 0, f"{tool} exited {code}: {err}"
    import jsonschema
    with open(os.path.join(h.REPO, "schemas", tool + ".output.json")) as f:
        jsonschema.validate({"header": header, "rows": rows, "summary": summary}, json.load(f))
    return header, rows, summary


def tree(rows):
    """[(kind, id, depth or None)] in row order."""
    out = []
    for r in rows:
        if r["kind"] == "session":
            out.append(("session", r["session_id"], None))
        elif r["kind"] == "run":
            out.append(("run", r["run_id"], None))
        else:
            out.append(("agent", r["agent_id"], r["depth"]))
    return out


def agent(rows, agent_id):
    found = [r for r in rows if r["kind"] == "agent" and r["agent_id"] == agent_id]
    assert len(found) == 1, f"{agent_id}: {len(found)} rows"
    return found[0]


class AgentsTreeTest(unittest.TestCase):
    def test_workflow_session(self):
        _h, rows, summary = run_json("agents", "@" + SW, "--returned-message")
        self.assertEqual(tree(rows), [("session", SW, None), ("run", "wf_api0001", None),
                                      ("agent", "wf0000000000000a", 0), ("agent", "wf0000000000000b", 0),
                                      ("agent", "a11ce0000000000a", 0)])
        run = rows[1]
        self.assertEqual(run["spawn_tool_use_id"], "toolu_W_flow_0002")
        self.assertEqual(run["workflow_name"], "api-docs")
        done = agent(rows, "wf0000000000000a")
        self.assertEqual((done["status"], done["returned_message_source"], done["returned_message"]),
                         ("completed", "workflow-journal", "section-1.md written"))
        self.assertEqual(done["run_id"], "wf_api0001")
        open_lane = agent(rows, "wf0000000000000b")
        self.assertEqual(open_lane["status"], "running")
        self.assertEqual(open_lane["pending_tool_use_id"], "toolu_Wb_write_12")
        self.assertIsNone(open_lane["completed_utc"])
        async_agent = agent(rows, "a11ce0000000000a")
        self.assertEqual(async_agent["spawn_tool_use_id"], "toolu_W_task_0004")
        self.assertEqual(async_agent["returned_message_source"], "async-child-tail")
        self.assertEqual(async_agent["returned_message"], "All 14 links resolve.")
        self.assertEqual(async_agent["trigger_utc"], "2026-04-01T10:00:04.000Z")
        self.assertEqual(async_agent["started_utc"], "2026-04-01T10:00:06.000Z")
        self.assertEqual((summary["runs"], summary["agents"], summary["orphans"]), (1, 3, 0))

    def test_teammate_session(self):
        _h, rows, summary = run_json("agents", "@" + ST, "--returned-message")
        self.assertEqual(tree(rows), [("session", ST, None), ("agent", "ap1-engine-9cf2a1b2c3d4e5f6", 0),
                                      ("agent", "e0e0e0e0e0e0e0e0", 0)])
        tm = agent(rows, "ap1-engine-9cf2a1b2c3d4e5f6")
        self.assertEqual((tm["shape"], tm["name"], tm["team_name"], tm["agent_type"]),
                         ("teammate", "p1-engine", "fleet", "general-purpose"))
        self.assertEqual(tm["spawn_tool_use_id"], "toolu_T_team_0002")
        self.assertEqual((tm["status"], tm["pending_tool_name"]), ("running", "SendMessage"))
        self.assertEqual(tm["returned_message_source"], "async-child-tail")
        self.assertIn("control_hint", tm)
        ex = agent(rows, "e0e0e0e0e0e0e0e0")
        self.assertEqual((ex["status"], ex["returned_message_source"]), ("completed", "sync-tool-result"))
        self.assertTrue(ex["returned_message"].startswith("The lexer is src/lex.c."))
        self.assertEqual(summary["teammates"], 1)
        code, out, _err = h.run_cli("agents", "--claude-home", AGENTS_HOME, "@" + ST, "--returned-message")
        self.assertEqual(code, 0)
        self.assertIn("NOT its outcome", out)  # the open teammate lane's message is branded as history
        self.assertIn("SendMessage", out)

    def test_nested_session(self):
        _h, rows, summary = run_json("agents", "@" + SN)
        self.assertEqual(tree(rows), [("session", SN, None), ("agent", "aaaa00000000000a", 0),
                                      ("agent", "bbbb00000000000b", 1), ("agent", "cccc00000000000c", 2),
                                      ("agent", "acompact-5e5e5e", 0)])
        self.assertEqual(agent(rows, "bbbb00000000000b")["parent_agent_id"], "aaaa00000000000a")
        self.assertEqual(agent(rows, "bbbb00000000000b")["spawned_by"], "aaaa00000000000a")
        self.assertEqual(agent(rows, "cccc00000000000c")["parent_agent_id"], "bbbb00000000000b")
        orphan = agent(rows, "acompact-5e5e5e")
        self.assertTrue(orphan["orphan"])
        self.assertIn("no spawning call", orphan["orphan_reason"])
        self.assertEqual(summary["orphans"], 1)
        self.assertEqual(rows[0]["spawns_without_transcript"], 0)
        code, out, _err = h.run_cli("agents", "--claude-home", AGENTS_HOME, "@" + SN)
        lines = [ln for ln in out.splitlines() if "AGENT " in ln]
        self.assertEqual([len(ln) - len(ln.lstrip()) for ln in lines], [2, 6, 10, 2])  # the tree, drawn
        self.assertIn("ORPHAN", out)

    def test_grab_one_agent_with_files(self):
        _h, rows, summary = run_json("agents", "@" + SN, "--agent", "bbbb00000000000b", "--with-files")
        self.assertEqual([r["kind"] for r in rows], ["session", "agent"])
        node = rows[1]
        self.assertEqual(node["returned_message"], "Fixture data created.")  # its own spawn's result, in A
        self.assertEqual(sorted(f["path"] for f in node["files_changed"]),
                         [CWD + "/tests/data", CWD + "/tests/data/rows.json"])
        self.assertTrue(all(f["heuristic"] for f in node["files_changed"]))
        code, _out, err = h.run_cli("agents", "--claude-home", AGENTS_HOME, "@" + SN, "--agent", "ffff")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("no subagent ffff", err)

    def test_shape_and_window_filters(self):
        _h, rows, _s = run_json("agents", "--shape", "workflow")
        self.assertEqual([r["agent_id"] for r in rows if r["kind"] == "agent"], ["wf0000000000000a", "wf0000000000000b"])
        _h, rows, _s = run_json("agents", "--since", "2026-04-03T10:00:10Z", "--until", "2026-04-03T10:00:20Z")
        self.assertEqual([r["agent_id"] for r in rows if r["kind"] == "agent"], ["bbbb00000000000b", "cccc00000000000c"])
        _h, rows, _s = run_json("agents", "@" + SN, "--order-by", "completion", "--since", "2026-04-03T10:00:50Z")
        self.assertEqual([r["agent_id"] for r in rows if r["kind"] == "agent"], ["aaaa00000000000a", "acompact-5e5e5e"])

    def test_fixture_home_session_4_and_legacy(self):
        home = h.FIXTURE_HOME
        _h, rows, _s = run_json("agents", "@44444444", home=home)
        self.assertEqual(tree(rows)[1:], [("run", "wf_7c1d2e3f", None), ("agent", "b0b1b2b3b4b5b6b7", 0),
                                          ("agent", "a1b2c3d4e5f60718", 0), ("agent", "a9f8e7d6c5b4a3f2", 1),
                                          ("agent", "aTeamLead-68a2a1661c9390c1", 0)])
        self.assertEqual(agent(rows, "aTeamLead-68a2a1661c9390c1")["spawn_tool_use_id"], "toolu_04SubsAgent0006")
        _h, rows, _s = run_json("agents", os.path.join(home, "projects", "-Users-dev-legacy-app"), home=home)
        inline = [r for r in rows if r["kind"] == "agent" and r["shape"] == "inline-sidechain"]
        self.assertEqual([r["spawn_tool_use_id"] for r in inline], ["toolu_05LegacyTask003"])
        flat = sorted(r["agent_id"] for r in rows if r["kind"] == "agent" and r["shape"] == "legacy-flat")
        self.assertEqual(flat, ["a5e1f2a", "a6d0c1e"])
        self.assertTrue(all(r["orphan"] for r in rows if r["kind"] == "agent" and r["shape"] == "legacy-flat"))


class FilesTest(unittest.TestCase):
    def test_by_file_spans_subagents_and_keeps_only_landed_edits(self):
        _h, rows, s = run_json("files", "@" + SN, "--by", "file")
        files = {r["path"]: r for r in rows if r["kind"] == "file"}
        self.assertEqual(files[CWD + "/src/config.py"]["ops"], {"edit": 1, "write": 1})
        self.assertEqual(files[CWD + "/src/config.py"]["creates"], 1)
        self.assertEqual(files[CWD + "/tests/test_config.py"]["ops"], {"multi-edit": 1})
        self.assertEqual(files[CWD + "/tests/test_config.py"]["sessions"], ["aaaa00000000000a"])
        self.assertEqual(files[CWD + "/nb/explore.ipynb"]["ops"], {"notebook-edit": 1})
        self.assertNotIn(CWD + "/tests/missing.py", files)  # errored: never landed
        self.assertNotIn(CWD + "/never.txt", files)  # no result: unconfirmed
        self.assertEqual(files[CWD + "/build/old.o"]["ops"], {"rm": 1})
        self.assertEqual(files[CWD + "/bin/app"]["ops"], {"mv-to": 1})
        self.assertEqual((s["structured_mutations"], s["heuristic_mutations"]), (4, 6))
        self.assertEqual((s["failed_calls"], s["unconfirmed_calls"], s["edit_before_read_boundaries"]), (2, 1, 1))
        bounds = [r for r in rows if r["kind"] == "boundary"]
        self.assertEqual([(b["path"], b["line"], b["cause"]) for b in bounds],
                         [(CWD + "/src/config.py", 5, "modified-since-read")])

    def test_timeline_rows_carry_line_turn_and_resolution(self):
        _h, rows, _s = run_json("files", "@" + SN, "--by", "timeline", "--no-subagents")
        muts = [r for r in rows if r["kind"] == "mutation"]
        self.assertEqual([(m["line"], m["op"], m["turn_index"]) for m in muts],
                         [(2, "write", 0), (6, "edit", 0), (8, "rm", 0), (8, "redirect", 0), (8, "mv-from", 0),
                          (8, "mv-to", 0), (13, "notebook-edit", 1)])
        rm = [m for m in muts if m["op"] == "rm"][0]
        self.assertEqual((rm["path"], rm["resolution"], rm["path_verbatim"], rm["heuristic"]),
                         (CWD + "/build/old.o", "cd-tracked", "old.o", True))

    def test_summary_dir_filters_and_turn(self):
        _h, rows, _s = run_json("files", "@" + SN)
        buckets = {r["dir"]: r["ops"] for r in rows if r["kind"] == "bucket"}
        self.assertEqual(buckets[CWD + "/src"], {"edit": 1, "write": 1})
        _h, rows, _s = run_json("files", "@" + SN, "--by", "dir")
        self.assertEqual({r["dir"]: r["files"] for r in rows if r["kind"] == "dir"}[CWD + "/build"], 3)
        _h, rows, s = run_json("files", "@" + SN, "--by", "file", "--glob", "**/tests/**")
        self.assertEqual(sorted(r["path"] for r in rows if r["kind"] == "file"),
                         [CWD + "/tests/data", CWD + "/tests/data/rows.json", CWD + "/tests/test_config.py"])
        _h, rows, s = run_json("files", "@" + SN, "--by", "file", "--regex", r"config\.py$")
        self.assertEqual(sorted(r["path"] for r in rows if r["kind"] == "file"),
                         [CWD + "/src/config.py", CWD + "/tests/test_config.py"])
        self.assertEqual(s["edit_before_read_boundaries"], 1)
        _h, rows, s = run_json("files", "@" + SN, "--by", "file", "--turn", "1", "--no-subagents")
        self.assertEqual([r["path"] for r in rows if r["kind"] == "file"], [CWD + "/nb/explore.ipynb"])
        _h, rows, s = run_json("files", "@" + SN, "--glob", "/nowhere/**")
        self.assertEqual(rows, [])
        code, out, _e = h.run_cli("files", "--claude-home", AGENTS_HOME, "@" + SN, "--glob", "/nowhere/**")
        self.assertEqual((code, out), (0, "no file mutations found\n"))

    def test_text_and_bad_arguments(self):
        code, out, _e = h.run_cli("files", "--claude-home", AGENTS_HOME, "@" + SN, "--by", "timeline")
        self.assertEqual(code, 0)
        self.assertIn("(heuristic, cd-tracked)", out)
        self.assertIn("⚠ " + CWD + "/src/config.py L5", out)
        self.assertIn("[agent aaaa00000000000a]", out)
        code, _o, err = h.run_cli("files", "--claude-home", AGENTS_HOME, "--regex", "(")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--regex", err)
        code, _o, err = h.run_cli("files", "--claude-home", AGENTS_HOME, "--by", "tree")
        self.assertEqual(code, h.EXIT_USAGE)


if __name__ == "__main__":
    unittest.main()
