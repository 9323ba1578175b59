"""The sparse search load (tools/search/search_load.cpp) against the dense one it replaces for needle patterns.

A pattern with required needles parses only the lines that can match, the turn openers and line 1, then
reads back tool partners and whole turns on demand. CSIFT_SEARCH_DENSE=1 forces the dense load (every line
the label gates admit). For each case below, on the fixture store and on the real corpus, the JSON envelope
of both must be identical: same exchanges, units, labels, pairing marks, turn numbers, siblings, counts.
A case whose result is empty on both sides proves nothing, so each store must produce hits for most cases
and the test counts them.
"""
import os
import shutil
import unittest

import corpus_store as cs
import harness as h

# (pattern, extra flags): tool results, human messages (answer completion), tool inputs (partners), regex
# needles, caseless needles, label filters that depend on the tool partner, every terminal mode.
CASES = [
    ("verbose", ()),
    ("verbose", ("--siblings",)),
    ("README", ()),
    ("error", ()),
    ("error", ("-t", "agent.tool.result")),
    ("Please", ()),
    ("thanks", ("-i",)),
    ("flag|README", ()),
    ("add.*flag", ()),
    ("Bash", ("-t", "agent.tool.use")),
    ("agent", ("-t", "agent.communication")),
    ("the", ("--count-by", "tool")),
    ("the", ("--count-by", "pairing")),
    ("the", ("--count-by", "label")),
    ("the", ("-c",)),
    ("the", ("-l",)),
    ("the", ("--raw",)),
    ("TodoWrite", ()),
    ("import", ("--siblings",)),
    ("test", ("--turn", "0..2")),
]
# The corpus is ~10x the fixtures: a subset keeps the sanitizer pass of `make test` within its budget, still
# covering partners, answer turns, siblings, label filters, a census, -l and turn windows.
CORPUS_CASES = [CASES[i] for i in (1, 2, 3, 4, 7, 9, 10, 12, 15, 17, 18, 19)]


def envelope(home, pattern, flags, dense):
    env = h.test_env(CSIFT_SEARCH_DENSE="1" if dense else "0")
    # --raw prints the matched jsonl lines themselves (it takes no --format json).
    fmt = () if "--raw" in flags else ("--format", "json")
    code, out, err = h.run_cli("search", pattern, *flags, "--claude-home", home, "--max-count", "0", *fmt,
                               env=env)
    return code, out, err


class SparseEqualsDense:
    home = None

    cases = CASES

    def test_cases_agree(self):
        productive = 0
        for pattern, flags in self.cases:
            with self.subTest(pattern=pattern, flags=flags):
                dense = envelope(self.home, pattern, flags, True)
                sparse = envelope(self.home, pattern, flags, False)
                self.assertEqual(dense[0], 0, dense[2][-2000:])
                self.assertEqual(sparse[0], dense[0], sparse[2][-2000:])
                if "--raw" in flags:
                    productive += bool(dense[1].strip())
                else:
                    header, rows, summary = h.parse_envelope(dense[1])
                    productive += bool(rows)
                # Line by line, so a difference names the row.
                dl, sl = dense[1].splitlines(), sparse[1].splitlines()
                for n, (a, b) in enumerate(zip(dl, sl)):
                    self.assertEqual(b, a, f"row {n} differs")
                self.assertEqual(len(sl), len(dl))
        self.assertGreaterEqual(productive, len(self.cases) // 2, "too few cases matched anything to compare")


class Fixtures(SparseEqualsDense, unittest.TestCase):
    home = h.FIXTURE_HOME


class Corpus(SparseEqualsDense, unittest.TestCase):
    cases = CORPUS_CASES

    @classmethod
    def setUpClass(cls):
        cls.tmp, _ = cs.temp_corpus_store("csift-sparse-")
        cls.home = cls.tmp

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
