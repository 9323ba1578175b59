"""Real-transcript checks of the record model and the exchange contract (issue #9 points 8, 14, 17, 18), run
on the read-only corpus in place (symlinked into temp stores) and on SPEC.md itself:
- an exchange is its hits plus the round trip's frame (opener, tool partner, end-of-turn answer), never the
  whole turn: `search '' -t user` on a session with hundreds of tool calls shows none of them;
- Claude Code 1.x inline sidechain records (isSidechain in a session file) are the subagent's: no turns, no
  user.message, not the session's first human message;
- a copied session (same records, message ids and request ids, no /fork marker) is marked in `stats` rows and
  its API messages count once in the summary's tokens;
- SPEC.md's record-model section says a task notification opens a turn, as the code does."""
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import corpus_store as cs  # noqa: E402
import harness as h  # noqa: E402

CORPUS = cs.corpus_root()
BACKUPS = os.path.join(CORPUS or "", "claude-backups")
TOOL_HEAVY = ("0c45b0a6-b564-4223-9f39-bc05598a4122",
              os.path.join(BACKUPS, ".claude-home/.config/claude/projects/-home-ubuntu-Documents-Claude"))
SIDECHAINS = ("5b16cde2-87ae-4018-8114-70cccb10e320",
              os.path.join(BACKUPS, "config/projects/-home-ubuntu-Documents-livecd-gen"))
COPIES = ("cli/1e/0baf6917ea/0/full.jsonl", "cli/cd/95adddad32/0/full.jsonl")


def session_store(sid, src_dir):
    return h.TempStore({os.path.basename(src_dir): [os.path.join(src_dir, sid + ".jsonl")]})


class ExchangeFrameOnCorpus(unittest.TestCase):
    def test_user_search_shows_prompts_and_answers_not_the_turns_tool_calls(self):
        self.assertIsNotNone(CORPUS, "corpus not found")
        sid, src = TOOL_HEAVY
        recs = cs.census(os.path.join(src, sid + ".jsonl"))["records"]
        calls = sum(1 for _i, r in recs for b in cs._blocks(r) if b.get("type") == "tool_use")
        self.assertGreater(calls, 100, "the session must be tool-heavy for this check to mean anything")
        with session_store(sid, src) as home:
            code, _hd, rows, _s, err = h.run_json("search", "", "-t", "user", "@" + sid, "--claude-home", home)
            self.assertEqual(code, 0, err)
            code, text, err = h.run_cli("search", "", "-t", "user", "@" + sid, "--claude-home", home)
            self.assertEqual(code, 0, err)
        self.assertGreater(len(rows), 5)
        for x in rows:
            for hit in x["hits"]:
                self.assertTrue(hit["matched"], hit)
                self.assertTrue(hit["label"].startswith("user."), hit["label"])
            roles = [f["frame"] for f in x["frame"]]
            self.assertLessEqual(roles.count("answer"), 1)
            for f in x["frame"]:
                self.assertIn(f["frame"], ("opener", "partner", "answer"))
                if f["frame"] == "answer":
                    self.assertEqual(f["label"], "agent.message")
        self.assertNotIn("agent.tool.use", text)
        self.assertNotIn("agent.thinking", text)


class InlineSidechains(unittest.TestCase):
    def test_sidechain_records_open_no_turn_and_are_not_the_human(self):
        self.assertIsNotNone(CORPUS, "corpus not found")
        sid, src = SIDECHAINS
        path = os.path.join(src, sid + ".jsonl")
        recs = cs.census(path)["records"]
        side_prompts = [i for i, r in recs if r.get("isSidechain") is True and r.get("type") == "user"
                        and isinstance(cs._message(r).get("content"), str)]
        self.assertGreater(len(side_prompts), 3, "the session must hold inline sidechain prompts")
        main = cs.main_lane(recs, path)
        with session_store(sid, src) as home:
            _c, _hd, rows, _s, err = h.run_json("stats", "@" + sid, "--claude-home", home)
            self.assertEqual(rows[0]["turns"], cs.turn_count(main), err)
            self.assertLess(rows[0]["turns"], cs.turn_count(recs), "sidechain prompts must not open turns")
            _c, _hd, rows, _s, err = h.run_json("list", "@" + sid, "--claude-home", home)
            first = cs.first_last_human(main)[0]
            self.assertEqual(rows[0]["first_user"]["line"], first[0], err)
            _c, _hd, rows, _s, err = h.run_json("search", "", "-t", "user.message", "@" + sid, "--claude-home", home)
            lines = {hit["line"] for x in rows for hit in x["hits"]}
            self.assertFalse(lines & set(side_prompts), "a sidechain prompt was reported as user.message")
            _c, _hd, rows, _s, err = h.run_json("search", "", "-t", "agent.communication.inbox", "@" + sid,
                                                "--claude-home", home)
            inbox = {hit["line"]: (x, hit) for x in rows for hit in x["hits"]}
            for line in side_prompts:
                self.assertIn(line, inbox)
                x, hit = inbox[line]
                self.assertEqual((hit["from"], hit["to"]), ("parent", "sidechain"))
                self.assertTrue(x["sidechain"])
                self.assertIsNone(x["turn_index"])


