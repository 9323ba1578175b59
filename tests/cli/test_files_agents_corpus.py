"""`files` and `agents` over the REAL corpus (../shared/corpus, read-only), laid out as a store by symlinks.

files: the per-path count of successful structured mutations (`--by file`) must equal an independent count made
here from the raw lines: an Edit / Write / MultiEdit / NotebookEdit tool_use whose tool_result (matched by
tool_use_id, later in the same file) is not is_error:true, attributed to the owning top-level session.

agents: every subagent transcript on disk appears exactly once in the tree; each node's spawn agrees with its
meta.json (toolUseId, parentAgentId); a node is an orphan only when no transcript of its session holds its
spawning call, and then it carries the reason.
"""
import collections
import functools
import json
import os
import shutil
import unittest

import corpus_store as cs

STRUCTURED = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
STRUCTURED_OPS = ("write", "edit", "multi-edit", "notebook-edit")


def _blocks(rec):
    m = rec.get("message")
    c = m.get("content") if isinstance(m, dict) else None
    return [b for b in c if isinstance(b, dict)] if isinstance(c, list) else []


@functools.lru_cache(maxsize=None)
def records(path):
    """The records of one transcript (corpus_store.census), read once per test run."""
    return tuple(cs.census(path)["records"])


def landed_structured(path):
    """[(file path, tool)] of the structured calls in one transcript whose result landed without error."""
    pending, landed = {}, []
    for _line, rec in records(path):
        for b in _blocks(rec):
            if b.get("type") == "tool_use" and b.get("name") in STRUCTURED:
                inp = b.get("input") if isinstance(b.get("input"), dict) else {}
                target = inp.get(STRUCTURED[b["name"]])
                if isinstance(target, str) and target:
                    pending[b.get("id")] = (target, b["name"])
            elif b.get("type") == "tool_result" and b.get("tool_use_id") in pending:
                target = pending.pop(b.get("tool_use_id"))
                if b.get("is_error") is not True:
                    landed.append(target)
    return landed


def owner_of(entry):
    """The owning top-level session: the session's own id, else the sessionId its records carry."""
    if entry["kind"] == "session":
        return entry["id"]
    parts = entry["path"].split(os.sep)
    if "subagents" in parts:
        return parts[parts.index("subagents") - 1]
    return cs._first_record_field(entry["path"], "sessionId")


def _run(tc, tool, home, *extra):
    code, out, err = cs.run_cli([tool, "--claude-home", home, "--format", "json", *extra])
    tc.assertEqual(code, 0, f"`--cli {tool}` exited {code}: {err.decode('utf-8', 'replace')[-2000:]}")
    header, rows, summary = cs.parse_envelope(out)
    tc.assertNotIn("error", summary)
    return header, rows, summary


def _validate(tool, header, rows, summary):
    import jsonschema
    with open(os.path.join(cs.REPO, "schemas", tool + ".output.json")) as f:
        schema = json.load(f)
    jsonschema.validate({"header": header, "rows": rows, "summary": summary}, schema)


class FilesAgentsCorpusTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.placed = cs.temp_corpus_store("csift-files-agents-")
        cls.home = cls.tmp

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_files_by_file_matches_an_independent_count(self):
        expected = collections.Counter()
        for entry in self.placed:
            for target, _tool in landed_structured(entry["path"]):
                expected[(owner_of(entry), target)] += 1
        self.assertGreater(sum(expected.values()), 100, "the corpus should hold many structured edits")
        header, rows, summary = _run(self, "files", self.home, "--by", "file")
        _validate("files", header, rows, summary)
        got = collections.Counter()
        for row in rows:
            if row["kind"] != "file":
                continue
            n = sum(row["ops"].get(op, 0) for op in STRUCTURED_OPS)
            if n:
                got[(row["parent_session_id"], row["path"])] += n
        missing = {k: v for k, v in expected.items() if got.get(k) != v}
        extra = {k: v for k, v in got.items() if k not in expected}
        self.assertEqual(missing, {}, f"paths whose count differs (expected): {list(missing.items())[:10]}")
        self.assertEqual(extra, {}, f"paths counted that the raw lines do not support: {list(extra.items())[:10]}")
        self.assertEqual(summary["structured_mutations"], sum(expected.values()))

    def test_agents_tree_covers_every_subagent_transcript_once(self):
        subagents = [e for e in self.placed if e["kind"] in ("subagent", "legacy_flat")]
        self.assertGreater(len(subagents), 10)
        header, rows, summary = _run(self, "agents", self.home)
        _validate("agents", header, rows, summary)
        agent_rows = [r for r in rows if r["kind"] == "agent" and r["path"]]
        seen = collections.Counter(os.path.realpath(r["path"]) for r in agent_rows)
        want = collections.Counter(os.path.realpath(e["path"]) for e in subagents)
        self.assertEqual(seen, want, "every subagent transcript exactly once in the tree")
        self.assertEqual(summary["agents"], len([r for r in rows if r["kind"] == "agent"]))
        by_path = {os.path.realpath(e["path"]): e for e in subagents}
        for row in agent_rows:
            with self.subTest(agent=row["agent_id"]):
                self.check_spawn(row, by_path[os.path.realpath(row["path"])])

    def test_agents_of_a_session_whose_file_is_absent(self):
        """A sidecar dir with no session file is not a project discovery lists; named by path, its agents still
        form a tree, each an orphan saying the session transcript is absent."""
        lost = [e for e in self.placed if e["kind"] == "orphan_subagent"]
        self.assertTrue(lost)
        for entry in lost:
            _h, rows, summary = _run(self, "agents", self.home, entry["path"])
            sessions = [r for r in rows if r["kind"] == "session"]
            agents = [r for r in rows if r["kind"] == "agent"]
            self.assertEqual([s["session_present"] for s in sessions], [False])
            self.assertEqual([os.path.realpath(a["path"]) for a in agents], [os.path.realpath(entry["path"])])
            self.assertTrue(agents[0]["orphan"])
            self.assertIn("transcript is absent", agents[0]["orphan_reason"])

    def check_spawn(self, row, entry):
        store_path = entry["path"]
        meta_path = store_path[:-len(".jsonl")] + ".meta.json"
        meta = {}
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                meta = json.load(f)
        if meta.get("parentAgentId") and meta["parentAgentId"] != row["agent_id"]:
            self.assertEqual(row["parent_agent_id"], meta["parentAgentId"])
        # Independently: which transcripts of the session hold the spawning call (or a result naming the agent)?
        session_dir = os.path.dirname(store_path)
        if os.path.basename(session_dir) == "subagents":
            session_dir = os.path.dirname(session_dir)
            session_file = session_dir + ".jsonl"
            siblings = [os.path.join(d, f) for d, _s, fs in os.walk(os.path.join(session_dir, "subagents"))
                        for f in fs if f.endswith(".jsonl") and f != "journal.jsonl"]
        else:  # a legacy flat agent beside its session
            session_file = os.path.join(session_dir, owner_of(entry) + ".jsonl")
            siblings = []
        holders = [p for p in [session_file] + siblings if os.path.exists(p) and p != store_path]
        spawn_id = meta.get("toolUseId")
        found = False
        for p in holders:
            for _line, rec in records(p):
                for b in _blocks(rec):
                    if spawn_id and b.get("type") == "tool_use" and b.get("id") == spawn_id:
                        found = True
                    if (b.get("type") == "tool_use" and b.get("name") == "Agent" and meta.get("name")
                            and isinstance(b.get("input"), dict) and b["input"].get("name") == meta["name"]):
                        found = True
                tur = rec.get("toolUseResult")
                if isinstance(tur, dict) and tur.get("agentId") == row["agent_id"]:
                    found = True
                for b in _blocks(rec):
                    if b.get("type") == "tool_result" and f"agentId: {row['agent_id']}" in json.dumps(b.get("content")):
                        found = True
        if row["run_id"]:
            return  # a workflow agent hangs under its run
        if row["orphan"]:
            self.assertFalse(found, f"{row['agent_id']} is marked orphan but its spawn is on disk")
            self.assertTrue(row["orphan_reason"])
        else:
            self.assertTrue(found or meta.get("parentAgentId"),
                            f"{row['agent_id']} has a spawn the raw lines do not show")
            if spawn_id and found:
                self.assertEqual(row["spawn_tool_use_id"], spawn_id)


if __name__ == "__main__":
    unittest.main()
