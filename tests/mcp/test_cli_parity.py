"""The CLI and the MCP tools side by side, for every tool in tools/list: the same arguments give the same rows,
and content[0] is what `csift-mcp --cli` prints up to spelling: messages name arguments and follow-up calls in
each surface's own vocabulary (`--since` / `csift-mcp --cli show @x --line 5` on the CLI, `since` / `show {...}`
over MCP), so both texts are compared with those spellings replaced by placeholders. Argument sets come from
each tool's input schema (every boolean flag, small integers), so new tools and flags are covered without a
test edit. When the CLI prints nothing,
content[0] carries the notes, so the first block always says what happened."""
import json
import os
import re
import subprocess
import unittest

from mcp_harness import first_session_id, FIXTURE_HOME, REPO, SANITIZED, StdioClient, binary, server_env

BIG = 10 ** 7  # a budget no fixture result reaches, passed to both sides


def positional_properties(tool):
    """Properties the CLI takes as positional arguments (x-cli in the annotated schema file), in order."""
    path = os.path.join(REPO, "schemas", f"{tool}.input.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        props = json.load(f).get("properties", {})
    return [k for k, v in props.items() if v.get("x-cli", {}).get("positional")]


def argument_sets(schema):
    props = schema.get("properties", {})
    sets = [{}, {"format": "json"}]
    sid = first_session_id()
    if sid and props.get("targets", {}).get("type") == "array":
        sets += [{"targets": ["@" + sid]}, {"targets": ["@" + sid], "format": "json"}]
        if props.get("turn", {}).get("type") == "string":  # show needs an address: the last two turns
            sets += [{"targets": ["@" + sid], "turn": "-2.."}, {"targets": ["@" + sid], "turn": "-2..", "format": "json"}]
    for name, p in props.items():
        if name in ("format", "claude_home", "max_chars", "row_offset"):
            continue
        if p.get("type") == "boolean":
            sets.append({name: True})
        elif p.get("type") == "integer" and name == "max_count":
            sets.append({name: 1})
    sets.append({"row_offset": 1})
    return [s for s in sets if all(k in props for k in s)]


def cli_flags(tool, args):
    flags, positional = [], positional_properties(tool)
    # Positionals go in schema order; a skipped string positional before a given one is passed as "" (search's
    # pattern before its targets), as MCP's default for it is.
    given = [k for k in positional if k in args]
    for k in positional[:positional.index(given[-1]) + 1] if given else []:
        v = args.get(k, "")
        flags += v if isinstance(v, list) else [v]
    for k, v in args.items():
        if k in positional:
            continue
        flag = "--" + k.replace("_", "-")
        flags += [flag] if v is True else [flag, str(v)]
    return flags


def cli(tool, args):
    env = server_env()
    p = subprocess.run([binary(), "--cli", tool] + cli_flags(tool, args), capture_output=True, timeout=120,
                       env=env, cwd=FIXTURE_HOME)
    # --raw prints transcript bytes verbatim, invalid UTF-8 included; MCP's JSON text carries U+FFFD there.
    return p.returncode, p.stdout.decode("utf-8", errors="replace"), p.stderr.decode("utf-8", errors="replace")


# A CLI command line: `csift-mcp --cli <tool>` and its tokens (shell-safe words or '...'), up to text such as
# " (or ...)"; an MCP call: `<tool> {flat json arguments}`.
CLI_CALL = re.compile(r"csift-mcp --cli \w+(?: (?:'[^']*'|[^\s()'][^\s)]*))*")
MCP_CALL = re.compile(r"\b(?:list|search|show|stats|whoami|recover|plan) \{[^{}\n]*\}")


def annotated_properties(tool):
    """The tool's input properties with their `x-cli` annotations (the served schema drops them)."""
    with open(os.path.join(REPO, "schemas", f"{tool}.input.json")) as f:
        return json.load(f).get("properties", {})


# Tools that answer about a live moment (status, wait) print ages measured at the instant of the call: two runs
# a second apart differ there and nowhere else, so ages are compared as shapes.
POINT_IN_TIME = {"status", "wait"}
AGE_TEXT = re.compile(r"\d+s ago|(?<=after )\d+\.\ds(?=; verdict)")
# Both the pretty form (`json.dumps`) and the compact form a JSON-format run prints.
AGE_FIELD = re.compile(r'("\w*(?:age|waited)_secs": ?)\d+(?:\.\d+)?')


def timeless(value, tool):
    """`value` (text or rows) with a point-in-time tool's ages replaced by a placeholder."""
    if tool not in POINT_IN_TIME:
        return value
    if isinstance(value, str):
        return AGE_FIELD.sub(r"\1-1", AGE_TEXT.sub("Ns ago", value))
    return json.loads(AGE_FIELD.sub(r"\1-1", AGE_TEXT.sub("Ns ago", json.dumps(value))))


def spelling_free(text, tool):
    """`text` with follow-up calls and argument spellings (flag, short flag or property name) replaced."""
    if not isinstance(text, str):
        return text
    text = timeless(text, tool)
    text = MCP_CALL.sub("<call>", CLI_CALL.sub("<call>", text))
    props = annotated_properties(tool)
    names = set(props)
    names |= {p.get("x-cli", {}).get("negate") for p in props.values() if isinstance(p, dict)} - {None}
    for name in sorted(names, key=len, reverse=True):
        spellings = ["--" + name.replace("_", "-"), name]
        short = props.get(name, {}).get("x-cli", {}).get("short")
        if short:
            spellings.append("-" + short)
        for spelling in spellings:
            text = re.sub(r"(?<![\w-])" + re.escape(spelling) + r"(?![\w-])", "<arg>", text)
    return text


def ndjson(text):
    return [json.loads(ln) for ln in text.splitlines() if ln.strip()]


class CliParity(unittest.TestCase):
    def setUp(self):
        # Both sides run in the same working directory: `.` and the default scope resolve alike. The server runs
        # without its memos and disk cache, whose reports (summary.scan_memo, summary.result_memo,
        # summary.disk_cache) the CLI never prints;
        # test_warm_memo.py shows a server with the memos answers exactly as this one. Nor does it hold an answer
        # to what a client passes on to its model (test_model_reads.py), which the CLI never does.
        self.c = StdioClient(args=["--scan-memo-mb", "0", "--result-memo-mb", "0", "--disk-cache-mb", "0",
                                   "--max-answer-chars", "0"],
                             cwd=FIXTURE_HOME)
        self.addCleanup(self.c.close)

    def test_every_tool_matches_its_cli(self):
        tools = self.c.request("tools/list")["result"]["tools"]
        self.assertTrue(tools)
        for tool in tools:
            for args in argument_sets(tool["inputSchema"]):
                args = dict(args, max_chars=BIG) if "max_chars" in tool["inputSchema"]["properties"] else args
                with self.subTest(tool=tool["name"], args=args):
                    r = self.c.request("tools/call", {"name": tool["name"], "arguments": args}, timeout=120)["result"]
                    rc, out, err = cli(tool["name"], args)
                    # A failed call prints its message on stderr; the MCP result carries the same text.
                    printed = out if rc == 0 or args.get("format") == "json" else err
                    if rc == 2:  # a usage error on the CLI adds a pointer to --help after the same message
                        printed = re.sub(r"Run `csift-mcp --cli \w+ --help` for usage\.\n$", "", printed)
                    if not tool["annotations"]["readOnlyHint"]:
                        # A tool that writes state (sessions_digest, sessions_mark, sessions_status with
                        # set_selection) answers the second call differently by design (the first one's digest
                        # is reported, its saved time shown): both surfaces must agree on success only.
                        self.assertEqual(r["isError"], rc != 0, (r["content"][0]["text"], err))
                        continue
                    if tool["name"] == "whoami" and not (args.get("self") or args.get("marker")):
                        # By design the two differ here (SPEC §9.5): the CLI reads its own environment, the
                        # stdio server asks Claude Code's session registry about its ancestors. The fixture
                        # has no registry row: with CLAUDE_CODE_SESSION_ID set both name its session (the notes
                        # say how each found it), without it both refuse and the server's refusal teaches the
                        # marker.
                        self.assertEqual(r["isError"], rc != 0)
                        if rc == 0 and args.get("format") == "json":
                            self.assertEqual(r["structuredContent"]["rows"], ndjson(out)[1:-1])
                        elif rc == 0:
                            self.assertEqual(r["content"][0]["text"], out)
                        else:
                            self.assertIn("registry", r["content"][0]["text"])
                            self.assertIn("@self:<marker>", r["content"][0]["text"])
                        continue
                    same = lambda mcp_text, cli_text: self.assertEqual(
                        spelling_free(mcp_text, tool["name"]), spelling_free(cli_text, tool["name"]))
                    first = r["content"][0]["text"]
                    self.assertTrue(first.strip(), "the first content block is never empty")
                    if rc != 0:
                        self.assertNotRegex(first, r"(?<![\w@-])--[a-z]|csift-mcp --cli",
                                            "an MCP client is never told about flags")
                    self.assertEqual(r["isError"], rc != 0)
                    if rc == 0 and not printed.strip():
                        # Nothing on stdout (a zero-match search): the notes come first, alone.
                        self.assertEqual(len(r["content"]), 1)
                        notes = first if err.strip() else ""
                    else:
                        same(first, printed)  # content[0] is what --cli prints
                        notes = r["content"][1]["text"] if len(r["content"]) > 1 else ""
                    if rc == 0:  # the CLI's stderr notes, in MCP's vocabulary
                        same(notes.strip(), err.strip())
                    sc = r["structuredContent"]
                    if SANITIZED and args.get("format") != "json":
                        # The sanitizer pass hunts memory errors: this call's tool logic and text rendering ran
                        # on both sides above, and every JSON-format argument set renders the envelope. The
                        # Release pass compares each text call's rows with its JSON twin as well.
                        continue
                    # The JSON envelope of the same call (already printed when the call asked for JSON).
                    rc_json, out_json = (rc, out) if args.get("format") == "json" else \
                        cli(tool["name"], dict(args, format="json"))[:2]
                    if args.get("raw") and rc == 0 and rc_json == 2:
                        # search --raw refuses --format json on the CLI (its stdout is the verbatim lines); the
                        # rows MCP carries are exactly those lines.
                        self.assertEqual("".join(row["text"] + "\n" for row in sc["rows"]), printed, "same rows")
                        continue
                    lines = ndjson(out_json)
                    self.assertEqual(timeless(lines[1:-1], tool["name"]), timeless(sc["rows"], tool["name"]),
                                     "same rows")
                    cli_error, mcp_error = lines[-1].get("error"), sc["summary"].get("error")
                    self.assertEqual(cli_error is None, mcp_error is None)
                    if cli_error is not None:
                        self.assertEqual(cli_error["kind"], mcp_error["kind"])
                        same(mcp_error["message"], cli_error["message"])


if __name__ == "__main__":
    unittest.main()
