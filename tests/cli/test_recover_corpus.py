"""`recover` over the REAL corpus (../shared/corpus, read-only, laid out as a store by symlinks), checked against
an independent replay written here from the raw lines: a file's content is known from its first successful
Write (toolUseResult content, else the call's content), and each later successful Edit / MultiEdit / Write
applies in transcript order — an edit by its structuredPatch, in a keep-newline line model (a hunk line
followed by "\\ No newline at end of file" has no newline). A patch that does not fit, or an edit whose
originalFile differs from the content held, loses the content.

Every file the corpus wrote, edited or read is recovered by ONE batch call (files_from + out_dir). Where both
claim completeness the bytes must be equal; where this replay is complete and recover is not, recover's row
must name a boundary that exists in the raw lines (an error result saying the file was modified since read,
an edit whose originalFile disagrees with this replay's content, a Bash call, an attachment) or a gap.
"""
import collections
import functools
import json
import os
import shutil
import tempfile
import unittest

import corpus_store as cs

CONTENT_TOOLS = ("Read", "Write", "Edit", "MultiEdit")


def _blocks(rec):
    m = rec.get("message")
    c = m.get("content") if isinstance(m, dict) else None
    return [b for b in c if isinstance(b, dict)] if isinstance(c, list) else []


def _split_nl(text):
    out, i = [], 0
    while True:
        j = text.find("\n", i)
        if j < 0:
            if i < len(text):
                out.append(text[i:])
            return out
        out.append(text[i:j + 1])
        i = j + 1


def apply_patch(text, hunks):
    """The file after a structuredPatch, or None when a hunk does not fit."""
    lines = _split_nl(text)
    delta = 0
    for h in hunks:
        old, new = [], []
        for raw in h.get("lines", []):
            tag, body = (raw[:1], raw[1:]) if raw else (" ", "")
            if tag == "\\":
                # the previous line on the side(s) it belongs to has no newline
                if prev_tag in (" ", "-") and old and old[-1].endswith("\n"):
                    old[-1] = old[-1][:-1]
                if prev_tag in (" ", "+") and new and new[-1].endswith("\n"):
                    new[-1] = new[-1][:-1]
                continue
            if tag != "+":
                old.append(body + "\n")
            if tag != "-":
                new.append(body + "\n")
            prev_tag = tag
        start = (h["oldStart"] if h.get("oldLines", 0) == 0 else h["oldStart"] - 1) + delta
        if lines[start:start + len(old)] != old:
            return None
        lines[start:start + len(old)] = new
        delta += len(new) - len(old)
    return "".join(lines)


@functools.lru_cache(maxsize=None)
def records_by_line(path):
    return dict(cs.census(path)["records"])


def corpus_events(placed):
    """{path: [(order_ts, transcript idx, line, kind, payload, session, original)]} from the raw lines."""
    events = collections.defaultdict(list)
    paths = set()
    for ti, entry in enumerate(placed):
        pending = {}
        running = ""
        for line, rec in cs.census(entry["path"])["records"]:
            ts = rec.get("timestamp") if isinstance(rec.get("timestamp"), str) else ""
            running = max(running, ts)
            for b in _blocks(rec):
                if b.get("type") == "tool_use" and b.get("name") in CONTENT_TOOLS:
                    inp = b.get("input") if isinstance(b.get("input"), dict) else {}
                    fp = inp.get("file_path")
                    if isinstance(fp, str) and fp.startswith("/"):
                        pending[b.get("id")] = (b["name"], os.path.normpath(fp), inp)
                        paths.add(os.path.normpath(fp))
                elif b.get("type") == "tool_result" and b.get("tool_use_id") in pending:
                    name, fp, inp = pending.pop(b.get("tool_use_id"))
                    if b.get("is_error") is True or name == "Read":
                        continue
                    tur = rec.get("toolUseResult") if isinstance(rec.get("toolUseResult"), dict) else {}
                    orig = tur.get("originalFile", tur.get("originalFileContents"))
                    if name == "Write":
                        content = tur.get("content") if isinstance(tur.get("content"), str) else inp.get("content")
                        if isinstance(content, str):
                            events[fp].append((running, ti, line, "write", content, orig))
                    else:
                        events[fp].append((running, ti, line, "edit", tur.get("structuredPatch") or [], orig))
    return events, paths


