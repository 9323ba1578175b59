"""The tool surface a model pays for: every tool definition Claude Code sends (tools/list as the pinned Claude Code
rewrites it; claude_code.py's as_sent) totals at most SURFACE_BUDGET characters, no input schema repeats the tool's
description or title, and everything served is ASCII (Claude Code rewrites '\u2026' to '...', so a definition that
promises '\u2026' in results would describe something the model never sees in the definition). The count is the one
tests/mcp/claude_code/measure.py reports and test_claude_code.py checks against what Claude Code really sent; this
test needs no Claude Code, so it guards every build. The lean text is the model's; the longer CLI help lives in the
schemas' x-cli annotations and SKILL.md (schemas/README.md)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "claude_code"))

from claude_code import SURFACE_BUDGET, as_sent, definition_chars  # noqa: E402
from mcp_harness import StdioClient  # noqa: E402

# The questions a user asks in their own words, and the tool whose description's first sentence and search hint
# must carry them (Claude Code's ToolSearch finds a deferred tool by the words of its name, its description and its
# _meta["anthropic/searchHint"]; test_claude_code.py asks the real ToolSearch).
QUESTIONS = {
    "search my session history": "search",
    "which files did i change": "files",
    "recover a file": "recover",
    "is that session done": "status",
}


def strings(obj, path=""):
    """(path, string) of every key and string value."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield path + "/" + k, k
            yield from strings(v, path + "/" + k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from strings(v, f"{path}[{i}]")


class ToolSurface(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c = StdioClient()
        try:
            cls.tools = c.request("tools/list")["result"]["tools"]
        finally:
            c.close()

    def test_the_definitions_fit_the_budget(self):
        sizes = {t["name"]: definition_chars(*as_sent(t)) for t in self.tools}
        total = sum(sizes.values())
        print("\n" + "\n".join(f"{n:16} {c:6}" for n, c in sizes.items()) + f"\n{'all':16} {total:6}",
              file=sys.stderr)
        self.assertEqual(len(sizes), 18, sorted(sizes))
        self.assertLessEqual(total, SURFACE_BUDGET, sizes)

    def test_no_input_schema_repeats_the_description(self):
        for t in self.tools:
            with self.subTest(tool=t["name"]):
                self.assertNotIn("description", t["inputSchema"])
                self.assertNotIn("title", t["inputSchema"])
                self.assertTrue(t["description"])

    def test_everything_served_is_ascii(self):
        for t in self.tools:
            with self.subTest(tool=t["name"]):
                bad = [(p, s) for p, s in strings(t) if not s.isascii()]
                self.assertEqual(bad, [])

    def test_first_sentences_name_the_questions(self):
        firsts = {t["name"]: t["description"].split(". ")[0].split("? ")[0].lower() for t in self.tools}
        for question, tool in QUESTIONS.items():
            with self.subTest(question=question):
                self.assertIn(question, firsts[tool])

    def test_every_tool_has_a_search_hint_outside_the_definition(self):
        for t in self.tools:
            with self.subTest(tool=t["name"]):
                self.assertTrue(t.get("_meta", {}).get("anthropic/searchHint"))
                self.assertNotIn("x-search-hint", t["inputSchema"])
        hints = {t["name"]: t["_meta"]["anthropic/searchHint"].lower() for t in self.tools}
        for question, tool in QUESTIONS.items():
            self.assertIn(question, hints[tool])

    def test_as_sent_rewrites_as_claude_code_does(self):
        t = {"name": "x", "description": "cut \u2026 (+3 chars)", "inputSchema": {"type": "object",
             "properties": {"a": {"type": "string", "description": "a\u2026", "enum": ["\u2026"]}}}}
        name, description, schema = as_sent(t)
        self.assertEqual((name, description), ("mcp__csift__x", "cut ... (+3 chars)"))
        self.assertEqual(schema["properties"]["a"], {"type": "string", "description": "a...", "enum": ["..."]})
        self.assertEqual(definition_chars(name, description, schema), 13 + 18 + len(
            '{"type":"object","properties":{"a":{"type":"string","description":"a...","enum":["..."]}}}'))


if __name__ == "__main__":
    unittest.main()
