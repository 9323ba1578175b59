"""Prompts and completion (issue #18, items 11 and 12): four prompts for the questions asked most, each
rendering tool calls the model can make as they are; completion/complete offers session and agent ids for
prompt arguments and resource templates. Over stdio, and stateless over HTTP."""
import json
import re
import unittest

from mcp_harness import HttpServer, StdioClient, meta, server_env, stateless_headers

SESSION = "55555555-5555-4555-8555-000000000005"


class Prompts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = StdioClient()
        cls.init = cls.c.initialize()
        cls.tools = {t["name"]: t for t in cls.c.request("tools/list")["result"]["tools"]}

    @classmethod
    def tearDownClass(cls):
        cls.c.close()

    def test_listed_with_arguments(self):
        caps = self.init["result"]["capabilities"]
        self.assertIn("prompts", caps)
        self.assertIn("completions", caps)
        prompts = {p["name"]: p for p in self.c.request("prompts/list")["result"]["prompts"]}
        self.assertEqual(sorted(prompts), ["recap", "search_sessions", "subagent_results", "what_changed",
                                           "what_went_wrong"])
        for p in prompts.values():
            self.assertTrue(p["title"] and p["description"])
            required = "pattern" if p["name"] == "search_sessions" else "session"
            self.assertIn({"name": required, "required": True}, [{k: a[k] for k in ("name", "required")}
                                                                 for a in p["arguments"]])

    def test_every_prompt_renders_calls_that_run(self):
        """Each `tool {json}` in a prompt's text is called as it is: it must be a valid, successful call."""
        search = {"pattern": "date|parser", "project": "/Users/dev/legacy-app", "label": "user.message"}
        for name in ("recap", "what_went_wrong", "what_changed", "subagent_results", "search_sessions"):
            with self.subTest(prompt=name):
                arguments = search if name == "search_sessions" else {"session": SESSION[:8]}
                r = self.c.request("prompts/get", {"name": name, "arguments": arguments})["result"]
                msg = r["messages"][0]
                self.assertEqual(msg["role"], "user")
                text = msg["content"]["text"]
                calls = re.findall(r"`(\w+) (\{.*?\})`", text)
                self.assertTrue(calls, text)
                for tool, args in calls:
                    self.assertIn(tool, self.tools)
                    res = self.c.request("tools/call", {"name": tool, "arguments": json.loads(args)}, timeout=60)
                    self.assertFalse(res["result"]["isError"], (tool, args, res["result"]["content"][0]["text"]))

    def test_bad_prompt_calls(self):
        self.assertEqual(self.c.request("prompts/get", {"name": "nope"})["error"]["code"], -32602)
        self.assertEqual(self.c.request("prompts/get", {"name": "recap", "arguments": {}})["error"]["code"], -32602)
        bad = self.c.request("prompts/get", {"name": "recap", "arguments": {"session": "x\"; rm"}})
        self.assertEqual(bad["error"]["code"], -32602)
        bad = self.c.request("prompts/get", {"name": "search_sessions", "arguments": {"pattern": "x", "label": "tool"}})
        self.assertEqual(bad["error"]["code"], -32602)
        self.assertIn("label", bad["error"]["message"])

    def complete(self, ref, name, value):
        return self.c.request("completion/complete", {"ref": ref, "argument": {"name": name, "value": value}})

    def test_completion_of_session_ids(self):
        r = self.complete({"type": "ref/prompt", "name": "recap"}, "session", "5555")["result"]["completion"]
        self.assertEqual(r["values"], [SESSION])
        self.assertEqual((r["total"], r["hasMore"]), (1, False))
        every = self.complete({"type": "ref/prompt", "name": "recap"}, "session", "")["result"]["completion"]
        self.assertGreater(every["total"], 5)
        agents = self.complete({"type": "ref/resource", "uri": "csift://agent/{id}"}, "id", "a")["result"]["completion"]
        self.assertTrue(agents["values"])
        self.assertTrue(all(v.startswith("a") for v in agents["values"]))
        sessions = self.complete({"type": "ref/resource", "uri": "csift://session/{id}"}, "id", "")["result"]["completion"]
        self.assertNotIn("a5e1f2a", sessions["values"], "agents are not offered for the session template")
        turns = self.complete({"type": "ref/prompt", "name": "recap"}, "turns", "-")["result"]["completion"]
        self.assertIn("-3..", turns["values"])
        self.assertEqual(self.complete({"type": "ref/nope"}, "x", "")["error"]["code"], -32602)

    def test_completion_of_projects_and_labels(self):
        ref = {"type": "ref/prompt", "name": "search_sessions"}
        # Projects: the working directory the sessions recorded, and the encoded directory names.
        paths = self.complete(ref, "project", "/")["result"]["completion"]
        self.assertIn("/Users/dev/legacy-app", paths["values"])
        self.assertIn("/home/dev/projects/csift-demo", paths["values"])
        self.assertTrue(all(v.startswith("/") for v in paths["values"]))
        self.assertEqual(paths["total"], len(paths["values"]))
        dirs = self.complete(ref, "project", "-home-dev-projects-c")["result"]["completion"]
        self.assertEqual(dirs["values"], ["-home-dev-projects-csift-demo"])
        # A completed project is a target the rendered search accepts.
        got = self.c.request("prompts/get", {"name": "search_sessions",
                                             "arguments": {"pattern": "the", "project": paths["values"][0]}})
        call = re.search(r"`search (\{.*?\})`", got["result"]["messages"][0]["content"]["text"]).group(1)
        res = self.c.request("tools/call", {"name": "search", "arguments": json.loads(call)}, timeout=60)
        self.assertFalse(res["result"]["isError"], res["result"]["content"][0]["text"])
        # Labels: roles, prefixes and leaves of the taxonomy.
        labels = self.complete(ref, "label", "agent.tool")["result"]["completion"]
        self.assertEqual(labels["values"], ["agent.tool", "agent.tool.use", "agent.tool.result"])
        every = self.complete(ref, "label", "")["result"]["completion"]
        self.assertIn("harness.compaction.summary", every["values"])
        self.assertIn("user", every["values"])
        self.assertEqual(self.complete(ref, "pattern", "x")["result"]["completion"]["values"], [])


class PromptsOverHttp(unittest.TestCase):
    def test_stateless_prompt_and_completion(self):
        s = HttpServer()
        try:
            params = {"name": "recap", "arguments": {"session": SESSION}, "_meta": meta()}
            st, _, body = s.post({"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": params},
                                 headers=stateless_headers("prompts/get", "recap"))
            self.assertEqual(st, 200, body)
            self.assertIn(f"@{SESSION}", body["result"]["messages"][0]["content"]["text"])
            params = {"ref": {"type": "ref/prompt", "name": "recap"}, "argument": {"name": "session", "value": "5555"},
                      "_meta": meta()}
            st, _, body = s.post({"jsonrpc": "2.0", "id": 2, "method": "completion/complete", "params": params},
                                 headers=stateless_headers("completion/complete"))
            self.assertEqual((st, body["result"]["completion"]["values"]), (200, [SESSION]))
        finally:
            self.assertEqual(s.stop(), 0)


if __name__ == "__main__":
    unittest.main()
