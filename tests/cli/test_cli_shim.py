"""The CLI shim's generic contract, tool by tool from the tool table: --help generated from the schema, exit
codes (0 / 2 usage / 1 other), unknown-flag attribution, the JSON error envelope, flag order, paging."""
import os
import re
import unittest

import harness as h


def _tools():
    code, out, err = h.run(["--help"])
    assert code == 0, f"--help exited {code}: {err}"
    section = out.split("Tools:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip() and not line.strip().startswith("(")]


class CliShimTest(unittest.TestCase):
    def setUp(self):
        b = h.binary()
        self.assertTrue(os.path.isfile(b) and os.access(b, os.X_OK), f"csift-mcp binary not found at {b}")

    def test_version_and_top_help(self):
        code, out, _ = h.run(["--version"])
        self.assertEqual(code, 0)
        self.assertRegex(out, r"^csift-mcp \d+\.\d+\.\d+\n$")
        code, out, _ = h.run(["--help"])
        for mode in ("--stdio", "--http", "--cli <TOOL>"):
            self.assertIn(mode, out)
        self.assertEqual(h.run(["--no-such-mode"])[0], h.EXIT_USAGE)

    def test_top_help_names_every_server_flag(self):
        # The servers' usage errors list the flags they take; --help must name each one.
        _, help_text, _ = h.run(["--help"])
        for mode in (["--stdio"], ["--http", "--port", "0"]):
            code, _, err = h.run([*mode, "--no-such-flag"])
            self.assertEqual(code, h.EXIT_USAGE, (mode, err))
            flags = set(re.findall(r"--[a-z][a-z-]+", err.split("valid:", 1)[1]))
            self.assertIn("--no-watch-stamps", flags)
            for flag in flags:
                self.assertIn(flag, help_text, (mode, flag))

    def test_every_tool_has_generated_help(self):
        tools = _tools()
        self.assertTrue(tools, "the tool table is empty")
        for tool in tools:
            code, out, err = h.run_cli(tool, "--help")
            self.assertEqual(code, 0, f"{tool} --help: {err}")
            self.assertTrue(out.startswith(f"csift-mcp --cli {tool}"), out[:200])
            for flag in ("--format <text|json>", "--max-chars <N>", "--row-offset <N>", "-h, --help"):
                self.assertIn(flag, out, f"{tool} --help lacks {flag}")

    def test_unknown_tool_and_unknown_flag_exit_2(self):
        code, _, err = h.run_cli("no-such-tool")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("unknown tool", err)
        for tool in _tools():
            code, out, err = h.run_cli(tool, "--claude-home", h.FIXTURE_HOME, "--frmat", "json")
            self.assertEqual(code, h.EXIT_USAGE, f"{tool}: {err}")
            self.assertIn(f"unknown flag --frmat for {tool}", err)
            self.assertIn("did you mean --format?", err)
            self.assertEqual(out, "")

    def test_usage_error_in_json_mode_is_an_envelope(self):
        code, out, _ = h.run_cli("list", "--claude-home", h.FIXTURE_HOME, "--max-count", "abc", "--format", "json")
        self.assertEqual(code, h.EXIT_USAGE)
        header, rows, summary = h.parse_envelope(out)
        self.assertEqual(header["command"], "list")
        self.assertEqual(rows, [])
        self.assertEqual(summary["error"]["kind"], "usage")
        self.assertIn("--max-count: expected an integer", summary["error"]["message"])

    def test_missing_value_exits_2(self):
        code, _, err = h.run_cli("list", "--claude-home")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--claude-home needs a value", err)

    def test_flag_order_is_free(self):
        a = h.run_cli("list", "--claude-home", h.FIXTURE_HOME, "--max-count", "2", "--format", "json")
        b = h.run_cli("list", "--format", "json", "--max-count", "2", "--claude-home", h.FIXTURE_HOME)
        self.assertEqual(a[0], 0, a[2])
        self.assertEqual(a[1], b[1])

    def test_max_chars_pages_with_an_exact_continuation(self):
        base = ["--claude-home", h.FIXTURE_HOME, "--max-count", "0"]
        code, _, full, _, _ = h.run_json("list", *base)
        self.assertEqual(code, 0)
        code, _, first, summary, _ = h.run_json("list", *base, "--max-chars", "2500")
        self.assertEqual(code, 0)
        self.assertLess(len(first), len(full))
        self.assertEqual(summary["rows_omitted"], len(full) - len(first))
        cont = summary["continue_with"]
        self.assertEqual(cont["row_offset"], len(first))
        code, _, second, summary2, _ = h.run_json("list", *base, "--max-chars", "2500", "--row-offset",
                                                  str(cont["row_offset"]))
        self.assertEqual(summary2["rows_skipped"], len(first))
        self.assertEqual(second[0], full[len(first)])

    def test_text_footer_names_the_continuation_command(self):
        code, out, _ = h.run_cli("list", "--claude-home", h.FIXTURE_HOME, "--max-count", "0", "--max-chars", "1500")
        self.assertEqual(code, 0)
        m = re.search(r"continue with row_offset=(\d+): (csift-mcp --cli list .*)\]$", out.rstrip("\n"))
        self.assertIsNotNone(m, out[-400:])
        self.assertIn(f"--row-offset {m.group(1)}", m.group(2))


class TempStoreTest(unittest.TestCase):
    def test_temp_store_links_files(self):
        src = os.path.join(h.FIXTURE_HOME, "projects")
        some = next(os.path.join(dp, f) for dp, _d, fs in sorted(os.walk(src)) for f in sorted(fs)
                    if f.endswith(".jsonl"))
        with h.TempStore({"-tmp-demo": [some, ("x/subagents/agent-0.jsonl", some)]}) as home:
            linked = os.path.join(home, "projects", "-tmp-demo", os.path.basename(some))
            self.assertTrue(os.path.islink(linked))
            self.assertTrue(os.path.islink(os.path.join(home, "projects", "-tmp-demo", "x", "subagents",
                                                        "agent-0.jsonl")))
        self.assertFalse(os.path.exists(home))


if __name__ == "__main__":
    unittest.main()
