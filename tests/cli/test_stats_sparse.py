"""`stats` parses records sparsely (only the fields its counts and the turn rule read): its answer must be
byte-identical to a full parse (CSIFT_STATS_FULL_PARSE=1) on the fixture stores and the real corpus, under
the unbounded window and the held --turn path.
"""
import os
import shutil
import unittest

import corpus_store
import harness as h


def stats_text(home, full, *args):
    code, out, err = h.run_cli("stats", "--claude-home", home, "--max-count", "0", "--format", "json", *args,
                               env=h.test_env(CSIFT_STATS_FULL_PARSE="1" if full else "0"))
    assert code == 0, f"stats exited {code}: {err}"
    return out


class SparseStatsEqualsFullParseTest(unittest.TestCase):
    def check_same(self, home, *args):
        sparse = stats_text(home, False, *args)
        self.assertIn('"kind":"summary"', sparse.replace(" ", ""))
        self.assertEqual(sparse, stats_text(home, True, *args), f"stats {args} on {home}")

    def test_fixture_stores(self):
        for home in (h.FIXTURE_HOME, os.path.join(corpus_store.FIXTURES, "home-compacted")):
            self.check_same(home)
        self.check_same(h.FIXTURE_HOME, "--turn", "1..2")

    def test_corpus(self):
        tmp, placed = corpus_store.temp_corpus_store("csift-stats-sparse-")
        try:
            self.assertGreater(len(placed), 20)
            self.check_same(tmp)
            self.check_same(tmp, "--turn", "0..3")
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
