"""`search --siblings` end to end through the CLI binary: the fixed per-leaf caps on a busy synthetic turn (every
unit accounted for: shown, hidden, or already in the exchange), the JSON fields (`siblings` hit objects marked
sibling, `siblings_hidden` per leaf, `turn_lines`), the text context lines and the `show` pointer (which must
fetch the whole turn), -t/-T leaving the context alone, and the gated leaves staying off the context surface."""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import harness as h  # noqa: E402

SID = "51b11b5a-0000-4000-8000-000000000001"
BASICS = "11111111-1111-4111-8111-000000000001"
CAPS = {"agent.thinking": 2, "agent.thinking.narration": 1, "agent.tool.use": 3, "agent.tool.result": 3}


def validate(header, rows, summary):
    """The envelope against the published schema (schemas/search.output.json)."""
    import jsonschema
    with open(os.path.join(h.REPO, "schemas", "search.output.json")) as f:
        jsonschema.validate({"header": header, "rows": rows, "summary": summary}, json.load(f))


def cap_of(leaf):
    if leaf in CAPS:
        return CAPS[leaf]
    return 2 if leaf.startswith("harness.") else None


def record(kind, uuid, content, parent=None):
    role = "user" if kind == "user" else "assistant"
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SID,
                       "timestamp": "2026-06-07T04:32:00.000Z", "version": "2.1.160",
                       "message": {"role": role, "content": content}}, separators=(",", ":"))


def busy_turn():
    """L1 the prompt · L2 three thinking blocks · L3-L12 five Bash use/result pairs · L13 the answer."""
    lines = [record("user", "u1", "run the checks"),
             record("assistant", "t1", [{"type": "thinking", "thinking": w} for w in ("one", "two", "three")],
                    "u1")]
    prev = "t1"
    for n in range(1, 6):
        lines.append(record("assistant", f"a{n}", [{"type": "tool_use", "id": f"toolu_{n}", "name": "Bash",
                                                    "input": {"command": f"check {n}"}}], prev))
        lines.append(record("user", f"r{n}", [{"type": "tool_result", "tool_use_id": f"toolu_{n}",
                                               "content": f"pass {n}"}], f"a{n}"))
        prev = f"r{n}"
    lines.append(record("assistant", "m1", [{"type": "text", "text": "all green"}], prev))
    return "\n".join(lines) + "\n"


# Units per leaf in the busy turn.
BUSY_UNITS = {"user.message": 1, "agent.thinking": 3, "agent.tool.use": 5, "agent.tool.result": 5,
              "agent.message": 1}


class BusyTurnTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = tempfile.mkdtemp(prefix="csift-siblings-")
        path = os.path.join(cls.home, "projects", "-work-demo", SID + ".jsonl")
        os.makedirs(os.path.dirname(path))
        with open(path, "w", encoding="utf-8") as f:
            f.write(busy_turn())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def exchange(self, pattern):
        code, header, rows, summary, err = h.run_json("search", pattern, "--siblings", "--claude-home", self.home)
        self.assertEqual(code, h.EXIT_OK, err)
        validate(header, rows, summary)
        exchanges = h.rows_of(rows, "exchange")
        self.assertEqual(len(exchanges), 1)
        return exchanges[0]

    def check_accounting(self, ex):
        """Every unit of the turn is shown once: in the exchange (a hit or its frame), as a sibling, or counted
        hidden."""
        hit_lines = {hit["line"] for hit in ex["hits"] + ex["frame"]}
        seen = {}
        for hit in ex["hits"] + ex["frame"]:
            seen[hit["label"]] = seen.get(hit["label"], 0) + 1
        shown = {}
        for sib in ex["siblings"]:
            self.assertIs(sib["sibling"], True)
            self.assertIs(sib["matched"], False)
            self.assertNotIn(sib["line"], hit_lines)
            self.assertEqual(sib["refetch"], {"tool": "show",
                                              "arguments": {"targets": [f"@{SID}"], "line": [str(sib["line"])],
                                                            "claude_home": self.home}})
            shown[sib["label"]] = shown.get(sib["label"], 0) + 1
        for leaf, total in BUSY_UNITS.items():
            hidden = ex["siblings_hidden"].get(leaf, 0)
            self.assertEqual(seen.get(leaf, 0) + shown.get(leaf, 0) + hidden, total, leaf)
            cap = cap_of(leaf)
            if cap is None:
                self.assertEqual(hidden, 0, leaf)
            else:
                self.assertLessEqual(shown.get(leaf, 0), cap, leaf)
                if hidden:
                    self.assertEqual(shown.get(leaf, 0), cap, leaf)
        self.assertEqual(ex["turn_lines"], [1, 13])

    def test_caps_on_a_final_answer_hit(self):
        ex = self.exchange("all green")
        self.check_accounting(ex)
        self.assertEqual(ex["siblings_hidden"], {"agent.thinking": 1, "agent.tool.use": 2, "agent.tool.result": 2})
        lines = [s["line"] for s in ex["siblings"]]
        self.assertEqual(lines, sorted(lines))  # file order

    def test_caps_on_a_mid_turn_hit(self):
        self.check_accounting(self.exchange("pass 4"))

    def test_text_context_lines_and_the_show_pointer(self):
        code, out, err = h.run_cli("search", "all green", "--siblings", "--claude-home", self.home)
        self.assertEqual(code, h.EXIT_OK, err)
        context = [l for l in out.splitlines() if l.startswith("  \u00b7 ")]
        self.assertTrue(any(" agent.thinking L2 " in l for l in context), out)
        pointer = f"  \u00b7 (+5 more \u00b7 csift-mcp --cli show @{SID} --line 1..13 --claude-home {self.home})"
        self.assertIn(pointer, out.splitlines())
        # The pointer is a working command: it fetches the whole turn.
        code, _, rows, summary, err = h.run_json("show", "@" + SID, "--line", "1..13", "--claude-home", self.home)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(summary["records"], 13)

    def test_no_pointer_when_nothing_is_hidden(self):
        ex = self.exchange("run the checks")
        if not ex["siblings_hidden"]:
            code, out, _ = h.run_cli("search", "run the checks", "--siblings", "--claude-home", self.home)
            self.assertNotIn("more \u00b7 csift-mcp", out)

    def test_without_the_flag_there_are_no_sibling_fields(self):
        code, _, rows, _, _ = h.run_json("search", "all green", "--claude-home", self.home)
        self.assertEqual(code, h.EXIT_OK)
        ex = h.rows_of(rows, "exchange")[0]
        self.assertNotIn("siblings", ex)
        self.assertNotIn("turn_lines", ex)


class FixtureSiblingsTest(unittest.TestCase):
    def exchanges(self, *args):
        code, header, rows, summary, err = h.run_json("search", *args, "--siblings", "--claude-home",
                                                      h.FIXTURE_HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        validate(header, rows, summary)
        return {ex["turn_index"]: ex for ex in h.rows_of(rows, "exchange")}

    def test_label_filter_narrows_hits_only(self):
        ex = self.exchanges("verbose flag", "@" + BASICS, "-t", "user")[0]
        self.assertEqual(ex["turn_lines"], [3, 10])
        labels = {s["label"] for s in ex["siblings"]}
        self.assertTrue(labels and all(not l.startswith("user.") for l in labels), labels)
        lines = {s["line"] for s in ex["siblings"]} | {hit["line"] for hit in ex["hits"] + ex["frame"]}
        self.assertEqual(lines, {3, 5, 6, 7, 8, 9, 10})  # L4 (an attachment) is behind --attachments

    def test_attachments_gate_opens_the_context_too(self):
        ex = self.exchanges("verbose flag", "@" + BASICS, "-t", "user", "--attachments")[0]
        self.assertIn(4, {s["line"] for s in ex["siblings"]})

    def test_gated_leaves_stay_off_the_context(self):
        # Basics turn 1 (L11-L17) holds stop-hooks (L15) and turn-duration (L16): gated, never parsed by default.
        ex = self.exchanges("", "@" + BASICS, "-t", "user", "--turn", "1")[1]
        self.assertEqual(ex["turn_lines"], [11, 17])
        self.assertFalse({15, 16} & {s["line"] for s in ex["siblings"]})
        for s in ex["siblings"]:
            cap = cap_of(s["label"])
            self.assertTrue(cap is None or sum(1 for t in ex["siblings"] if t["label"] == s["label"]) <= cap)


class TextSiblingsTest(unittest.TestCase):
    def test_text_mode_renders_the_context_lines(self):
        # Text rendering reads `siblings_hidden` from each exchange (once crashed on a dangling temporary).
        code, out, err = h.run_cli("search", "Bash", "@" + BASICS, "--siblings", "--claude-home", h.FIXTURE_HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertIn("\u00b7", out)
        context = [ln for ln in out.splitlines() if ln.startswith("  \u00b7")]
        self.assertTrue(context, out)


if __name__ == "__main__":
    unittest.main()
