"""Every tool gives a record the same turn (SPEC.md §4): files, image, show, search, stats, agents and verbatim
number turns through one rule (core/record/turns.h: the harness's opener and its foreign lane together).

Session C3 of fixtures/home-compacted is a Claude Code 1.0.80 session whose Task subagent wrote its records
inline (isSidechain, lines 3-8, with an Edit and a screenshot), then a compaction, then an Edit and a
screenshot of the main lane in turn 1. The subagent's prompt opens no turn of the session, so its records
belong to none; before one rule numbered turns everywhere, files and image counted it as a turn and put the
main lane's Edit and screenshot in turn 2 (`show --turn 2`: no such turn). Session C1 (two compactions) and
its subagent transcript are checked the same way."""
import unittest

import harness as h
import media_fixture as mf

HOME = mf.COMPACTED_HOME
C3 = "c0ffee00-0000-4000-8000-0000000000c3"


def rows_of(tool, *args):
    code, _header, rows, _summary, err = h.run_json(tool, "--claude-home", HOME, *args)
    assert code == h.EXIT_OK, (tool, args, err)
    return rows


def main_lane(rows):
    return [r for r in rows if not r.get("is_subagent")]


class TurnAgreement(unittest.TestCase):
    def stats_row(self, target, *args):
        """stats' row for the transcript `target` names (the session's own, not its subagents')."""
        rows = [r for r in rows_of("stats", target, *args) if r.get("kind") == "session"]
        if len(rows) > 1:
            rows = main_lane(rows)
        self.assertEqual(len(rows), 1, rows)
        return rows[0]

    def show_turns(self, target):
        """{line: turn} of every record show puts in a turn, and the number of turns."""
        turns = self.stats_row(target)["turns"]
        by_line = {}
        for n in range(turns):
            for r in rows_of("show", target, "--turn", str(n)):
                if r.get("kind") != "record":
                    continue
                self.assertEqual(r["turn_index"], n, r)
                by_line[r["line"]] = n
        code, _o, err = h.run_cli("show", "--claude-home", HOME, target, "--turn", str(turns))
        self.assertNotEqual(code, h.EXIT_OK, "show knows a turn past the count stats gives")
        return by_line, turns

    def check_agree(self, target, tool_lines, what):
        by_line, _turns = self.show_turns(target)
        for line, turn in tool_lines:
            with self.subTest(tool=what, line=line):
                self.assertEqual(turn, by_line.get(line), "%s line %d: turn %r, show says %r" %
                                 (what, line, turn, by_line.get(line)))

    def agreeing_tools(self, target, no_subagents):
        extra = ["--no-subagents"] if no_subagents else []
        files = [(r["line"], r["turn_index"]) for r in main_lane(rows_of("files", target, "--by", "timeline", *extra))
                 if r.get("kind") == "mutation"]
        images = [(r["line"], r["turn_index"]) for r in main_lane(rows_of("image", target, *extra))
                  if r.get("kind") == "image"]
        hits = []
        for ex in main_lane(rows_of("search", "", target, *extra)):
            for hit in ex.get("hits", []):
                hits.append((hit["line"], hit["turn_index"]))
        verbatim = [(r["line"], r["turn_index"]) for r in main_lane(rows_of("verbatim", target, *extra))
                    if r.get("kind") == "turn"]
        return {"files": files, "image": images, "search": hits, "verbatim": verbatim}

    def test_inline_sidechain_session(self):
        target = "@" + C3
        got = self.agreeing_tools(target, no_subagents=False)
        self.assertEqual(got["files"], [(4, None), (14, 1)])
        self.assertEqual(got["image"], [(7, None), (17, 1)])
        for tool, lines in got.items():
            self.check_agree(target, lines, tool)
        by_line, turns = self.show_turns(target)
        self.assertEqual(turns, 3)
        self.assertNotIn(4, by_line)  # the subagent's Edit is in no turn of the session

    def test_stats_turn_window_holds_the_records_show_puts_there(self):
        target = "@" + C3
        by_line, turns = self.show_turns(target)
        for n in range(turns):
            stats = self.stats_row(target, "--turn", str(n))
            shown = [r for r in rows_of("show", target, "--turn", str(n)) if r.get("kind") == "record"]
            tools = {}
            for r in shown:
                if "agent.tool.use" in r["labels"]:
                    tools[r["tool_name"]] = tools.get(r["tool_name"], 0) + 1
            with self.subTest(turn=n):
                self.assertEqual(stats["tools"], tools)

    def test_compacted_session_and_its_subagent(self):
        target = "@" + mf.C1
        got = self.agreeing_tools(target, no_subagents=True)
        self.assertTrue(got["image"] and got["search"] and got["verbatim"])
        for tool, lines in got.items():
            self.check_agree(target, lines, tool)
        agent = [r for r in rows_of("agents", target) if r.get("kind") == "agent" and r["agent_id"] == mf.AGENT]
        self.assertEqual(len(agent), 1)
        _by_line, agent_turns = self.show_turns("@" + mf.AGENT)
        self.assertEqual(agent[0]["turns"], agent_turns)
        agent_images = [(r["line"], r["turn_index"]) for r in rows_of("image", "@" + mf.AGENT)
                        if r.get("kind") == "image"]
        self.assertTrue(agent_images)
        self.check_agree("@" + mf.AGENT, agent_images, "image (subagent)")

    def test_inline_sidechain_agent_has_no_turns_of_its_own(self):
        agent = [r for r in rows_of("agents", "@" + C3) if r.get("kind") == "agent"]
        self.assertEqual([(a["shape"], a["turns"]) for a in agent], [("inline-sidechain", 0)])


if __name__ == "__main__":
    unittest.main()
