"""Integration tests over the REAL corpus (../shared/corpus, read-only) and the hand-built fixture store.

The corpus is laid out as a proper Claude Code store in a temp dir by symlinks (corpus_store.py), then
`csift-mcp --cli list` and `--cli stats` run over it uncapped. Every transcript must be accounted for, every
physical line counted, and the first/last human message and the per-model token totals must agree with an
independent Python computation of the spec rules (corpus_store.py). Nothing here is skipped: a missing binary,
a missing tool or a missing corpus is a failure with a message saying which.
"""
import json
import os
import shutil
import tempfile
import unittest

import corpus_store as cs

# The per-session stats fields this test reads (spec §6.12). Checked against schemas/stats.output.json when it
# exists, so a rename there fails here with the name instead of a KeyError somewhere below.
STATS_ROW_FIELDS = ("lines", "line_types", "turns", "tokens", "skipped_lines")
LIST_ROW_FIELDS = ("first_user", "last_user", "path")


def _require_binary(tc):
    b = cs.binary()
    tc.assertTrue(os.path.isfile(b) and os.access(b, os.X_OK),
                  f"csift-mcp binary not found at {b} (set CSIFT_MCP_BIN or build first)")


def _realpath(p):
    return os.path.realpath(p)


def _run_json(tc, tool, home, extra=()):
    code, out, err = cs.run_cli([tool, "--claude-home", home, "--max-count", "0", "--format", "json", *extra])
    tc.assertEqual(code, 0, f"`--cli {tool}` exited {code}; stderr: {err.decode('utf-8', 'replace')[-2000:]}")
    header, rows, summary = cs.parse_envelope(out)
    tc.assertEqual(header.get("command"), tool)
    tc.assertNotIn("error", summary, f"{tool} summary carries an error: {summary.get('error')}")
    return header, rows, summary


def _row_key(row, tc):
    tc.assertIn("path", row, f"row has no path: {str(row)[:300]}")
    return _realpath(row["path"])


def _norm(s):
    return cs.one_line(s or "")


def _excerpt_agrees(row_text, full_text):
    """The row carries a one-line excerpt, possibly cut with `… (+N chars)`; the kept prefix must match."""
    got = _norm(row_text)
    want = _norm(full_text)
    marker = got.rfind("… (+")
    if marker >= 0 and got.endswith(" chars)"):
        kept = got[:marker].rstrip()
        return want.startswith(kept) and len(kept) > 0
    return got == want


