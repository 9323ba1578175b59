"""show's sparse load (core/search/addressed_load.cpp, tools/show/show_load.cpp) against the full read.

A show address parses only what it names (the addressed lines, the lines holding an addressed uuid), the
possible turn openers and line 1, then reads back the addressed records' tool partners or the addressed turns
whole. Two stdio servers answer every address: one with CSIFT_SEARCH_DENSE=1 (every transcript read whole),
one with CSIFT_SHOW_SPARSE=1 (every address read sparsely when the transcript allows it, whatever share of the
file it names, so the small fixture files exercise it). Each answer — rows, summary, notes, and the error an
address that names nothing gets — must be identical, on the fixture store (every line, every uuid, every turn
of every Claude Code transcript) and on a sample of the real corpus. A comparison that answers nothing on
both sides proves nothing, so most addresses must render rows, and the count is checked.
"""
import json
import os
import random
import sys
import unittest

from mcp_harness import FIXTURE_HOME, SANITIZED, StdioClient, server_env

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import corpus_store as cs  # noqa: E402

MISSING_UUID = "00000000-0000-4000-8000-00000000dead"
TURNS = [str(k) for k in range(0, 12)] + ["-1", "-2..", "1..3", "..0", "99"]


def transcripts(home):
    """The Claude Code transcript files of a store (the elicitation sidecars are never a target)."""
    out = []
    for root, _, names in sorted(os.walk(os.path.join(home, "projects"))):
        for n in sorted(names):
            if n.endswith(".jsonl") and n != "elicitations.jsonl" and n != "journal.jsonl":
                out.append(os.path.join(root, n))
    return out


def file_facts(path):
    """(physical line count, record uuids in file order) from the file's own bytes."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    count = len(lines) - (1 if lines[-1] == b"" else 0)
    uuids = []
    for raw in lines:
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("uuid"), str) and obj["uuid"]:
            uuids.append(obj["uuid"])
    return count, uuids


def addresses(path, sample):
    """The addresses asked of one transcript: every line, uuid and turn (a sample of them on the corpus),
    windows, from-the-end forms, and addresses that name nothing."""
    count, uuids = file_facts(path)
    lines = list(range(1, count + 1))
    seed = os.path.basename(path)  # not the temp store's own name: the same sample on every run
    if sample and len(lines) > sample:
        lines = sorted(random.Random(seed).sample(lines, sample))
    out = [{"line": [str(n)]} for n in lines]
    out += [{"line": [f"{n}..{n + 2}"]} for n in lines[::3]]
    out += [{"line": ["-3.."]}, {"line": ["1", "-1"]}, {"line": [str(count + 5)]}]
    picked = uuids if not sample else random.Random(seed + "u").sample(uuids, min(len(uuids), sample // 2))
    out += [{"uuid": [u]} for u in picked]
    out += [{"uuid": [u], "raw": True} for u in picked[:3]]
    out += [{"uuid": picked[:2]}] if len(picked) >= 2 else []
    out += [{"uuid": [MISSING_UUID]}, {"uuid": [MISSING_UUID], "raw": True}]
    out += [{"turn": t} for t in (TURNS if not sample else TURNS[:4] + TURNS[12:])]
    return out


class SparseShowEqualsFull:
    home = None
    sample = 0  # 0: every line and uuid

    @classmethod
    def start_servers(cls):
        cls.full = StdioClient(env=server_env(cls.home, CSIFT_SEARCH_DENSE="1"))
        cls.sparse = StdioClient(env=server_env(cls.home, CSIFT_SHOW_SPARSE="1", CSIFT_SEARCH_DENSE="0"))
        for c in (cls.full, cls.sparse):
            c.initialize()

    @classmethod
    def stop_servers(cls):
        for c in (cls.full, cls.sparse):
            c.close()

    def answer(self, client, path, address):
        arguments = dict(address, targets=[path], max_count=0)
        if not address.get("raw"):
            arguments["format"] = "json"
        r = client.request("tools/call", {"name": "show", "arguments": arguments}, timeout=120)
        self.assertNotIn("error", r, json.dumps(r)[:500])
        return r["result"]

    def test_every_address_agrees(self):
        compared = rendered = 0
        for path in self.paths():
            for address in addresses(path, self.sample):
                with self.subTest(path=os.path.basename(path), address=address):
                    full = self.answer(self.full, path, address)
                    sparse = self.answer(self.sparse, path, address)
                    self.assertEqual(json.dumps(sparse, sort_keys=True, indent=1).splitlines(),
                                     json.dumps(full, sort_keys=True, indent=1).splitlines())
                    compared += 1
                    rendered += not full.get("isError") and bool(full["structuredContent"].get("rows"))
        self.assertGreater(compared, 0)
        self.assertGreaterEqual(rendered, compared // 2, "too few addresses rendered anything to compare")


class Fixtures(SparseShowEqualsFull, unittest.TestCase):
    home = FIXTURE_HOME

    @classmethod
    def setUpClass(cls):
        cls.start_servers()

    @classmethod
    def tearDownClass(cls):
        cls.stop_servers()

    def paths(self):
        return transcripts(self.home)


class Corpus(cs.CorpusHome, SparseShowEqualsFull, unittest.TestCase):
    home_prefix = "csift-show-sparse-"
    # The sanitizer pass looks for memory errors rather than differences: fewer addresses per file.
    sample = 6 if SANITIZED else 16

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.start_servers()

    @classmethod
    def tearDownClass(cls):
        cls.stop_servers()
        super().tearDownClass()

    def paths(self):
        # The largest sessions (most turns, most tool partners) and a spread of the rest.
        files = sorted((p for p in transcripts(self.home)), key=lambda p: os.path.getsize(p))
        picked = files[-4:] + files[:-4:max(1, len(files) // 10)]
        return picked[:6] if SANITIZED else picked


if __name__ == "__main__":
    unittest.main()
