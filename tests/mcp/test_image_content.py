"""`image` over MCP (SPEC.md §9.9): attach returns the one addressed image as MCP image content — base64 with
its mime type, whose decoding is the payload's — within the call's output budget; a listing alone carries
no image content, and an image over the budget is an error that names the budget that would fit."""
import base64
import hashlib
import json
import os
import unittest

from mcp_harness import REPO, StdioClient, server_env

HOME = os.path.join(REPO, "fixtures", "home-compacted")
C1 = "c0ffee00-0000-4000-8000-0000000000c1"
C1_PATH = os.path.join(HOME, "projects", "-home-dev-projects-media-demo", C1 + ".jsonl")


def payload(line, ordinal):
    """The base64 text of image `ordinal` (direct blocks and tool-result parts, in order) on `line` of C1."""
    with open(C1_PATH, encoding="utf-8") as f:
        record = json.loads(f.read().split("\n")[line - 1])
    found = []
    for b in record["message"]["content"]:
        if b.get("type") == "image":
            found.append(b["source"])
        elif b.get("type") == "tool_result" and isinstance(b.get("content"), list):
            found += [p["source"] for p in b["content"] if p.get("type") == "image"]
    return found[ordinal - 1]


class ImageContent(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = StdioClient(env=server_env(claude_home=HOME))
        cls.c.initialize()

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def call(self, args):
        return self.c.request("tools/call", {"name": "image", "arguments": args}, timeout=60)["result"]

    def test_attach_returns_the_payload_as_image_content(self):
        for locator, line, ordinal in (("L15i1", 15, 1), ("L19i1", 19, 1), ("L27i1", 27, 1)):
            with self.subTest(locator=locator):
                r = self.call({"targets": ["@" + C1], "no_subagents": True, "id": [locator], "attach": True,
                               "max_chars": 0})
                self.assertFalse(r["isError"], r["content"][0]["text"])
                images = [c for c in r["content"] if c["type"] == "image"]
                self.assertEqual(len(images), 1)
                source = payload(line, ordinal)
                self.assertEqual(images[0]["mimeType"], source["media_type"])
                self.assertEqual(hashlib.sha256(base64.b64decode(images[0]["data"])).hexdigest(),
                                 hashlib.sha256(base64.b64decode(source["data"])).hexdigest())
                self.assertEqual(r["structuredContent"]["summary"]["attached"], locator)
                self.assertEqual(r["content"][0]["type"], "text")  # the listing still comes first

    def test_listing_alone_and_budget(self):
        r = self.call({"targets": ["@" + C1], "no_subagents": True, "id": ["3"]})
        self.assertFalse(r["isError"])
        self.assertEqual([c["type"] for c in r["content"]], ["text"])
        r = self.call({"targets": ["@" + C1], "no_subagents": True, "id": ["3"], "attach": True, "max_chars": 40})
        self.assertTrue(r["isError"])
        self.assertIn("over the output budget max_chars=40", r["content"][0]["text"])
        r = self.call({"targets": ["@" + C1], "no_subagents": True, "attach": True, "max_chars": 0})
        self.assertTrue(r["isError"])
        self.assertIn("returns exactly one image", r["content"][0]["text"])


if __name__ == "__main__":
    unittest.main()