class StoreChecks:
    """Shared list/stats agreement checks for one store (self.home, self.expected: realpath -> entry)."""

    optional = set()  # realpaths that may or may not be listed

    @classmethod
    def model(cls, path):
        c = cs.census(path)
        recs = cs.main_lane(c["records"], path)
        first, last = cs.first_last_human(recs)
        drafts = cs.superseded_drafts(recs)
        non_draft = [(i, r) for i, r in recs if cs.is_genuine_user(r) and i not in drafts]
        return {"census": c, "first": first, "last": last,
                "first_nondraft": non_draft[0] if non_draft else None,
                "tokens": cs.tokens_by_model(c["records"]), "turns": cs.turn_count(recs)}

    def check_list(self):
        _require_binary(self)
        _h, rows, summary = _run_json(self, "list", self.home)
        by_path = {}
        for row in rows:
            self.assertEqual(row.get("kind"), "session", f"unexpected list row kind: {str(row)[:200]}")
            for f in LIST_ROW_FIELDS:
                self.assertIn(f, row, f"list row lacks {f!r}")
            k = _row_key(row, self)
            self.assertNotIn(k, by_path, f"transcript listed twice: {k}")
            by_path[k] = row
        missing = sorted(set(self.expected) - set(by_path))
        self.assertEqual(missing, [], f"{len(missing)} transcript(s) not listed, e.g. {missing[:5]}")
        extra = sorted(set(by_path) - set(self.expected) - self.optional)
        self.assertEqual(extra, [], f"rows for unknown transcripts: {extra[:5]}")
        self.assertEqual(summary.get("dropped_by_cap", 0), 0, "--max-count 0 must not drop rows")
        mismatches = []
        for path, entry in sorted(self.expected.items()):
            row, m = by_path[path], self.models[path]
            for field, want, alt in (("first_user", m["first"], m["first_nondraft"]), ("last_user", m["last"], None)):
                got = row.get(field)
                if want is None:
                    if got not in (None, {}):
                        mismatches.append(f"{path}: {field} = {str(got)[:120]!r}, expected none")
                    continue
                if not isinstance(got, dict) or "text" not in got:
                    mismatches.append(f"{path}: {field} missing, expected line {want[0]}: {cs.user_text(want[1])[:80]!r}")
                    continue
                ok = _excerpt_agrees(got["text"], cs.user_text(want[1]))
                if not ok and alt is not None:
                    ok = _excerpt_agrees(got["text"], cs.user_text(alt[1]))
                if not ok:
                    mismatches.append(f"{path}: {field} = {got['text'][:100]!r}, expected line {want[0]}: "
                                      f"{_norm(cs.user_text(want[1]))[:100]!r}")
                elif got.get("line") is not None and got["line"] not in (want[0], alt[0] if alt else None):
                    mismatches.append(f"{path}: {field} line {got['line']}, expected {want[0]}")
        self.assertEqual(mismatches, [], "list disagrees with the spec model:\n" + "\n".join(mismatches[:20]))
        return by_path

    def check_stats(self):
        _require_binary(self)
        _h, rows, summary = _run_json(self, "stats", self.home)
        by_path = {}
        for row in rows:
            self.assertEqual(row.get("kind"), "session", f"unexpected stats row kind: {str(row)[:200]}")
            for f in STATS_ROW_FIELDS:
                self.assertIn(f, row, f"stats row lacks {f!r}: {sorted(row)}")
            k = _row_key(row, self)
            self.assertNotIn(k, by_path, f"transcript counted twice: {k}")
            by_path[k] = row
        missing = sorted(set(self.expected) - set(by_path))
        self.assertEqual(missing, [], f"{len(missing)} transcript(s) without a stats row, e.g. {missing[:5]}")
        extra = sorted(set(by_path) - set(self.expected) - self.optional)
        self.assertEqual(extra, [], f"stats rows for unknown transcripts: {extra[:5]}")
        problems = []
        total_skipped = 0
        total_tokens = {}
        for path in sorted(by_path):
            row = by_path[path]
            total_skipped += row["skipped_lines"]
            for model, t in row["tokens"].items():
                acc = total_tokens.setdefault(model, dict.fromkeys(cs.FIELDS, 0))
                for f in cs.FIELDS:
                    acc[f] += t.get(f, 0)
            if path not in self.models:
                continue
            m = self.models[path]
            c = m["census"]
            if row["lines"] != c["lines"]:
                problems.append(f"{path}: lines {row['lines']} != {c['lines']} physical lines")
            types_total = sum(row["line_types"].values())
            if types_total != c["lines"]:
                problems.append(f"{path}: line_types sum to {types_total}, file has {c['lines']} lines")
            want_skipped = c["malformed"] + c["torn"]
            if row["skipped_lines"] != want_skipped:
                problems.append(f"{path}: skipped_lines {row['skipped_lines']} != {want_skipped} "
                                f"({c['malformed']} malformed + {c['torn']} torn)")
            accounted = len(c["records"]) + want_skipped + c["blank"]
            if accounted != c["lines"]:  # guards the model itself
                problems.append(f"{path}: python census does not add up ({accounted} != {c['lines']})")
            blank = row["line_types"].get("(blank)")
            if blank is not None and blank != c["blank"]:
                problems.append(f"{path}: line_types (blank) {blank} != {c['blank']}")
            got_tokens = {model: {f: t.get(f, 0) for f in cs.FIELDS} for model, t in row["tokens"].items()}
            if got_tokens != m["tokens"]:
                problems.append(f"{path}: tokens {json.dumps(got_tokens, sort_keys=True)} != "
                                f"{json.dumps(m['tokens'], sort_keys=True)}")
            if row["turns"] != m["turns"]:
                problems.append(f"{path}: turns {row['turns']} != {m['turns']}")
        self.assertEqual(problems, [], "stats disagrees with the independent count:\n" + "\n".join(problems[:25]))
        self.assertEqual(summary.get("skipped_lines"), total_skipped, "summary skipped_lines != sum of rows")
        got = {model: {f: t.get(f, 0) for f in cs.FIELDS} for model, t in summary["tokens_sum_of_rows"].items()}
        self.assertEqual(got, total_tokens, "summary tokens_sum_of_rows must sum the rows")
        files = [self.models[p]["census"]["records"] if p in self.models else cs.census(p)["records"]
                 for p in sorted(by_path)]
        got = {model: {f: t.get(f, 0) for f in cs.FIELDS} for model, t in summary["tokens"].items()}
        self.assertEqual(got, cs.tokens_across_files(files),
                         "summary tokens must count each API message once across files")
        return by_path


