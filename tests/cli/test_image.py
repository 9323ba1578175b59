"""`csift-mcp --cli image` (SPEC.md §9.9) against fixtures/home-compacted and every corpus transcript that
carries an image: the listing agrees with an independent Python reading (locators, #N handles zipped with
the [Image #N] markers, content dedup), every extracted file's sha256 equals the sha256 of its base64
payload's decoding, conversions write files whose headers carry the source's dimensions, and ambiguous,
missing and malformed ids fail with messages that say what exists.
"""
import glob
import os
import tempfile
import unittest

import corpus_store as cs
import harness as h
import media_fixture as mf

HOME = mf.COMPACTED_HOME


def image_json(*args):
    return h.run_json("image", "--claude-home", HOME, *args)


class Listing(unittest.TestCase):
    def test_rows_match_an_independent_reading(self):
        code, header, rows, summary, err = image_json("@" + mf.C1, "--no-subagents")
        self.assertEqual(code, 0, err)
        want = mf.distinct(mf.occurrences(mf.C1_PATH))
        self.assertEqual([r["id"] for r in rows], [o["locator"] for o in want])
        self.assertEqual([r["handle"] for r in rows], [o["handle"] for o in want])
        for r, o in zip(rows, want):
            self.assertEqual(r["media_type"], o["media_type"])
            self.assertEqual(r["b64_len"], len(o["data"] or ""))
            self.assertEqual(r["source_kind"], "tool_result" if o["nested"] else "message")
            self.assertEqual(r["url"], o["url"])
        self.assertEqual(summary["images"], len(want))
        self.assertEqual(summary["occurrences"], len(mf.occurrences(mf.C1_PATH)))
        # The screenshot pasted twice (lines 7 and 25) is listed once, at its latest occurrence.
        again = [r for r in rows if r["occurrences"] > 1]
        self.assertEqual([(r["id"], r["occurrences"]) for r in again], [("L25i1", 2)])

    def test_handles_are_the_markers_in_order(self):
        code, _h, rows, _s, err = image_json("@" + mf.C1, "--no-subagents")
        self.assertEqual(code, 0, err)
        recs = dict(mf.records(mf.C1_PATH))
        numbered = [r for r in rows if r["handle"] is not None]
        self.assertGreaterEqual(len(numbered), 4)
        for r in numbered:
            rec = recs[r["line"]]
            direct = [k for k, (_src, nested) in enumerate(mf.images_of(rec)) if not nested]
            self.assertEqual(mf.markers_of(rec)[direct.index(r["img_index"] - 1)], r["handle"], r)
        # A record whose marker count differs from its image count gets no handle (never a guess).
        self.assertTrue(all(r["handle"] is None for r in rows if r["line"] == 29))

    def test_subagent_screenshots_are_listed_by_default(self):
        code, _h, rows, _s, err = image_json("@" + mf.C1)
        self.assertEqual(code, 0, err)
        agent = [r for r in rows if r["is_subagent"]]
        self.assertEqual([(r["session_id"], r["source_kind"], r["parent_session_id"]) for r in agent],
                         [(mf.AGENT, "tool_result", mf.C1)])
        code, out, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1)
        self.assertIn("SUBAGENT " + mf.AGENT, out)
        self.assertIn("#3 L27i1 image/gif", out)

    def test_search_and_show_name_the_handle(self):
        code, out, err = h.run_cli("search", "import page after", "--claude-home", HOME, "@" + mf.C1)
        self.assertEqual(code, 0, err)
        self.assertIn("[1 image(s): #1]", out)
        code, _h, rows, _s, err = h.run_json("show", "--claude-home", HOME, "@" + mf.C1, "--line", "15")
        self.assertEqual(code, 0, err)
        self.assertEqual(rows[0]["image_handles"], [1, 2])
        self.assertEqual(rows[0]["image_ids"], ["L15i1", "L15i2"])


class Ids(unittest.TestCase):
    def test_reused_handle_is_ambiguous_and_lists_occurrences(self):
        code, out, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", "--id", "1")
        self.assertEqual(code, h.EXIT_USAGE, err)
        for locator in ("L15i1", "L7i1", "L25i1"):
            self.assertIn(locator, err)
        self.assertIn("ambiguous", err)
        # Narrowed by turn (or time) the same handle names one image.
        code, _h, rows, _s, err = image_json("@" + mf.C1, "--no-subagents", "--id", "1", "--turn", "3")
        self.assertEqual(code, 0, err)
        self.assertEqual([r["id"] for r in rows], ["L15i1"])

    def test_hash_prefix_and_misses_explain_themselves(self):
        code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1, "--id", "#2")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("without the #", err)
        code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", "--id", "9")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("Handles present: #1, #2, #3", err)
        code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1, "--id", "L2i1")
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("matched no image", err)


