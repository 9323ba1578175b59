"""The sessions_* tools over one mixed store holding all seven readers (Claude Code, Codex, Copilot CLI, Gemini
CLI, OpenCode 1, OpenCode 2, Cursor), assembled in a temporary $HOME from the labelled triage fixtures and the
OpenCode generator: sessions_list and sessions_digest answer for every harness. Then what issue #33 left to the
triage tools: the saved selection applied to an unprocessed digest, the human's allow_unknown_project decision
(command line only), and a file the reader does not read listed as a session row in state unsupported-format."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import harness as h

FIXTURES = os.path.realpath(os.path.join(h.REPO, "fixtures"))
TRIAGE_HOME = os.path.join(FIXTURES, "triage", "home")
MAKE_OPENCODE_DB = os.path.join(FIXTURES, "opencode", "make_opencode_db.sh")
SEVEN = ["claude-code", "codex", "copilot", "gemini-cli", "opencode-v1", "opencode-v2", "cursor"]
STORE_VARS = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "OPENCODE_DB",
              "XDG_CONFIG_HOME", "XDG_DATA_HOME")


def mixed_home(tmp):
    """$HOME with every file harness's store linked from the triage fixtures, and both OpenCode databases
    (OpenCode 1 from the labelled export, OpenCode 2's migrated store) in its data directory."""
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    for store in (".claude", ".codex", ".copilot", ".gemini", ".cursor"):
        os.symlink(os.path.join(TRIAGE_HOME, store), os.path.join(home, store))
    data = os.path.join(home, ".local", "share", "opencode")
    os.makedirs(data)
    subprocess.run(["bash", MAKE_OPENCODE_DB, "export", os.path.join(data, "opencode.db"),
                    os.path.join(FIXTURES, "triage", "opencode-session.json")], check=True, capture_output=True)
    subprocess.run(["bash", MAKE_OPENCODE_DB, "v2", os.path.join(data, "opencode-two.db")], check=True,
                   capture_output=True)
    return home


class TriageMixedTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="csift-mixed-")
        cls.home = mixed_home(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def env(self, name, **extra):
        env = h.test_env(HOME=self.home, CSIFT_STATE_DB=os.path.join(self.tmp, name + ".db"),
                         CSIFT_CONFIG=os.path.join(self.tmp, "none.toml"))
        for var in STORE_VARS:
            env.pop(var, None)
        env.update(extra)
        return env

    def cli(self, env, tool, *args, ok=True):
        code, text, err = h.run_cli(tool, *args, "--format", "json", env=env)
        if ok:
            self.assertEqual(code, 0, err)
        header, rows, summary = h.parse_envelope(text)
        return code, header, rows, summary

    def test_every_harness_lists_and_digests(self):
        env = self.env("every")
        _, header, rows, summary = self.cli(env, "sessions_list")
        by_harness = {}
        for r in rows:
            by_harness.setdefault(r["harness"], []).append(r)
        self.assertEqual(sorted(by_harness), sorted(SEVEN), [s["harness"] for s in header["stores"]])
        for s in header["stores"]:
            self.assertEqual(s["state"], "found", s)
        # Cursor records no working directory: its session is an unknown project; every other is new.
        for harness, listed in by_harness.items():
            want = "unknown-project" if harness == "cursor" else "new"
            self.assertEqual({r["state"] for r in listed}, {want}, (harness, listed))
        _, header, rows, summary = self.cli(env, "sessions_digest", "--unprocessed")
        digested = {r["digest"]["harness"] for r in h.rows_of(rows, "session")}
        self.assertEqual(digested, set(SEVEN) - {"cursor"})
        self.assertEqual(summary["sessions"], sum(len(v) for k, v in by_harness.items() if k != "cursor"))
        # Every digest is the reference's shape; every failed call's args digest is 12 hex digits.
        for r in h.rows_of(rows, "session"):
            for e in r["digest"]["events"]:
                if e["type"] == "tool_call":
                    self.assertRegex(e["args_digest"], r"^[0-9a-f]{12}$")
        # Digested and not marked: still new, and named by ref each harness digests again.
        refs = [by_harness[k][0]["ref"] for k in SEVEN if k != "cursor"]
        _, _, rows, summary = self.cli(env, "sessions_digest", *refs)
        self.assertEqual(summary["sessions"], len(refs))

    def test_unknown_project_is_a_humans_decision(self):
        env = self.env("unknown")
        _, _, rows, _ = self.cli(env, "sessions_list", "--harness", "cursor")
        ref = rows[0]["ref"]
        code, _, rows, summary = self.cli(env, "sessions_digest", ref, ok=False)
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertEqual(h.rows_of(rows, "error")[0]["state"], "unknown-project")
        self.assertIn("human's decision", h.rows_of(rows, "error")[0]["message"])
        _, _, rows, summary = self.cli(env, "sessions_digest", ref, "--allow-unknown-project")
        self.assertEqual([r["ref"] for r in h.rows_of(rows, "session")], [ref])
        _, _, rows, _ = self.cli(env, "sessions_digest", "--unprocessed", "--harness", "cursor",
                                 "--allow-unknown-project")
        self.assertEqual([r["ref"] for r in h.rows_of(rows, "session")], [ref])
        code, text, err = h.run_cli("sessions_digest", "--help", env=env)
        self.assertIn("--allow-unknown-project", text)
        # Over MCP the decision is not offered (the served schema leaves it out) and a call naming it is refused.
        msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                            "clientInfo": {"name": "t", "version": "1"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                 "params": {"name": "sessions_digest", "arguments": {"refs": [ref], "allow_unknown_project": True}}}]
        # stdin stays open until the call is answered: a server whose stdin closes cancels its running calls.
        p = subprocess.Popen([h.binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env)
        p.stdin.write("".join(json.dumps(m) + "\n" for m in msgs).encode())
        p.stdin.flush()
        replies = {}
        while 3 not in replies:
            line = p.stdout.readline()
            if not line:
                break
            m = json.loads(line)
            replies[m.get("id")] = m
        p.stdin.close()
        p.wait(timeout=120)
        tools = {t["name"]: t for t in replies[2]["result"]["tools"]}
        self.assertNotIn("allow_unknown_project", tools["sessions_digest"]["inputSchema"]["properties"])
        self.assertTrue(replies[3].get("error") or replies[3]["result"].get("isError"), replies[3])

    def test_saved_selection_chooses_the_unprocessed_digest(self):
        env = self.env("selection")
        _, _, _, summary = self.cli(env, "sessions_status", "--set-selection", "--harness", "codex",
                                    "--harness", "gemini-cli", "--limit", "1")
        self.assertEqual(summary["selection"]["harness"], ["codex", "gemini-cli"])
        _, header, rows, summary = self.cli(env, "sessions_digest", "--unprocessed")
        self.assertEqual(header["selection"]["limit"], 1)
        self.assertEqual(len(h.rows_of(rows, "session")), 1)
        self.assertIn(h.rows_of(rows, "session")[0]["digest"]["harness"], ("codex", "gemini-cli"))
        self.assertEqual(summary["over_limit"], 1)
        # The call's own harness and limit replace the saved ones.
        _, header, rows, summary = self.cli(env, "sessions_digest", "--unprocessed", "--harness", "copilot",
                                            "--limit", "0")
        self.assertEqual([r["digest"]["harness"] for r in h.rows_of(rows, "session")], ["copilot"])
        self.assertIsNone(header["selection"]["harness"])
        # A since after every session's last entry leaves them all out, counted.
        self.cli(env, "sessions_status", "--set-selection", "--since", "2099-01-01T00:00:00Z")
        _, _, listed, _ = self.cli(env, "sessions_list", "--unprocessed")
        _, header, rows, summary = self.cli(env, "sessions_digest", "--unprocessed")
        self.assertEqual(h.rows_of(rows, "session"), [])
        # Left out unread: every unprocessed one, and the Cursor session a read would find an unknown project.
        self.assertEqual(summary["outside_since"], len(listed) + 1)

    def test_a_file_the_reader_does_not_read_is_an_unsupported_format_row(self):
        # Cursor's plain-text transcript (.txt) is not read; Gemini CLI's single-document session (.json) is.
        env = self.env("unsupported", HOME=os.path.join(FIXTURES, "cursor", "home"),
                       GEMINI_CLI_HOME=os.path.join(FIXTURES, "harnesses", "gemini"))
        _, header, rows, summary = self.cli(env, "sessions_list", "--harness", "gemini-cli", "--harness", "cursor")
        unsupported = {r["ref"]: r for r in rows if r["state"] == "unsupported-format"}
        self.assertEqual(sorted(unsupported), ["cursor:legacy-chat"], rows)
        for r in unsupported.values():
            self.assertIsNone(r["counts"])
            self.assertGreater(r["size"], 0)
        self.assertEqual(summary["states"]["unsupported-format"], 1)
        legacy = [r for r in rows if r["path"].endswith("legacy.json")]
        self.assertEqual([r["state"] for r in legacy], ["new"], rows)
        self.assertIsNotNone(legacy[0]["counts"])
        # Still named among its store's problems.
        problems = [p["path"] for s in header["stores"] for p in s["problems"]]
        self.assertTrue(any(p.endswith("legacy-chat.txt") for p in problems), problems)
        _, _, rows, _ = self.cli(env, "sessions_status")
        states = {r["harness"]: r["states"] for r in rows}
        self.assertIsNone(states["gemini-cli"].get("unsupported-format"))
        self.assertEqual(states["cursor"].get("unsupported-format"), 1)
        code, _, rows, _ = self.cli(env, "sessions_digest", "cursor:legacy-chat", ok=False)
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertEqual(h.rows_of(rows, "error")[0]["state"], "unsupported-format")

if __name__ == "__main__":
    unittest.main()
