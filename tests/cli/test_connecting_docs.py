"""How to connect csift-mcp to Claude Code (issue 9, point 19): the shipped mcp.json is a valid server entry
for the built binary, and the README documents both a user-scope registration and a project `.mcp.json`, and
where SKILL.md goes. Checked against the files themselves, so the docs cannot drift from what ships."""
import json
import os
import re
import unittest

import harness as h


def read(name):
    with open(os.path.join(h.REPO, name), encoding="utf-8") as f:
        return f.read()


class ConnectingDocs(unittest.TestCase):
    def test_shipped_mcp_json_names_the_built_binary_over_stdio(self):
        config = json.loads(read("mcp.json"))
        server = config["mcpServers"]["csift"]
        self.assertEqual(server["type"], "stdio")
        self.assertTrue(server["command"].endswith("build/csift-mcp"))
        # The shipped arguments start a server that answers and exits cleanly at end of input.
        ping = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}) + "\n"
        code, out, err = h.run(server["args"], stdin=ping)
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(json.loads(out)["id"], 1)

    def test_readme_documents_user_scope_and_a_project_mcp_json(self):
        readme = read("README.md")
        connect = readme[readme.index("## Connect it to Claude Code"):readme.index("## Use it from a shell")]
        self.assertRegex(connect, r"claude mcp add --scope user csift -- ")
        self.assertIn("--scope project", connect)
        self.assertIn(".mcp.json", connect)
        self.assertIn("mcp.json", connect)
        self.assertIn("--claude-home DIR", connect)

    def test_readme_and_skill_say_where_skill_md_goes(self):
        self.assertIn("~/.claude/skills/csift/SKILL.md", read("README.md"))
        self.assertIn("~/.claude/skills/csift/SKILL.md", read("SKILL.md"))
        self.assertTrue(re.match(r"---\nname: csift\n", read("SKILL.md")))


if __name__ == "__main__":
    unittest.main()