class Extraction(unittest.TestCase):
    def extract_and_check(self, target_args, path, home=HOME):
        with tempfile.TemporaryDirectory() as d:
            code, _h, rows, summary, err = h.run_json("image", "--claude-home", home, *target_args, "--out", d)
            self.assertEqual(code, 0, err)
            want = {o["locator"]: o for o in mf.distinct(mf.occurrences(path))}
            self.assertEqual(sorted(r["id"] for r in rows), sorted(want))
            written = 0
            for r in rows:
                o = want[r["id"]]
                data = mf.decoded(o)
                if data is None:
                    self.assertIsNotNone(r["error"], r)
                    self.assertIsNone(r["path"])
                    continue
                with open(r["path"], "rb") as f:
                    got = f.read()
                self.assertEqual(mf.sha256(got), mf.sha256(data), r["id"])
                self.assertEqual(r["bytes"], len(data))
                written += 1
            self.assertEqual(summary["failed"], len(rows) - written)
            return written

    def test_fixture_images_decode_to_their_payloads(self):
        self.assertEqual(self.extract_and_check(["@" + mf.C1, "--no-subagents"], mf.C1_PATH), 6)  # + 1 url image
        self.assertEqual(self.extract_and_check(["@" + mf.AGENT], mf.AGENT_PATH), 1)
        # C2 writes its base64 with JSON `\/` escapes: the decoded bytes are still the payload's.
        self.assertEqual(self.extract_and_check(["@" + mf.C2], mf.C2_PATH), 1)

    def test_corpus_images_decode_to_their_payloads(self):
        root = cs.corpus_root()
        self.assertIsNotNone(root, "../shared/corpus is missing")
        carriers = []
        for path in sorted(glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True)):
            with open(path, "rb") as f:
                data = f.read()
            if (b'"type":"image"' in data or b'"type": "image"' in data) and mf.occurrences(path):
                carriers.append(path)
        self.assertGreaterEqual(len(carriers), 3)
        written = 0
        for path in carriers:
            with self.subTest(path=path):
                written += self.extract_and_check([path], path)
        self.assertGreaterEqual(written, 3)

    def test_conversions_carry_the_source_dimensions(self):
        sources = {o["locator"]: o for o in mf.occurrences(mf.C1_PATH)}
        cases = [("L25i1", "png"), ("L25i1", "jpg"), ("L25i1", "webp"), ("L25i1", "gif"),
                 ("L15i1", "png"), ("L15i2", "webp"), ("L19i1", "jpeg"), ("L27i1", "png")]
        with tempfile.TemporaryDirectory() as d:
            for locator, ext in cases:
                with self.subTest(locator=locator, ext=ext):
                    out = os.path.join(d, "%s.%s" % (locator, ext))
                    code, _h, rows, _s, err = image_json("@" + mf.C1, "--no-subagents", "--id", locator, "--out", out)
                    self.assertEqual(code, 0, err)
                    source = mf.decoded(sources[locator])
                    with open(out, "rb") as f:
                        written = f.read()
                    self.assertEqual(mf.dimensions(written), mf.dimensions(source))
                    self.assertEqual((rows[0]["width"], rows[0]["height"]),
                                     mf.dimensions(source) if rows[0]["converted"] else (None, None))
                    self.assertEqual(rows[0]["converted"], mf.dimensions(written) is not None and
                                     written != source)
            # The animated GIF's first frame, with a note saying so.
            code, _h, rows, _s, err = image_json("@" + mf.C1, "--no-subagents", "--id", "L27i1", "--out",
                                                 os.path.join(d, "spin.webp"))
            self.assertIn("animated GIF (2 frames, 1.0s): extracted the first frame only", rows[0]["notes"])
            # The same format writes the source bytes untouched (an animated GIF stays animated).
            code, _h, rows, _s, err = image_json("@" + mf.C1, "--no-subagents", "--id", "L27i1", "--out",
                                                 os.path.join(d, "spin.gif"))
            self.assertFalse(rows[0]["converted"])
            with open(os.path.join(d, "spin.gif"), "rb") as f:
                self.assertEqual(f.read(), mf.decoded(sources["L27i1"]))

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as d:
            code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C1, "--no-subagents", "--out",
                                      os.path.join(d, "one.png"))
            self.assertEqual(code, h.EXIT_USAGE)
            self.assertIn("is one file, but", err)
        code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C2, "--out",
                                  os.path.join(HOME, "projects", "x"))
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("never writes there", err)
        code, _o, err = h.run_cli("image", "--claude-home", HOME, "@" + mf.C2, "--id", "1", "--attach")
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("--out", err)


class FixtureStore(unittest.TestCase):
    def test_generator_reproduces_the_committed_store(self):
        h.assert_generator_reproduces(self, "make_compacted_fixtures.py", HOME)


if __name__ == "__main__":
    unittest.main()
