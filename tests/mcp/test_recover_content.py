"""`recover` over MCP (SPEC.md §9.13): the restored content comes back as text within the call's output budget;
larger, its row is windowed and continue_with carries char_offset, and following it reassembles the file
exactly. A refusal is an error result whose text names the known and missing ranges."""
import os
import re
import unittest

from mcp_harness import REPO, StdioClient, server_env

HOME = os.path.join(REPO, "fixtures", "recover-home")
LONG = "/home/dev/projects/mend/long.txt"
WANT = "".join(f"row {i:02d}: the quick brown fox jumps over the lazy dog\n" for i in range(200))


class RecoverContent(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = StdioClient(env=server_env(claude_home=HOME))
        cls.c.initialize()

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def call(self, args):
        return self.c.request("tools/call", {"name": "recover", "arguments": args}, timeout=60)["result"]

    def test_content_is_text_within_the_budget_and_continues(self):
        r = self.call({"file": LONG, "max_chars": 0})
        self.assertFalse(r["isError"])
        self.assertEqual(r["content"][0]["text"], WANT)
        args, got, calls = {"file": LONG, "max_chars": 4000}, "", 0
        while True:
            r = self.call(args)
            calls += 1
            self.assertFalse(r["isError"])
            self.assertLessEqual(len(r["content"][0]["text"]), 4000)
            row = r["structuredContent"]["rows"][0]
            part = re.sub(r"^\(\u2026 \d+ chars before\) ", "", row["content"])
            got += re.sub(r"\u2026 \(\+\d+ chars\)$", "", part)
            nxt = r["structuredContent"]["summary"].get("continue_with", {})
            if "char_offset" not in nxt:
                break
            args = nxt
        self.assertGreater(calls, 2)
        self.assertEqual(got, WANT)

    def test_a_refusal_names_the_ranges(self):
        r = self.call({"targets": ["@d2000000"], "file": "/home/dev/projects/mend/big.txt"})
        self.assertTrue(r["isError"])
        self.assertIn("known lines 1..5, missing 6..10", r["content"][0]["text"])
        self.assertIn("salvage", r["content"][0]["text"])
        self.assertNotIn("--salvage", r["content"][0]["text"])


if __name__ == "__main__":
    unittest.main()
