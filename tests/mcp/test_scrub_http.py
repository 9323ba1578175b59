"""Scrubbing over HTTP: one server over the labelled triage corpus (fixtures/triage), every tool called in text
and JSON against the session holding the planted secrets (fixtures/triage/secrets.json), and the session's
resources; no planted value may appear in any answer, and a call may not turn scrubbing off over HTTP."""
import json
import os
import unittest

from mcp_harness import REPO, HttpServer, server_env

TRIAGE = os.path.join(REPO, "fixtures", "triage")
HOME = os.path.join(TRIAGE, "home")
SESSION = "@7a1a0000-0000-4000-8000-00000000cc01"
# Matches the lines holding secrets without naming any planted value (the header echoes the pattern).
PATTERN = "ghp_|github_pat|sk-|sk_live|AKIA|aws_secret|Bearer|PRIVATE|example|/home/|eyJ|xoxb|glpat|AIza|npm_"

# Per tool, the arguments that make it read the session's text (a tool not named here is called with the
# session as its target only).
ARGS = {
    "search": [{"pattern": PATTERN}, {"pattern": PATTERN, "harness": ["codex", "copilot", "gemini-cli"]}],
    "show": [{"line": [".."]}, {"line": [".."], "raw": True}],
    "wait": [{"until": ["stop"], "timeout": 0.2}],
    "whoami": [{}],
    "recover": [{"salvage": True}],
}


class ScrubOverHttp(unittest.TestCase):
    def test_no_planted_secret_in_any_answer(self):
        with open(os.path.join(TRIAGE, "secrets.json")) as f:
            secrets = [s["value"] for s in json.load(f)]
        env = server_env(os.path.join(HOME, ".claude"), HOME=HOME, XDG_DATA_HOME=os.path.join(HOME, "none"))
        s = HttpServer(env=env)
        try:
            sid, init = s.initialize()
            h = {"MCP-Protocol-Version": init["result"]["protocolVersion"]}
            st, _, listed = s.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, session=sid, headers=h)
            tools = [t["name"] for t in listed["result"]["tools"]]
            self.assertIn("show", tools)
            calls = 0
            redactions = 0
            for name in tools:
                for extra in ARGS.get(name, [{}]):
                    for fmt in ("text", "json"):
                        args = dict(extra, format=fmt)
                        if name != "whoami":
                            args["targets"] = [SESSION] if "harness" not in extra else []
                        st, _, body = s.post({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                              "params": {"name": name, "arguments": args}}, session=sid, headers=h)
                        self.assertEqual(st, 200, body)
                        text = json.dumps(body, ensure_ascii=False)
                        calls += 1
                        redactions += text.count("[REDACTED:")
                        for value in secrets:
                            self.assertNotIn(value, text, f"{name} {args}")
            # Resources carry transcript text too: the listing's titles and a session read back.
            for i, (method, params) in enumerate([("resources/list", {}),
                                                  ("resources/read", {"uri": "csift://session/" + SESSION[1:]})]):
                st, _, body = s.post({"jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params},
                                     session=sid, headers=h)
                self.assertEqual(st, 200, body)
                self.assertIn("result", body)
                text = json.dumps(body, ensure_ascii=False)
                redactions += text.count("[REDACTED:")
                for value in secrets:
                    self.assertNotIn(value, text, method)
            self.assertGreater(calls, len(tools))
            self.assertGreater(redactions, len(secrets))  # the secrets were read, and replaced
            st, _, body = s.post({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                                  "params": {"name": "show", "arguments": {"targets": [SESSION], "scrub": False}}},
                                 session=sid, headers=h)
            result = body["result"]
            self.assertTrue(result["isError"])
            self.assertIn("scrub", result["content"][0]["text"])
            self.assertIn("HTTP", result["content"][0]["text"])
        finally:
            self.assertEqual(s.stop(), 0)


if __name__ == "__main__":
    unittest.main()
