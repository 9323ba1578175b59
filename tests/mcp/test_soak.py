"""The soak of the warm server (bench/soak.py, `make soak` runs it for minutes), short: a stdio and an HTTP
server over a store a writer keeps changing (appends, torn lines completed later, truncations, a log replaced by
rename, deletes, subagent logs, a project directory renamed), every answer given while the store is still
compared with a fresh `csift-mcp --cli` run over the same bytes, and both servers' resident memory and open
descriptors flat. The Release pass runs 20 s (the argument sets in order, as far as the time goes; `make soak`
compares every one many times); the sanitized pass, whose subject is memory errors under churn, a 5-second
run (a round or two: one churn phase on both servers, three calls compared), where LeakSanitizer at the servers'
exit stands in for the resident-memory check."""
import json
import os
import sys
import unittest

from mcp_harness import REPO, SANITIZED, binary

sys.path.insert(0, os.path.join(REPO, "bench"))
import soak  # noqa: E402


class Soak(unittest.TestCase):
    def test_answers_equal_the_cli_under_churn_and_the_servers_stay_flat(self):
        if SANITIZED:  # one round or two: a churn phase on both servers and three calls compared
            # ASan's allocator keeps freed memory quarantined (256 MiB by default), so resident memory grows
            # whatever the server does and says nothing of a leak: here LeakSanitizer is the leak check, at
            # the stdio server's exit when its stdin closes (a leak's exit code fails the soak), and
            # descriptors stay judged. The Release pass judges resident memory.
            fig = soak.soak(binary(), 5, compares_per_round=3, cover_all=False, rss_flat=False)
        else:
            fig = soak.soak(binary(), 20, cover_all=False)
        shown = {k: fig.get(k) for k in ("rounds", "calls", "churn_calls", "compared", "mismatches", "bad_replies",
                                         "writer_ops", "stdio", "http")}
        print(json.dumps(shown), file=sys.stderr)
        self.assertEqual(fig["mismatch_details"], [])
        self.assertEqual(fig["bad_reply_details"], [])
        self.assertEqual(fig["writer_errors"], [])
        self.assertGreater(fig["compared"], 0)
        self.assertTrue(fig["stdio"]["flat"], fig["stdio"])
        self.assertTrue(fig["http"]["flat"], fig["http"])
        self.assertTrue(fig["ok"], {k: v for k, v in fig.items() if not k.endswith("_details")})


if __name__ == "__main__":
    unittest.main()
