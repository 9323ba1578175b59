"""CLI vocabulary lives only in server/: no string literal in core/ or tools/ (comments aside) spells a CLI flag
(`--since`, `-t`) or a `csift-mcp --cli` command line. Tools and core name arguments by schema property through
arg_ref() / call_ref() (core/base/arg_ref.h) and the front end spells them, so an MCP client is never told
about flags it does not have. A scan of the sources, so the rule cannot regress."""
import json
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def short_flags():
    letters = set()
    schemas = os.path.join(ROOT, "schemas")
    for name in os.listdir(schemas):
        if not name.endswith(".input.json"):
            continue
        with open(os.path.join(schemas, name), encoding="utf-8") as f:
            for prop in json.load(f).get("properties", {}).values():
                short = prop.get("x-cli", {}).get("short") if isinstance(prop, dict) else None
                if short:
                    letters.add(short)
    return "".join(sorted(letters))


# `--name` (not `@--encoded-dir`), `-t` for every short flag a schema declares, or a CLI command line.
FLAG = re.compile(r"(?<![\w@?-])--[a-z][a-z-]*|(?<![\w@?-])-[" + short_flags() + r"](?![\w-])|csift-mcp --cli")


def string_literals(src):
    """(line, text) of every string literal, skipping comments and character literals."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            k = src.index("(", i)
            end = src.index(")" + src[i + 2:k] + '"', k)
            out.append((src.count("\n", 0, i) + 1, src[k + 1:end]))
            i = end + len(src[i + 2:k]) + 2
        elif src[i] in "\"'":
            quote, j = src[i], i + 1
            while j < n and src[j] != quote:
                j += 2 if src[j] == "\\" else 1
            if quote == '"':
                out.append((src.count("\n", 0, i) + 1, src[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def leaks():
    found = []
    for area in ("core", "tools"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, area)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line, text in string_literals(f.read()):
                        if FLAG.search(text):
                            found.append(f"{os.path.relpath(path, ROOT)}:{line}: \"{text}\"")
    return found


class NoCliVocabularyOutsideServer(unittest.TestCase):
    def test_scanner_sees_a_flag_literal_and_skips_comments(self):
        src = '// "--since" in a comment\nx("-t " + y); z("@--server-dir"); w("--max-count 0");\n'
        self.assertEqual([t for _, t in string_literals(src) if FLAG.search(t)], ["-t ", "--max-count 0"])

    def test_core_and_tools_spell_no_flag(self):
        self.assertEqual(leaks(), [], "flag spellings belong in server/: use arg_ref() / call_ref() or "
                                      "ctx.arg_text() / ctx.call_text()")


if __name__ == "__main__":
    unittest.main()