class CopiedSession(unittest.TestCase):
    def test_shared_records_are_marked_and_tokens_count_each_api_message_once(self):
        self.assertIsNotNone(CORPUS, "corpus not found")
        a, b = (os.path.join(CORPUS, p) for p in COPIES)
        name = cs._first_record_field(a, "sessionId") + ".jsonl"  # the same session, copied to a second project
        with h.TempStore({"-copy-a": [(name, a)], "-copy-b": [(name, b)]}) as home:
            code, _hd, rows, summary, err = h.run_json("stats", os.path.join(home, "projects", "-copy-a"),
                                                       os.path.join(home, "projects", "-copy-b"),
                                                       "--claude-home", home)
        self.assertEqual(code, 0, err)
        self.assertEqual(len(rows), 2)
        uuids = [{r.get("uuid") for _i, r in cs.census(p)["records"] if r.get("uuid")} for p in (a, b)]
        shared = uuids[0] & uuids[1]
        self.assertGreater(len(shared), 100)
        for row, other in ((rows[0], rows[1]), (rows[1], rows[0])):
            self.assertEqual(row["shared_records"], len(shared))
            self.assertEqual(row["shares_records_with"], [other["path"]])
        self.assertEqual(summary["shared_records"], len(shared))
        self.assertEqual(summary["transcripts_sharing_records"], 2)
        files = [cs.census(p)["records"] for p in (a, b)]
        pick = lambda t: {m: {f: v.get(f, 0) for f in cs.FIELDS} for m, v in t.items()}  # noqa: E731
        self.assertEqual(pick(summary["tokens"]), cs.tokens_across_files(files))
        summed = {}
        for row in rows:
            for m, v in row["tokens"].items():
                acc = summed.setdefault(m, dict.fromkeys(cs.FIELDS, 0))
                for f in cs.FIELDS:
                    acc[f] += v.get(f, 0)
        self.assertEqual(pick(summary["tokens_sum_of_rows"]), summed)
        out = sum(v["output_tokens"] for v in summary["tokens"].values())
        self.assertLess(out, sum(v["output_tokens"] for v in summed.values()), "the copy must not double the total")
        self.assertIn("tokens", summary["figure_views"])


class SpecTurnOpeners(unittest.TestCase):
    def test_record_model_names_the_task_notification_as_a_turn_opener(self):
        with open(os.path.join(h.REPO, "SPEC.md"), encoding="utf-8") as f:
            spec = f.read()
        m = re.search(r"\*\*A turn opens\*\* on (.*?)Turns are numbered", spec, re.S)
        self.assertIsNotNone(m, "SPEC.md §4 lost its turn-opener sentence")
        openers = " ".join(m.group(1).split())
        self.assertIn("task notification", openers)
        # and the code agrees: a notification hit is its own turn's opener (no other opener in its frame)
        code, _hd, rows, _s, err = h.run_json("search", "", "-t", "harness.notification", "--claude-home",
                                              h.FIXTURE_HOME)
        self.assertEqual(code, 0, err)
        self.assertTrue(any(x["turn_index"] is not None and not any(f["frame"] == "opener" for f in x["frame"])
                            for x in rows))

if __name__ == "__main__":
    unittest.main()
