"""The sparse search load (core/search/search_load.cpp) against the dense one it replaces for needle patterns.

A pattern with required needles parses only the lines that can match, the turn openers and line 1, then
reads back tool partners and whole turns on demand. CSIFT_SEARCH_DENSE=1 forces the dense load (every line
the label gates admit). For each case below, on the fixture store and on the real corpus, the JSON envelope
of both must be identical: same exchanges, units, labels, pairing marks, turn numbers, siblings, counts.
A case whose result is empty on both sides proves nothing, so each store must produce hits for most cases
and the test counts them.
"""
import json
import os
import shutil
import tempfile
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
    # Words inside synthesized text: each render's marker is dropped for them (confined by its joiners,
    # core/harness/claude_code/render_joiners.h) and kept by the dense reference: a slash command's
    # arguments, an AskUserQuestion option, a rejection's words and its plan path (a tool partner's
    # bytes), a notification's report, a compaction's trigger; then texts only the renders write, for
    # which the markers stay.
    ("opus", ()),
    ("Progress", ()),
    ("PROGRESS", ("-i",)),
    ("warn", ("-t", "user.rejection")),
    ("verbose-flag-plan", ()),
    ("bypass", ()),
    ("manual", ()),
    ("trigger=manual", ()),
    ("plan: /home", ()),
    (r"\[AskUserQuestion", ()),
    (r"\[subagent stopped", ()),
]
# The corpus is ~10x the fixtures: a subset keeps the sanitizer pass of `make test` within its budget, still
# covering partners, answer turns, siblings, label filters, a census, -l and turn windows.
# Each of these must match on the fixtures (an empty answer on both sides would prove nothing of the drop).
RENDER_CASES = CASES[20:]
CORPUS_CASES = [CASES[i] for i in (1, 2, 3, 4, 7, 9, 10, 12, 15, 17, 18, 19)]
# The sanitizer pass looks for memory errors rather than for differences, and a sanitized search of the corpus
# costs ~8 s: it compares one case of each read-back (siblings, a result label, a partner label, a census, -l).
# The Release pass compares every case above.
if os.environ.get("CSIFT_TEST_SANITIZED"):
    CORPUS_CASES = [CASES[i] for i in (1, 4, 9, 12, 15)]


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
    must_match = ()

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
                    if (pattern, flags) in self.must_match:
                        self.assertTrue(rows, "a render case matched nothing")
                # Line by line, so a difference names the row.
                dl, sl = dense[1].splitlines(), sparse[1].splitlines()
                for n, (a, b) in enumerate(zip(dl, sl)):
                    self.assertEqual(b, a, f"row {n} differs")
                self.assertEqual(len(sl), len(dl))
        self.assertGreaterEqual(productive, len(self.cases) // 2, "too few cases matched anything to compare")


# Needles drawn from the texts the renders write (a slash command, an answer, a rejection, a notification, a
# report, a compaction): runs of 4 to 12 needle-safe bytes at random places, the text's start included (where
# an opener such as "[AskUserQuestion" stands). Some straddle a joiner, so their render's marker stays; the
# rest are confined, so it is dropped. Either way the answer must be the dense reference's (every marker
# kept). A fixed seed; CSIFT_RENDER_SEED and CSIFT_RENDER_NEEDLES widen a run by hand.
RENDER_LABELS = ("harness.command.invocation", "user.answer", "user.rejection", "harness.notification",
                 "agent.communication.inbox", "harness.compaction.boundary")
RENDER_SEED = int(os.environ.get("CSIFT_RENDER_SEED", "20261207"))
RENDER_NEEDLES = int(os.environ.get("CSIFT_RENDER_NEEDLES", "4" if os.environ.get("CSIFT_TEST_SANITIZED") else "24"))


def _safe(c):
    return 0x21 <= ord(c) < 0x7F and c not in '"\\'


def rendered_needles(home, count, seed):
    import random
    import re
    texts = []
    for label in RENDER_LABELS:
        code, out, err = h.run_cli("search", "", "-t", label, "--claude-home", home, "--max-count", "0",
                                   "--format", "json", env=h.test_env())
        assert code == 0, err[-2000:]
        for row in h.parse_envelope(out)[1]:
            texts += [hit["text"] for hit in row.get("hits", []) if hit.get("label", "").startswith(label)]
    rng = random.Random(seed)
    picked = set()
    for _ in range(count * 20):
        if len(picked) >= count or not texts:
            break
        text = rng.choice(texts)
        at = 0 if rng.random() < 0.25 else rng.randrange(len(text))
        end = at
        while end < len(text) and end - at < rng.randint(4, 12) and _safe(text[end]):
            end += 1
        if end - at >= 4:
            picked.add(re.escape(text[at:end]))
    return sorted(picked)


class RenderedNeedles:
    home = None

    def test_needles_from_rendered_text_agree(self):
        needles = rendered_needles(self.home, RENDER_NEEDLES, RENDER_SEED)
        self.assertGreaterEqual(len(needles), RENDER_NEEDLES // 2, "too few rendered texts to draw from")
        for pattern in needles:
            with self.subTest(pattern=pattern):
                dense = envelope(self.home, pattern, (), True)
                sparse = envelope(self.home, pattern, (), False)
                self.assertEqual(dense[0], 0, dense[2][-2000:])
                # Drawn from a unit's text, the needle matches at least that unit.
                self.assertTrue(h.parse_envelope(dense[1])[1], "a needle from a rendered text matched nothing")
                self.assertEqual(sparse[1], dense[1])


class FixtureRenders(RenderedNeedles, unittest.TestCase):
    home = h.FIXTURE_HOME


class CorpusRenders(cs.CorpusHome, RenderedNeedles, unittest.TestCase):
    home_prefix = "csift-renders-"


class Fixtures(SparseEqualsDense, unittest.TestCase):
    home = h.FIXTURE_HOME
    must_match = RENDER_CASES


class Corpus(cs.CorpusHome, SparseEqualsDense, unittest.TestCase):
    cases = CORPUS_CASES
    home_prefix = "csift-sparse-"


if __name__ == "__main__":
    unittest.main()


# --------------------------------------------------------------------------------- mutation fuzzer
# Real lines (the fixtures and, when present, the corpus) with one mutation each in a share of them: a known
# key's value swapped for another type, a number beyond a double, a truncation, a control character (raw,
# which makes the line malformed, or escaped, which does not). Every tool must then still answer (no
# internal error), dense and sparse search must give identical envelopes, and `skipped_lines` must agree
# between search, stats and show. `make test` runs FUZZ_ROUNDS rounds with a fixed seed; a longer run:
#   cd tests/cli && CSIFT_FUZZ_ROUNDS=300 CSIFT_FUZZ_SEED=7 python3 -m unittest -v test_search_sparse.MutationFuzz
FUZZ_SEED = int(os.environ.get("CSIFT_FUZZ_SEED", "20261201"))
FUZZ_ROUNDS = int(os.environ.get("CSIFT_FUZZ_ROUNDS", "3"))
FUZZ_KEYS = ("role", "message", "content", "type", "uuid", "parentUuid", "timestamp", "usage", "input",
             "tool_use_id", "id", "name", "isMeta", "isSidechain", "sessionId", "text", "toolUseResult",
             "hookCount", "hookInfos", "preventedContinuation", "durationMs", "output_tokens", "is_error",
             "subtype", "answers", "questions")
FUZZ_VALUES = (5, -1, 0.5, 1e308, {}, [], None, True, "", "x", [{}], {"a": 5})
HUGE = ("1e400", "-1e400", "9" * 400, "1E+999")
FUZZ_PATTERNS = ("the", "error", "README", "verbose")


def _source_files():
    files = []
    for root, _, names in os.walk(os.path.join(h.FIXTURE_HOME, "projects")):
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".jsonl")]
    corpus = cs.corpus_root()
    if corpus:
        for root, _, names in sorted(os.walk(corpus)):
            for n in sorted(names):
                p = os.path.join(root, n)
                if n.endswith(".jsonl") and 20_000 < os.path.getsize(p) < 400_000 and len(files) < 40:
                    files.append(p)
    return sorted(files)


