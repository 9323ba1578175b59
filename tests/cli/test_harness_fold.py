"""What the harness readers fold in from their own logs (SPEC.md §2, §9.13), over fixtures/fidelity/gemini,
fixtures/fidelity/copilot and fixtures/fidelity/codex:
  - Gemini CLI's own `Please continue.` / `System: Please continue.` is the client's record, not a prompt, in
    sessions_digest, stats (turns), search (user.message) and show;
  - Gemini CLI's read_file and Copilot CLI's view results are reads `recover` replays (windows of the file);
  - Codex's patch_apply_end `changes` are what `recover` restores where they differ from the patch text.
The expectations are read off the fixture lines by hand."""
import os
import shutil
import tempfile
import unittest

import harness as h

FIDELITY = os.path.join(h.REPO, "fixtures", "fidelity")
CONTINUED = "gemini-cli:6e1c0000-0000-4000-8000-0000000000f5"
COPILOT_CURRENT = "copilot:c0f1de00-0000-4000-8000-00000000c052"
APPLIED = "codex:0199c0de-0000-7000-8000-0000000000e5"


class HarnessFoldTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="csift-harness-fold-")
        base = dict(HOME=cls.tmp, CSIFT_STATE_DB=os.path.join(cls.tmp, "s.db"),
                    CSIFT_CONFIG=os.path.join(cls.tmp, "none.toml"), XDG_DATA_HOME=os.path.join(cls.tmp, "data"))
        cls.env = {}
        for name, var, root in (("gemini", "GEMINI_CLI_HOME", "gemini"), ("copilot", "COPILOT_HOME", "copilot"),
                                ("codex", "CODEX_HOME", "codex")):
            env = h.test_env(**base, **{var: os.path.join(FIDELITY, root)})
            for other in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "OPENCODE_DB",
                          "XDG_CONFIG_HOME", "CURSOR_CONFIG_DIR"):
                if other != var:
                    env.pop(other, None)
            cls.env[name] = env

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def cli_json(self, harness, tool, *args):
        code, header, rows, summary, err = h.run_json(tool, *args, "--claude-home", self.tmp, env=self.env[harness])
        self.assertEqual(code, 0, err)
        return header, rows, summary

    def recover(self, harness, ref, path, *mode):
        return h.run_cli("recover", ref, "--file", path, *mode, "--claude-home", self.tmp, env=self.env[harness])

    def test_gemini_continuation_is_the_clients_not_a_prompt(self):
        _h, rows, _s = self.cli_json("gemini", "sessions_digest", CONTINUED)
        d = next(r["digest"] for r in rows if r["kind"] == "session")
        # c-u1 and c-u4 (which only starts like the CLI's text) are prompts; c-u2 and c-u3 are the CLI's own.
        self.assertEqual(d["counts"]["prompts"], 2, d["counts"])
        self.assertEqual([e["span"] for e in d["events"] if e["type"] == "prompt"], ["c-u1", "c-u4"])
        _h, rows, _s = self.cli_json("gemini", "stats", CONTINUED)
        self.assertEqual(next(r for r in rows if r["kind"] == "session")["turns"], 2)
        _h, rows, _s = self.cli_json("gemini", "search", "continue", "-t", "user.message", "--harness",
                                     "gemini-cli")
        # only c-u4's line: the CLI's two messages are no user message
        self.assertEqual([x["line"] for r in rows if r["kind"] == "exchange" for x in r["hits"]], [6], rows)
        # the last thing the user said is c-u4, not the CLI's `System: Please continue.` after it
        _h, rows, _s = self.cli_json("gemini", "list", "--harness", "gemini-cli", "--max-count", "0")
        row = next(r for r in rows if r.get("session_id") == CONTINUED)
        self.assertEqual((row["first_user"]["text"], row["last_user"]["text"]),
                         ("summarise the notes", "Please continue. Fix the parser too."), row)
        code, out, err = h.run_cli("show", CONTINUED, "--turn", "..", "--claude-home", self.tmp,
                                   env=self.env["gemini"])
        self.assertEqual(code, 0, err)
        self.assertIn("\u00b7t1 ", out)
        self.assertNotIn("\u00b7t2 ", out)

    def test_gemini_read_file_is_a_read(self):
        code, out, err = self.recover("gemini", CONTINUED, "/home/dev/projects/parser/NOTES.md", "--salvage")
        self.assertEqual(code, 0, err)
        # every line the read showed, its length unstated (gemini-cli's text has lost any \r)
        for n, text in ((1, "# Notes"), (3, "- parser: last token dropped"), (4, "- lint: clean")):
            self.assertRegex(out, r"(?m)^\s*%d\D+%s$" % (n, text.replace("(", r"\(")))
        code, out, err = self.recover("gemini", CONTINUED, "/home/dev/projects/parser/src/parse.ts", "--salvage")
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"(?m)^\s*2\D+export function parse\(src\) \{$")
        self.assertIn("??? lines 1..1 unknown", out)
        self.assertIn("??? lines 4..5 unknown", out)  # the header's total: 5 lines
        # a read is no change: still nothing to restore
        code, _out, _err = self.recover("gemini", CONTINUED, "/home/dev/projects/parser/NOTES.md")
        self.assertEqual(code, 1)

    def test_copilot_view_is_a_read(self):
        code, out, err = self.recover("copilot", COPILOT_CURRENT, "/home/dev/projects/shop/db/0042_orders.sql",
                                      "--salvage")
        self.assertEqual(code, 0, err)
        self.assertRegex(out, r"(?m)^\s*1\D+CREATE TABLE orders \(id int\);$")

    def test_codex_patch_apply_end_is_what_was_applied(self):
        # The update's patch writes gamma; its patch_apply_end records BETA: BETA is restored, the difference named.
        code, out, err = self.recover("codex", APPLIED, "/home/dev/projects/api/notes.txt")
        self.assertEqual((code, out), (0, "alpha\nBETA\n"), err)
        code, out, err = self.recover("codex", APPLIED, "/home/dev/projects/api/made.txt")
        self.assertEqual((code, out), (0, "one\ntwo\n"), err)
        _h, rows, _s = self.cli_json("codex", "recover", APPLIED, "--file", "/home/dev/projects/api/notes.txt",
                                     "--coverage")
        cov = next(r for r in rows if r["kind"] == "coverage")
        self.assertEqual(cov["counts"].get("patch-disagreement"), 1, cov)


if __name__ == "__main__":
    unittest.main()