def independent_replay(evs):
    content = None
    for _ts, _ti, _line, kind, payload, orig in sorted(evs, key=lambda e: (e[0], e[1], e[2])):
        if content is not None and isinstance(orig, str) and orig != content:
            content = None  # the file on disk was not what this replay holds: it lost track
        if kind == "write":
            content = payload
        elif content is not None:
            content = apply_patch(content, payload) if payload else None
    return content


class RecoverCorpusTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.placed = cs.temp_corpus_store("csift-recover-corpus-")
        cls.events, cls.paths = corpus_events(cls.placed)
        cls.out_dir = tempfile.mkdtemp(prefix="csift-recover-out-")
        manifest = os.path.join(cls.out_dir, "manifest.txt")
        with open(manifest, "w") as f:
            f.write("\n".join(sorted(cls.paths)) + "\n")
        cls.restore_dir = os.path.join(cls.out_dir, "restored")
        code, out, err = cs.run_cli(["recover", "--claude-home", cls.tmp, "--files-from", manifest, "--out-dir",
                                     cls.restore_dir, "--format", "json"])
        assert code == 0, err.decode()[-2000:]
        _h, rows, cls.summary = cs.parse_envelope(out)
        cls.rows = {r["file"]: r for r in rows if r["kind"] == "recovered"}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)
        shutil.rmtree(cls.out_dir, ignore_errors=True)

    def test_every_listed_file_has_a_row_and_the_report_agrees(self):
        self.assertEqual(set(self.rows), self.paths)
        with open(os.path.join(self.restore_dir, "recovery-report.tsv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0].split("\t")[:3], ["status", "known_lines", "total_lines"])
        report = {ln.split("\t")[6]: ln.split("\t")[0] for ln in lines[1:]}
        self.assertEqual(report, {p: r["status"] for p, r in self.rows.items()})

    def test_complete_reconstructions_match_the_independent_replay(self):
        equal, refused_named, both_complete = 0, 0, 0
        boundaries = collections.Counter()
        for path in sorted(self.paths):
            mine = independent_replay(self.events.get(path, []))
            row = self.rows[path]
            if row["status"] == "complete":
                with open(os.path.join(self.restore_dir, path.lstrip("/")), "rb") as f:
                    got = f.read().decode("utf-8", "surrogateescape")
                self.assertIsNotNone(row["written_to"])
                if mine is not None:
                    both_complete += 1
                    self.assertEqual(got, mine, f"{path}: recover's bytes differ from the independent replay")
                    equal += 1
            elif mine is not None:
                # recover refused what a naive replay calls complete: it must point at a real boundary or gap
                named = row["boundaries"] or row["coverage_holes"] or row["missing"]
                self.assertTrue(named, f"{path}: refused without a boundary or gap: {row}")
                refused_named += 1
            if row["status"] != "complete":
                self.assertTrue(row["missing"], f"{path}: not complete, yet no missing range: {row}")
            for b in row["boundaries"]:  # every boundary named, complete or not, is in the raw lines
                self.assert_real_boundary(path, b)
                boundaries[b["cause"]] += 1
        print(f"\n[recover corpus] files {len(self.paths)}; both complete and byte-equal {equal}; "
              f"refused with a named boundary/gap where the naive replay was complete {refused_named}; "
              f"summary {json.dumps({k: self.summary[k] for k in ('complete', 'partial', 'no_history')})}; "
              f"boundaries checked against the raw lines {dict(boundaries)}")
        self.assertGreater(equal, 5)

    def assert_real_boundary(self, path, b):
        entry = next(e for e in self.placed if e["id"] == b["source_session_id"])
        recs = records_by_line(entry["path"])
        rec = recs.get(b["source_line"])
        self.assertIsNotNone(rec, f"{path}: boundary at a line that is not a record: {b}")
        raw = json.dumps(rec)
        cause = b["cause"]
        if cause == "modified-since-read":
            self.assertIn("modified since read", raw)
        elif cause == "original-file-disagreement":
            self.assertTrue("originalFile" in raw, f"{path}: {b}")
        elif cause in ("bash-mutation", "bash-append-unplaced"):
            self.assertIn(os.path.basename(path), raw)
        elif cause == "external-edit":
            self.assertIn("edited_text_file", raw)
        elif cause == "hint-modified":
            self.assertIn("staleReadFileStateHint", raw)
        elif cause == "stale-recovered":
            self.assertIn("staleRecovered", raw)
        else:
            self.fail(f"unknown boundary cause {cause}")


if __name__ == "__main__":
    unittest.main()
