"""Guards the hand-built fixture store (fixtures/home) against drift: the files must be what fixtures/README.md
and fixtures/inventory.json say they are. Parses every file independently with Python's json module; needs no
csift-mcp binary.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile
import unittest

import corpus_store as cs

P = os.path.join(cs.FIXTURE_HOME, "projects")
DEMO = os.path.join(P, "-home-dev-projects-csift-demo")
INTL = os.path.join(P, "-home-dev-projets-caf---------app")
LEGACY = os.path.join(P, "-Users-dev-legacy-app")
NOTES = os.path.join(P, "-home-dev-projects-notes-only")

S1 = "11111111-1111-4111-8111-000000000001"
S2 = "22222222-2222-4222-8222-000000000002"
S3 = "33333333-3333-4333-8333-000000000003"
S4 = "44444444-4444-4444-8444-000000000004"
S5 = "55555555-5555-4555-8555-000000000005"
S6 = "66666666-6666-4666-8666-000000000006"
S7 = "77777777-7777-4777-8777-000000000007"
S8 = "88888888-8888-4888-8888-000000000008"
S9 = "99999999-9999-4999-8999-000000000009"
S10 = "aaaaaaaa-aaaa-4aaa-8aaa-000000000010"
SUB = os.path.join(DEMO, S4, "subagents")

# path -> (physical lines, blank, malformed, torn, turns, first human line, last human line)  (fixtures/README.md)
EXPECTED = {
    os.path.join(DEMO, S1 + ".jsonl"): (66, 0, 0, 0, 10, 3, 59),
    os.path.join(DEMO, S2 + ".jsonl"): (23, 0, 0, 0, 3, 1, 22),
    os.path.join(DEMO, S3 + ".jsonl"): (36, 0, 0, 0, 14, 1, 34),
    os.path.join(DEMO, S4 + ".jsonl"): (9, 0, 0, 0, 2, 1, 8),
    os.path.join(SUB, "agent-a1b2c3d4e5f60718.jsonl"): (6, 0, 0, 0, 1, 1, 1),
    os.path.join(SUB, "agent-a9f8e7d6c5b4a3f2.jsonl"): (2, 0, 0, 0, 1, 1, 1),
    os.path.join(SUB, "agent-aTeamLead-68a2a1661c9390c1.jsonl"): (4, 0, 0, 0, 2, None, None),
    os.path.join(SUB, "workflows", "wf_7c1d2e3f", "agent-b0b1b2b3b4b5b6b7.jsonl"): (2, 0, 0, 0, 1, 1, 1),
    os.path.join(LEGACY, S5 + ".jsonl"): (9, 0, 0, 0, 3, 2, 8),
    os.path.join(LEGACY, S6 + ".jsonl"): (2, 0, 0, 0, 1, 1, 1),
    os.path.join(LEGACY, "agent-a5e1f2a.jsonl"): (2, 0, 0, 0, 1, 1, 1),
    os.path.join(LEGACY, "agent-a6d0c1e.jsonl"): (2, 0, 0, 0, 1, 1, 1),
    os.path.join(INTL, S7 + ".jsonl"): (13, 3, 3, 1, 3, 1, 12),  # line 8 (raw 0xFF) is a repaired record
    os.path.join(DEMO, S8 + ".jsonl"): (4, 0, 0, 0, 2, 2, 3),
    os.path.join(DEMO, S9 + ".jsonl"): (6, 0, 0, 0, 2, 4, 5),
    os.path.join(INTL, S10 + ".jsonl"): (2, 0, 0, 0, 1, 1, 1),
}


def records(path):
    return cs.census(path)["records"]


def rec_at(path, line):
    for i, r in records(path):
        if i == line:
            return r
    raise AssertionError(f"no record at {path}:{line}")


def raw_lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


class InventoryTest(unittest.TestCase):
    def test_transcript_set(self):
        found = set()
        for dirpath, _d, files in os.walk(P):
            for fn in files:
                if fn.endswith(".jsonl") and fn not in ("journal.jsonl", "elicitations.jsonl"):
                    found.add(os.path.join(dirpath, fn))
        self.assertEqual(sorted(found), sorted(EXPECTED))

    def test_counts_and_humans(self):
        for path, (lines, blank, malformed, torn, turns, first, last) in EXPECTED.items():
            with self.subTest(path=os.path.relpath(path, P)):
                c = cs.census(path)
                self.assertEqual((c["lines"], c["blank"], c["malformed"], c["torn"]), (lines, blank, malformed, torn))
                recs = c["records"]
                self.assertEqual(cs.turn_count(recs), turns)
                f, l = cs.first_last_human(recs)
                self.assertEqual(f[0] if f else None, first)
                self.assertEqual(l[0] if l else None, last)

    def test_inventory_json_matches_files(self):
        with open(os.path.join(cs.FIXTURES, "inventory.json"), encoding="utf-8") as f:
            inv = json.load(f)
        self.assertEqual(len(inv), len(EXPECTED))
        for rel, entry in inv.items():
            path = os.path.join(cs.FIXTURES, rel)
            self.assertIn(path, EXPECTED)
            self.assertEqual(entry["lines"], EXPECTED[path][0], rel)
            recs = dict(records(path))
            for line, tags in entry["tags"].items():
                n = int(line)
                if "genuine-user" in tags:
                    self.assertTrue(cs.is_genuine_user(recs[n]), f"{rel}:{n} should be genuine")
                if "turn-opener" in tags:
                    self.assertTrue(cs.opens_turn(recs[n]), f"{rel}:{n} should open a turn")
                if "malformed" in tags or "torn-tail" in tags or "blank-line" in tags:
                    self.assertNotIn(n, recs, f"{rel}:{n} should not parse")
                if "text-repaired" in tags:
                    self.assertIn(n, recs, f"{rel}:{n} is a record (only its encoding is faulty)")
                for shape in ("interrupt", "isMeta", "compact-summary", "slash-wrapper", "local-command-stdout",
                              "peer", "task-notification", "agents-stopped-notice", "tool_result"):
                    if shape in tags and n in recs:
                        self.assertFalse(cs.is_genuine_user(recs[n]), f"{rel}:{n} ({shape}) must not be genuine")

    def test_compact_wire_format(self):
        spaced_ok = {(os.path.join(INTL, S7 + ".jsonl"), n) for n in (10, 11, 12)}
        for path in EXPECTED:
            for i, line in enumerate(raw_lines(path), start=1):
                if not line.startswith(b"{") or (path, i) in spaced_ok:
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                self.assertEqual(line, json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(),
                                 f"{path}:{i} is not in compact wire format")

    def test_damaged_session(self):
        path = os.path.join(INTL, S7 + ".jsonl")
        with open(path, "rb") as f:
            data = f.read()
        self.assertFalse(data.endswith(b"\n"), "the torn tail must have no trailing newline")
        lines = data.split(b"\n")
        self.assertEqual(len(lines), 13)
        self.assertIn(b"\xff", lines[7], "line 8 must hold the raw invalid UTF-8 byte 0xFF")
        with self.assertRaises(UnicodeDecodeError):
            lines[7].decode("utf-8")
        self.assertTrue(lines[7].startswith(b"{") and lines[7].endswith(b"}"))
        # its only fault is the encoding: it is a record, parsed with U+FFFD in place of the byte
        c = cs.census(path)
        self.assertEqual(c["repaired"], [8])
        rec = dict(c["records"])[8]
        self.assertEqual(rec["message"]["content"][0]["text"], "byte here:\ufffd<-")
        self.assertEqual(lines[1], b"")
        self.assertEqual(lines[6], b"   ")
        self.assertFalse(lines[3].startswith(b"{"))
        self.assertTrue(lines[4].startswith(b"{") and not lines[4].endswith(b"}"))
        self.assertTrue(lines[5].startswith(b"{") and lines[5].endswith(b"}"))
        self.assertIn(b'"role": "user"', lines[9])
        self.assertIn(b'"role": "user"', lines[11])
        self.assertIn("日本語".encode(), lines[0])
        self.assertIn("🚀".encode(), lines[0])
        self.assertIn(b"\\ud83d\\ude42", lines[10], "line 11 carries an ASCII-escaped surrogate pair emoji")

    def test_basics_shapes(self):
        path = os.path.join(DEMO, S1 + ".jsonl")
        recs = dict(records(path))
        types = collections.Counter(r.get("type") for r in recs.values())
        self.assertEqual(types["user"], 31)
        self.assertEqual(types["assistant"], 17)
        self.assertEqual(types["system"], 6)
        for t in ("permission-mode", "mode", "last-prompt", "ai-title", "file-history-delta", "attachment"):
            self.assertGreaterEqual(types[t], 1, t)
        self.assertEqual(types["file-history-snapshot"], 2)
        self.assertEqual(types["queue-operation"], 3)
        subtypes = sorted(r.get("subtype") for r in recs.values() if r.get("type") == "system")
        self.assertEqual(subtypes, ["api_error", "away_summary", "compact_boundary", "stop_hook_summary",
                                    "turn_duration", "turn_duration"])
        self.assertEqual(cs.user_text(recs[17]), "[Request interrupted by user]")
        self.assertEqual(cs.user_text(recs[21]), "[Request interrupted by user for tool use]")
        self.assertTrue(recs[23]["message"]["content"].startswith("<command-name>"))
        self.assertTrue(recs[25]["message"]["content"].startswith("<command-message>"))
        self.assertIn("<command-args>the verbose flag change</command-args>", recs[27]["message"]["content"])
        self.assertIn("<command-args></command-args>", recs[28]["message"]["content"])
        for n in (22, 29, 31, 32):
            self.assertIs(recs[n].get("isMeta"), True)
        self.assertIs(recs[34].get("isCompactSummary"), True)
        self.assertEqual(recs[33]["subtype"], "compact_boundary")
        self.assertTrue(cs.is_auq_answer(recs[37]) and cs.is_auq_answer(recs[39]))
        self.assertFalse(cs.is_auq_answer(recs[41]))
        self.assertTrue(cs.is_rejection_with_message(recs[44]))
        self.assertFalse(cs.is_rejection_with_message(recs[46]) or cs.is_rejection_with_message(recs[20]))
        self.assertEqual(recs[47]["parentUuid"], recs[48]["parentUuid"])
        self.assertEqual(cs.superseded_drafts(records(path)), {47})
        tur = recs[50]["toolUseResult"]
        rel = tur["persistedOutputPath"].split("/.claude/projects/", 1)[1]
        self.assertTrue(os.path.isfile(os.path.join(P, rel)), rel)
        self.assertTrue(recs[10]["message"]["content"][0]["is_error"])
        self.assertEqual({r["message"]["content"][0]["name"] for r in recs.values() if r.get("type") == "assistant"
                          and r["message"]["content"][0]["type"] == "tool_use"},
                         {"Read", "Bash", "Edit", "AskUserQuestion", "ExitPlanMode"})
        # record uuid convention
        for n, r in recs.items():
            if "uuid" in r:
                self.assertEqual(r["uuid"], f"01{n:06d}-aaaa-4aaa-8aaa-000001{n:06d}")

    def test_tokens_session(self):
        recs = records(os.path.join(DEMO, S2 + ".jsonl"))
        right = cs.tokens_by_model(recs)
        wrong = cs.tokens_by_model(recs, dedupe=False)
        opus, sonnet = "claude-opus-4-6", "claude-sonnet-4-5-20250929"
        self.assertEqual(right[opus], {"input_tokens": 24, "output_tokens": 510, "cache_read_input_tokens": 15000,
                                       "cache_creation_input_tokens": 1260})
        self.assertEqual(right[sonnet], {"input_tokens": 26, "output_tokens": 98, "cache_read_input_tokens": 5200,
                                         "cache_creation_input_tokens": 0})
        self.assertEqual(wrong[opus], {"input_tokens": 56, "output_tokens": 731, "cache_read_input_tokens": 26000,
                                       "cache_creation_input_tokens": 3510})
        self.assertEqual(wrong[sonnet], {"input_tokens": 66, "output_tokens": 258, "cache_read_input_tokens": 15200,
                                         "cache_creation_input_tokens": 0})
        ids = collections.Counter(r["message"].get("id") for _i, r in recs if r.get("type") == "assistant")
        self.assertEqual(ids[None], 2)
        self.assertEqual(ids["msg_02TokensMsg00001"], 3)
        self.assertEqual(ids["msg_02TokensMsg00003"], 3)

    def test_peers_session(self):
        recs = dict(records(os.path.join(DEMO, S3 + ".jsonl")))
        pre = [cs.user_text(recs[n]).split("\n", 1)[0] for n in range(6, 12)]
        self.assertEqual(pre, list(cs.PEER_PREAMBLES) * 2)
        for n in range(6, 12):
            self.assertTrue(cs.is_peer_record(recs[n]))
        self.assertTrue(cs.is_genuine_user(recs[12]), "a peer tag quoted mid-prose stays the human")
        self.assertEqual(cs.user_text(recs[20]).count("<task-notification>"), 2)
        summaries = [cs.user_text(recs[n]) for n in range(20, 25)]
        self.assertIn('<summary>Background command "', summaries[0])
        self.assertIn("<summary>Agent ", summaries[0])
        self.assertIn("<summary>Monitor ", summaries[1])
        self.assertIn("<summary>Dynamic workflow ", summaries[2])
        self.assertIn("<summary>Reminder task", summaries[3])
        for n in (25, 26):
            self.assertTrue(cs.is_agents_stopped(cs.user_text(recs[n])))
            self.assertFalse(cs.opens_turn(recs[n]))
        sends = [r["message"]["content"][0]["input"]["type"] for r in recs.values()
                 if r.get("type") == "assistant" and r["message"]["content"][0].get("name") == "SendMessage"]
        self.assertEqual(sends, ["message", "shutdown_request"])

    def test_subagent_layout(self):
        def meta(p):
            with open(p) as f:
                return json.load(f)
        builtin = meta(os.path.join(SUB, "agent-a1b2c3d4e5f60718.meta.json"))
        self.assertEqual(builtin["toolUseId"], "toolu_04SubsTask00002")
        parent = dict(records(os.path.join(DEMO, S4 + ".jsonl")))
        self.assertEqual(parent[2]["message"]["content"][0]["id"], builtin["toolUseId"])
        self.assertEqual(parent[3]["message"]["content"][0]["tool_use_id"], builtin["toolUseId"])
        nested = meta(os.path.join(SUB, "agent-a9f8e7d6c5b4a3f2.meta.json"))
        self.assertEqual(nested["parentAgentId"], "a1b2c3d4e5f60718")
        spawner = dict(records(os.path.join(SUB, "agent-a1b2c3d4e5f60718.jsonl")))
        self.assertEqual(spawner[4]["message"]["content"][0]["id"], nested["toolUseId"])
        team = meta(os.path.join(SUB, "agent-aTeamLead-68a2a1661c9390c1.meta.json"))
        self.assertEqual(team["taskKind"], "in_process_teammate")
        self.assertNotIn("toolUseId", team)
        self.assertEqual(parent[6]["message"]["content"][0]["input"]["name"], team["name"])
        wf = os.path.join(SUB, "workflows", "wf_7c1d2e3f")
        self.assertEqual(meta(os.path.join(wf, "agent-b0b1b2b3b4b5b6b7.meta.json")), {"agentType": "workflow-subagent"})
        with open(os.path.join(wf, "journal.jsonl")) as f:
            journal = [json.loads(l) for l in f]
        self.assertEqual([j["type"] for j in journal], ["started", "result"])
        self.assertTrue(all("message" not in j for j in journal))
        for path in (os.path.join(SUB, "agent-a1b2c3d4e5f60718.jsonl"), os.path.join(wf, "agent-b0b1b2b3b4b5b6b7.jsonl")):
            for _i, r in records(path):
                self.assertIs(r["isSidechain"], True)
                self.assertEqual(r["sessionId"], S4)
        with open(os.path.join(DEMO, S4, "elicitations.jsonl")) as f:
            side = [json.loads(l) for l in f]
        keys = collections.defaultdict(set)
        for o in side:
            self.assertEqual(o["csift"], "elicitation-marker-v1")
            keys[o["csiftKey"]].add(o["csiftPhase"])
        self.assertEqual(dict(keys), {"k-publish": {"pending", "resolved"}, "k-branch": {"pending"}})

    def test_legacy_and_clones(self):
        recs = dict(records(os.path.join(LEGACY, S5 + ".jsonl")))
        self.assertEqual(recs[1]["type"], "summary")
        self.assertEqual(recs[2]["version"], "1.0.80")
        self.assertEqual([n for n, r in recs.items() if r.get("isSidechain")], [4, 5])
        for fn in ("agent-a5e1f2a.jsonl", "agent-a6d0c1e.jsonl"):
            for _i, r in records(os.path.join(LEGACY, fn)):
                self.assertIs(r["isSidechain"], True)
        fork = dict(records(os.path.join(DEMO, S8 + ".jsonl")))
        self.assertEqual(fork[1]["type"], "fork-context-ref")
        self.assertNotIn("timestamp", fork[1])
        clone = records(os.path.join(DEMO, S9 + ".jsonl"))
        first_ts = next(r for _i, r in clone if r.get("timestamp"))
        self.assertEqual(first_ts.get("subtype"), "compact_boundary")
        basics = dict(records(os.path.join(DEMO, S1 + ".jsonl")))
        self.assertEqual(first_ts["uuid"], basics[33]["uuid"])
        self.assertTrue(os.path.isfile(os.path.join(NOTES, "memory", "MEMORY.md")))
        self.assertEqual([f for f in os.listdir(NOTES) if f.endswith(".jsonl")], [])
        self.assertEqual(cs.encode_cwd(recs[2]["cwd"]), os.path.basename(LEGACY))
        intl = dict(records(os.path.join(INTL, S10 + ".jsonl")))
        self.assertEqual(cs.encode_cwd(intl[1]["cwd"]), os.path.basename(INTL))

    def test_files_small(self):
        for dirpath, _d, files in os.walk(cs.FIXTURE_HOME):
            for fn in files:
                self.assertLess(os.path.getsize(os.path.join(dirpath, fn)), 50 * 1024, fn)

    def test_generator_is_byte_identical(self):
        """make_fixtures.py regenerates exactly the committed files (run into a copy, never over the originals)."""
        tmp = tempfile.mkdtemp(prefix="csift-fixtures-")
        try:
            with open(os.path.join(cs.FIXTURES, "make_fixtures.py"), "rb") as f:
                src = f.read()
            with open(os.path.join(tmp, "make_fixtures.py"), "wb") as f:
                f.write(src)
            subprocess.run([sys.executable, os.path.join(tmp, "make_fixtures.py")], check=True,
                           stdout=subprocess.DEVNULL)

            def tree(root):
                out = {}
                for dirpath, _d, files in os.walk(root):
                    for fn in files:
                        p = os.path.join(dirpath, fn)
                        with open(p, "rb") as f:
                            out[os.path.relpath(p, root)] = f.read()
                return out

            self.assertEqual(tree(os.path.join(tmp, "home")), tree(cs.FIXTURE_HOME))
            with open(os.path.join(tmp, "inventory.json"), "rb") as a, \
                    open(os.path.join(cs.FIXTURES, "inventory.json"), "rb") as b:
                self.assertEqual(a.read(), b.read())
        finally:
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