def _swap_key(obj, rng):
    """Replaces the value of one known key, at any depth, with a value of another type; False if none."""
    spots = []

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in FUZZ_KEYS:
                    spots.append((node, k))
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(obj)
    if not spots:
        return False
    node, key = rng.choice(spots)
    node[key] = rng.choice([v for v in FUZZ_VALUES if type(v) is not type(node[key])])
    return True


def mutate(line, rng):
    """One mutation of one real line (str without its newline)."""
    kind = rng.randrange(6)
    if kind == 0:  # truncation: a torn object
        return line[:rng.randrange(1, max(2, len(line)))]
    if kind == 1:  # a raw control character inside the text: malformed
        at = rng.randrange(len(line))
        return line[:at] + rng.choice("\x01\x1b\x07\x00") + line[at:]
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if kind == 2 and _swap_key(obj, rng):
        return json.dumps(obj, ensure_ascii=False)
    if kind == 3:  # an escaped control character in a string: still a record
        return json.dumps(obj, ensure_ascii=False).replace('"type":', '"x_ctl":"\\u001b[31m\\u0007","type":', 1)
    text = json.dumps(obj, ensure_ascii=False)
    if kind == 4:  # a huge number in a usage field (or anywhere the line has a number)
        for key in ('"output_tokens": ', '"input_tokens": ', '"hookCount": ', '"durationMs": '):
            if key in text:
                return text.replace(key, key + rng.choice(HUGE) + ', "x_was": ', 1)
        return text[:-1] + ', "x_huge": ' + rng.choice(HUGE) + "}" if text.endswith("}") else text
    obj2 = json.loads(text)  # kind 5: two swaps
    _swap_key(obj2, rng)
    _swap_key(obj2, rng)
    return json.dumps(obj2, ensure_ascii=False)


