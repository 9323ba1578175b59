"""Counted searches against the row mode that lists what they count.

`-c` and `-l` match each entry as it is classified and drop its units (a transcript's units are never all
held), and an empty pattern counted parses sparsely (tool inputs, thinking text and raw tool results left
out). The row mode of the same search parses everything and keeps the whole model. For each case, on the
fixture store and on the real corpus, the count, the superseded-draft disclosure, the skipped lines and the
session set must be the same. Cases that match nothing prove nothing: most must match.
"""
import os
import unittest

import corpus_store as cs
import harness as h

# (pattern, flags): label-only filters (roles, leaves, a gated leaf, a class glob, an exclusion, drafts), with
# a turn window and a time window, and needle patterns that go dense (a common word) or sparse.
CASES = [
    ("", ("-t", "user.message")),
    ("", ("-t", "user")),
    ("", ("-t", "agent")),
    ("", ("-t", "agent.tool.*")),
    ("", ("-t", "agent.communication")),
    ("", ("-t", "harness")),
    ("", ("-t", "user.unsent")),
    ("", ("-t", "harness.meta.snapshot")),
    ("", ("-T", "agent.tool.*")),
    ("", ("-t", "user", "--turn", "0..2")),
    ("", ("-t", "agent", "--since", "2026-01-01T00:00:00Z")),
    ("the", ()),
    ("error", ("-t", "agent.tool.result")),
    ("README", ()),
]
SUMMARY_KEYS = ("matched", "matched_records", "superseded_drafts", "superseded_drafts_excluded_by_label",
                "skipped_lines")


def search(home, pattern, flags, mode):
    code, out, err = h.run_cli("search", pattern, *flags, *mode, "--claude-home", home, "--max-count", "0",
                               "--format", "json")
    assert code == 0, err[-2000:]
    return h.parse_envelope(out)


# The sanitizer pass looks for memory errors rather than for differences, and each sanitized search costs
# seconds on the corpus (the whole test took 108 s there): one case of each kind — a role, an agent filter,
# spawn messages (their labels come from launch results), a leaf a later opener decides (drafts), a turn
# window, a needle read densely and one read sparsely. The Release pass compares every case.
SANITIZED_CASES = [CASES[i] for i in (0, 2, 4, 6, 9, 12, 13)]


class CountsEqualRows:
    home = None
    cases = SANITIZED_CASES if os.environ.get("CSIFT_TEST_SANITIZED") else CASES

    def test_counts_equal_the_rows(self):
        productive = 0
        for pattern, flags in self.cases:
            with self.subTest(pattern=pattern, flags=flags):
                _, rows, full = search(self.home, pattern, flags, ())
                _, _, counted = search(self.home, pattern, flags, ("-c",))
                _, sessions, listed = search(self.home, pattern, flags, ("-l",))
                for k in SUMMARY_KEYS:
                    self.assertEqual(counted.get(k), full.get(k), f"-c {k}")
                    self.assertEqual(listed.get(k), full.get(k), f"-l {k}")
                owners = {r.get("parent_session_id") or r.get("session_id") for r in rows}
                self.assertEqual({r["session_id"] for r in sessions}, owners, "-l sessions")
                productive += full["matched"] > 0
        self.assertGreaterEqual(productive, len(self.cases) * 2 // 3, "too few cases matched anything to compare")


class Fixtures(CountsEqualRows, unittest.TestCase):
    home = h.FIXTURE_HOME


# Team sessions: spawns acknowledged by a launch result, whose labels come from the toolUseResult a sparse
# parse must keep.
class AgentsHome(CountsEqualRows, unittest.TestCase):
    home = os.path.join(os.path.dirname(h.FIXTURE_HOME), "agents-home")


class Corpus(cs.CorpusHome, CountsEqualRows, unittest.TestCase):
    home_prefix = "csift-counts-"


if __name__ == "__main__":
    unittest.main()