class CorpusStoreTest(unittest.TestCase, StoreChecks):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.placed = cs.temp_corpus_store("csift-corpus-")
        cls.home = cls.tmp
        cls.expected = {_realpath(p["path"]): p for p in cls.placed if p["kind"] != "orphan_subagent"}
        cls.optional = {_realpath(p["path"]) for p in cls.placed if p["kind"] == "orphan_subagent"}
        cls.models = {k: cls.model(k) for k in cls.expected}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_store_layout(self):
        kinds = {}
        for p in self.placed:
            kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
        self.assertGreaterEqual(kinds.get("session", 0), 40, kinds)
        self.assertGreaterEqual(kinds.get("subagent", 0), 10, kinds)
        self.assertGreaterEqual(kinds.get("legacy_flat", 0), 15, kinds)
        for p in self.placed:
            self.assertTrue(os.path.islink(p["path"]), p["path"])
            name = os.path.basename(p["path"])
            if p["kind"] == "session":
                self.assertTrue(len(name) == 42 and name.endswith(".jsonl"), f"session not uuid-named: {name}")

    def test_model_sanity(self):
        # the independent model must find humans and tokens in the corpus, or the agreement checks prove nothing
        with_human = sum(1 for m in self.models.values() if m["first"] is not None)
        with_tokens = sum(1 for m in self.models.values() if m["tokens"])
        self.assertGreater(with_human, len(self.models) // 2)
        self.assertGreater(with_tokens, len(self.models) // 2)
        over = sum(1 for k in self.models
                   if cs.tokens_by_model(self.models[k]["census"]["records"], dedupe=False) != self.models[k]["tokens"])
        self.assertGreater(over, 0, "no corpus file repeats usage per block: the dedup check is vacuous")

    def test_list_agrees(self):
        self.check_list()

    def test_stats_agrees(self):
        self.check_stats()


class FixtureStoreTest(unittest.TestCase, StoreChecks):
    """The same agreement checks over fixtures/home, plus the hand-computed values of fixtures/README.md."""

    @classmethod
    def setUpClass(cls):
        cls.home = cs.FIXTURE_HOME
        cls.expected = {}
        projects = os.path.join(cls.home, "projects")
        for dirpath, _dirs, files in os.walk(projects):
            for fn in files:
                if fn.endswith(".jsonl") and fn not in ("journal.jsonl", "elicitations.jsonl"):
                    cls.expected[_realpath(os.path.join(dirpath, fn))] = {}
        cls.models = {k: cls.model(k) for k in cls.expected}

    def test_list_agrees(self):
        rows = self.check_list()
        basics = _realpath(os.path.join(self.home, "projects", "-home-dev-projects-csift-demo",
                                        "11111111-1111-4111-8111-000000000001.jsonl"))
        self.assertEqual(rows[basics]["first_user"]["line"], 3)
        self.assertEqual(rows[basics]["last_user"]["line"], 59)
        damaged = [k for k in rows if k.endswith("77777777-7777-4777-8777-000000000007.jsonl")]
        self.assertEqual(len(damaged), 1)
        self.assertEqual(rows[damaged[0]]["last_user"]["line"], 12, "the torn tail must never be the last human")
        clone = [r for k, r in rows.items() if k.endswith("99999999-9999-4999-8999-000000000009.jsonl")][0]
        self.assertIs(clone.get("is_clone"), True)
        self.assertEqual(clone.get("clone_of"), "11111111-1111-4111-8111-000000000001")
        self.assertEqual(clone.get("clone_boundary_uuid"), "01000033-aaaa-4aaa-8aaa-000001000033")
        subs = [r for k, r in rows.items() if k.endswith("44444444-4444-4444-8444-000000000004.jsonl")][0]
        self.assertIs(subs.get("sidecar_present"), True)
        self.assertEqual(len(subs.get("pending_elicitations") or []), 1)

    def test_stats_agrees(self):
        rows = self.check_stats()
        tokens = [r for k, r in rows.items() if k.endswith("22222222-2222-4222-8222-000000000002.jsonl")][0]
        want = {  # fixtures/README.md, hand computed
            "claude-opus-4-6": {"input_tokens": 24, "cache_creation_input_tokens": 1260,
                                "cache_read_input_tokens": 15000, "output_tokens": 510},
            "claude-sonnet-4-5-20250929": {"input_tokens": 26, "cache_creation_input_tokens": 0,
                                           "cache_read_input_tokens": 5200, "output_tokens": 98},
        }
        got = {m: {f: t.get(f, 0) for f in cs.FIELDS} for m, t in tokens["tokens"].items()}
        self.assertEqual(got, want)
        damaged = [r for k, r in rows.items() if k.endswith("77777777-7777-4777-8777-000000000007.jsonl")][0]
        self.assertEqual(damaged["lines"], 13)
        self.assertEqual(damaged["skipped_lines"], 4)  # 3 malformed + torn; the 0xFF line is a record


class LongLineTest(unittest.TestCase):
    """A 10 MB single line (generated at run time, never committed) is read, not skipped."""

    def test_ten_megabyte_line(self):
        _require_binary(self)
        tmp = tempfile.mkdtemp(prefix="csift-long-")
        try:
            proj = os.path.join(tmp, "projects", "-tmp-long")
            os.makedirs(proj)
            sid = "12345678-1234-4234-8234-123456789012"
            big = "x" * (10 * 1024 * 1024)
            recs = [
                {"parentUuid": None, "isSidechain": False, "type": "user", "cwd": "/tmp/long", "sessionId": sid,
                 "message": {"role": "user", "content": "short opener"}, "uuid": "u1",
                 "timestamp": "2026-01-01T00:00:00.000Z"},
                {"parentUuid": "u1", "isSidechain": False, "type": "user", "cwd": "/tmp/long", "sessionId": sid,
                 "message": {"role": "user", "content": "LONG " + big}, "uuid": "u2",
                 "timestamp": "2026-01-01T00:00:01.000Z"},
                {"parentUuid": "u2", "isSidechain": False, "type": "assistant", "cwd": "/tmp/long", "sessionId": sid,
                 "message": {"id": "msg_long", "model": "m", "role": "assistant",
                             "content": [{"type": "text", "text": "done"}],
                             "usage": {"input_tokens": 1, "output_tokens": 2}},
                 "uuid": "a1", "timestamp": "2026-01-01T00:00:02.000Z"},
            ]
            with open(os.path.join(proj, sid + ".jsonl"), "w") as f:
                for r in recs:
                    f.write(json.dumps(r, separators=(",", ":")) + "\n")
            _h, rows, summary = _run_json(self, "stats", tmp)
            self.assertEqual(len(rows), 1)
            self.assertEqual(rows[0]["lines"], 3)
            self.assertEqual(rows[0]["skipped_lines"], 0)
            self.assertEqual(rows[0]["turns"], 2)
            _h, rows, _s = _run_json(self, "list", tmp)
            self.assertEqual(len(rows), 1)
            self.assertTrue(rows[0]["last_user"]["text"].startswith("LONG xxx"))
            self.assertIn("… (+", rows[0]["last_user"]["text"])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class SchemaCoordinationTest(unittest.TestCase):
    """The field names read above must exist in the published output schemas (once they are written)."""

    def _props(self, tool):
        path = os.path.join(cs.REPO, "schemas", f"{tool}.output.json")
        self.assertTrue(os.path.isfile(path), f"schemas/{tool}.output.json does not exist yet")
        with open(path) as f:
            text = f.read()
        return text

    def test_stats_schema_names_fields(self):
        text = self._props("stats")
        for f in STATS_ROW_FIELDS:
            self.assertIn(f'"{f}"', text, f"schemas/stats.output.json does not declare {f!r}")

    def test_list_schema_names_fields(self):
        text = self._props("list")
        for f in LIST_ROW_FIELDS:
            self.assertIn(f'"{f}"', text, f"schemas/list.output.json does not declare {f!r}")


if __name__ == "__main__":
    unittest.main()