class MutationFuzz(unittest.TestCase):
    def test_mutated_stores_agree_everywhere(self):
        import random
        rng = random.Random(FUZZ_SEED)
        sources = _source_files()
        self.assertGreater(len(sources), 4)
        for rnd in range(FUZZ_ROUNDS):
            with self.subTest(round=rnd, seed=FUZZ_SEED):
                tmp = tempfile.mkdtemp(prefix="csift-fuzz-")
                try:
                    self.one_round(rng, sources, tmp)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)

    def one_round(self, rng, sources, home):
        project = os.path.join(home, "projects", "-fuzz")
        os.makedirs(project)
        paths = []
        for i, src in enumerate(rng.sample(sources, min(4, len(sources)))):
            with open(src, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
            out = [mutate(l, rng) if l.strip() and rng.random() < 0.25 else l for l in lines]
            sid = f"{i:08x}-0000-4000-8000-{rnd_hex(rng)}"
            path = os.path.join(project, sid + ".jsonl")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write("\n".join(out) + "\n")
            paths.append(path)
        home_arg = ("--claude-home", home)
        code, out, err = h.run_cli("stats", *home_arg, "--max-count", "0", "--format", "json")
        self.assertEqual(code, 0, err[-2000:])
        _, stats_rows, stats_summary = h.parse_envelope(out)
        skipped = {r["path"]: r["skipped_lines"] for r in stats_rows}
        for pattern in FUZZ_PATTERNS:
            dense = envelope(home, pattern, (), True)
            sparse = envelope(home, pattern, (), False)
            self.assertEqual(dense[0], 0, dense[2][-2000:])
            self.assertEqual(sparse[0], 0, sparse[2][-2000:])
            self.assertEqual(sparse[1], dense[1], f"dense and sparse differ for {pattern!r}")
            summary = h.parse_envelope(dense[1])[2]
            self.assertEqual(summary["skipped_lines"], stats_summary["skipped_lines"], pattern)
            self.assertEqual(summary["values_out_of_range"], stats_summary["values_out_of_range"], pattern)
        for path in paths:
            code, out, err = h.run_cli("show", path, "--turn", "..", "--max-count", "0", "--format", "json")
            if code == 0:
                self.assertEqual(h.parse_envelope(out)[2]["skipped_lines"], skipped[path], path)
            else:  # a transcript with no turn left is an error naming what exists, never an internal one
                self.assertNotIn("internal", err, err[-2000:])
            for args in (("--line", "1.."), ("--raw", "--line", "1..")):
                code, out, err = h.run_cli("show", path, *args, "--max-count", "0")
                self.assertNotIn("internal", err, err[-2000:])
                self.assertIn(code, (0, 1), err[-2000:])
        code, out, err = h.run_cli("list", *home_arg, "--format", "json")
        self.assertEqual(code, 0, err[-2000:])


def rnd_hex(rng):
    return "%012x" % rng.randrange(16 ** 12)
