"""The record shapes Claude Code 2.1.332 writes, over fixtures/records-home (fixtures/make_records_fixtures.py
says what each line holds): every record labelled, the bookkeeping records and request plumbing shown and
counted, a ToolSearch result read as the tools it loaded, an MCP result stored three times counted once, and no
definitive absence for text only the mcpMeta copy of a result or the file Claude Code saved it to holds.
"""
import glob
import json
import os
import shutil
import tempfile
import unittest

import harness as h

HOME = os.path.join(h.REPO, "fixtures", "records-home")
SID = "d2d2d2d2-0332-4332-8332-000000000332"
SID_BATCH = "d2d2d2d2-0332-4332-8332-0000000ba7c4"
FILE = os.path.join(HOME, "projects", "-home-dev-projects-records", SID + ".jsonl")
SAVED_DIR = os.path.join(HOME, "projects", "-home-dev-projects-records", SID, "tool-results")


def lines():
    with open(FILE) as f:
        return [json.loads(line) for line in f]


def cli(*args, home=HOME):
    return h.run_cli(*args, "--claude-home", home)


def rows_by_line(home=HOME):
    code, header, rows, summary, err = h.run_json("show", "@" + SID, "--line", "..", "--max-count", "0",
                                                  "--claude-home", home)
    assert code == h.EXIT_OK, err
    out = {}
    for r in rows:
        out.setdefault(r["line"], []).append(r)
    return out


def search_json(*args, home=HOME):
    return h.run_json("search", *args, "--claude-home", home)


class FixtureStore(unittest.TestCase):
    def test_generator_reproduces_the_committed_store(self):
        h.assert_generator_reproduces(self, "make_records_fixtures.py", HOME)

    def test_it_holds_every_new_shape(self):
        recs = lines()
        types = {r["type"] for r in recs}
        attachments = {r["attachment"]["type"] for r in recs if r["type"] == "attachment"}
        keys = set().union(*(r.keys() for r in recs))
        self.assertLessEqual({"api-request", "api-request-blob", "api-request-shape", "atis-latch", "tools-used",
                              "cost-state", "last-prompt", "queue-operation"}, types)
        self.assertEqual({"prompt_snapshot", "deferred_tools_record", "deferred_tools_delta", "mcp_instructions_delta",
                          "skill_listing", "agent_listing_delta", "remote_session_change", "silent_turn_reminder",
                          "session_context", "environment", "model", "date"}, attachments)
        self.assertLessEqual({"mcpMeta", "mcpCallNotReadOnly", "promptId", "sourceToolAssistantUUID",
                              "permissionDecision", "rowSource", "turnOrigin", "turnPosition", "sentAtMs",
                              "attributionMcpServer", "attributionMcpTool", "requestRef", "requestedModel",
                              "toolInputStreamMs", "madeBy", "apiBlockIndex"}, keys)
        self.assertTrue(os.path.isfile(glob.glob(os.path.join(SAVED_DIR, "mcp-csift-show-*.txt"))[0]))


class EveryRecordLabelled(unittest.TestCase):
    def test_show_renders_every_line(self):
        rows = rows_by_line()
        recs = lines()
        missing = [(i + 1, r["type"]) for i, r in enumerate(recs) if i + 1 not in rows]
        # The content-less queue dequeue (line 2) too: queue bookkeeping, harness.meta.system.
        self.assertEqual(missing, [])
        self.assertEqual([r["label"] for r in rows[2]], ["harness.meta.system"])
        for line, rs in rows.items():
            self.assertTrue(all(r["label"] for r in rs), (line, rs))

    def test_bookkeeping_records_are_harness_meta_system(self):
        rows = rows_by_line()
        expected = {
            10: "[atis-latch]",
            16: "[last-prompt] Find the Marrowfen notes in my sessions.",
            17: "[api-request-shape e306d36fec09] the system prompt and tool definitions as sent",
            18: "[api-request-blob deb7e71c4ba9] a user message as sent (2 block(s))",
            19: "[api-request 11a3f21f-cd41-4724-9ba3-8d256118e4d2] source sdk · shape e306d36fec09 · "
                "1 message blob(s)",
            20: "[tools-used] ToolSearch",
            32: "[cost-state] $0.0064 · claude-opus-5-5: in 1010 out 105 cache read 7 cache write 50 · lines +0 -0 "
                "· api 1s · total 6s",
        }
        for line, text in expected.items():
            self.assertEqual([(r["label"], r["text"]) for r in rows[line]], [("harness.meta.system", text)], line)

    def test_attachments_keep_their_label_and_plumbing_is_summarised(self):
        rows = rows_by_line()
        for line in range(4, 16):
            if line == 10:
                continue
            self.assertEqual([r["label"] for r in rows[line]], ["harness.meta.attachment"], line)
        self.assertEqual(rows[14][0]["text"],
                         "[prompt_snapshot] the system prompt (2 part(s)) and 1 tool definition(s) as sent")
        self.assertEqual(rows[23][0]["text"], "[deferred_tools_record] the definitions of the tools loaded: "
                                              "mcp__csift__show, mcp__csift__search, mcp__csift__stats")
        self.assertIn('"type":"silent_turn_reminder"', rows[15][0]["text"])

    def test_counted_behind_their_gates(self):
        def census(*args):
            code, header, rows, summary, err = search_json("", "--count-by", "label", *args)
            self.assertEqual(code, h.EXIT_OK, err)
            return {r["key"]: r["records"] for r in rows}
        self.assertNotIn("harness.meta.system", census())
        self.assertEqual(census("-t", "harness.meta.system"), {"harness.meta.system": 8})
        self.assertEqual(census("-t", "harness.meta.attachment", "--attachments"), {"harness.meta.attachment": 12})

    def test_plumbing_payload_is_not_searched(self):
        code, out, err = cli("search", "-c", "PlumbingOnlyWord", "-t", "harness.meta", "--attachments")
        self.assertEqual((code, out.strip()), (h.EXIT_OK, "0"), err)

    def test_tool_search_result_reads_as_the_tools_it_loaded(self):
        rows = rows_by_line()
        self.assertEqual([(r["label"], r["text"]) for r in rows[22]],
                         [("agent.tool.result", "mcp__csift__show\nmcp__csift__search\nmcp__csift__stats")])
        code, out, err = cli("search", "-c", "mcp__csift__stats", "-t", "agent.tool.result")
        self.assertEqual((code, out.strip()), (h.EXIT_OK, "1"), err)


class ThreeCopies(unittest.TestCase):
    def test_an_mcp_result_stored_three_times_counts_once(self):
        code, header, rows, summary, err = search_json("CindertallyTriple")
        self.assertEqual(code, h.EXIT_OK, err)
        self.assertEqual(summary["matched_records"], 1)
        hits = [x for r in rows if r.get("kind") == "exchange" for x in r["hits"]]
        self.assertEqual([(x["line"], x["label"]) for x in hits], [(29, "agent.tool.result")])


class NoFalseAbsence(unittest.TestCase):
    def zero(self, pattern, *args, home=HOME):
        code, header, rows, summary, err = search_json(pattern, *args, home=home)
        self.assertEqual((code, summary["matched_records"]), (h.EXIT_OK, 0), err)
        return summary, err

    def hit_lines(self, pattern, *args, home=HOME):
        code, header, rows, summary, err = search_json(pattern, *args, home=home)
        self.assertEqual(code, h.EXIT_OK, err)
        return [x["line"] for r in rows if r.get("kind") == "exchange" for x in r["hits"]], err

    def test_text_only_in_mcpmeta_is_no_definitive_absence(self):
        summary, err = self.zero("LanternwickMeta")
        self.assertIs(summary["definitive_absence"], False)
        self.assertIn("NOT a definitive absence", err)
        self.assertIn("only in the copy Claude Code kept in mcpMeta.structuredContent", err)
        self.assertIn("--resolve-persisted", err)
        self.assertEqual(self.hit_lines("LanternwickMeta", "--resolve-persisted")[0], [27])

    def test_text_only_in_the_saved_file_is_no_definitive_absence(self):
        summary, err = self.zero("QuernstoneFileOnly")
        self.assertIs(summary["definitive_absence"], False)
        self.assertIn("saved to files, which were not read (" + SAVED_DIR + ")", err)
        self.assertIn("--resolve-persisted", err)
        # The pointer names /home/dev/.claude/...: mapped onto this store by its part after projects/.
        lines_, err = self.hit_lines("QuernstoneFileOnly", "--resolve-persisted")
        self.assertEqual(lines_, [25], err)
        self.assertEqual(self.hit_lines("MarrowfenSaved", "--resolve-persisted")[0], [25])

    def test_a_refused_saved_file_leaves_the_zero_undecided_even_with_the_copy(self):
        with tempfile.TemporaryDirectory() as d:
            home = os.path.join(d, "home")
            shutil.copytree(HOME, home)
            saved = glob.glob(os.path.join(home, "projects", "-home-dev-projects-records", SID, "tool-results",
                                           "mcp-csift-show-*.txt"))[0]
            os.truncate(saved, 65 << 20)  # there, but larger than the 64 MiB search reads (sparse: no disk)
            summary, err = self.zero("QuernstoneFileOnly", "--resolve-persisted", home=home)
            self.assertIs(summary["definitive_absence"], False, err)
            (unread,) = summary["saved_results_unread"]
            self.assertEqual((unread["session_id"], unread["line"], unread["refused"], unread["copy_searched"]),
                             (SID, 25, True, True))
            self.assertIn("larger than 64 MiB", unread["reason"])
            self.assertIn("NOT a definitive absence: 1 saved tool result(s) were refused and only the copy Claude "
                          "Code kept in mcpMeta.structuredContent was searched (" + SID + " L25: ", err)
            # A match still names what it did not read, in the text output's footer.
            code, out, err = cli("search", "MarrowfenSaved", "--resolve-persisted", home=home)
            self.assertEqual(code, h.EXIT_OK, err)
            self.assertIn("1 saved tool result not read: " + SID + " L25 ", out)
            self.assertIn("(the mcpMeta copy was searched instead)", out)

    def test_resolved_everything_a_zero_is_definitive_again(self):
        summary, err = self.zero("zzqqxxnothere", "--resolve-persisted")
        self.assertIs(summary["definitive_absence"], True, err)

    def test_an_unreadable_saved_file_falls_back_to_the_mcpmeta_copy(self):
        with tempfile.TemporaryDirectory() as d:
            home = os.path.join(d, "home")
            shutil.copytree(HOME, home)
            shutil.rmtree(os.path.join(home, "projects", "-home-dev-projects-records", SID))
            lines_, err = self.hit_lines("MarrowfenSaved", "--resolve-persisted", home=home)
            self.assertEqual(lines_, [25], err)
            self.assertIn("searched the copy Claude Code kept in mcpMeta.structuredContent instead", err)
            # No saved file left and the mcpMeta copy searched: nothing went unread.
            summary, err = self.zero("zzqqxxnothere", home=home)
            self.assertIs(summary["definitive_absence"], True, err)


class BatchedRecord(unittest.TestCase):
    """One user record delivering a task notification and a peer message (session B): one hit per section,
    each under its own label, each carrying the record's whole label set."""

    def test_each_section_is_a_hit_with_the_records_labels(self):
        code, header, rows, summary, err = search_json("KestrelBatchWord", "@" + SID_BATCH)
        self.assertEqual(code, h.EXIT_OK, err)
        hits = [x for r in rows if r.get("kind") == "exchange" for x in r["hits"]]
        self.assertEqual([(x["line"], x["label"], x["labels"], x["from"]) for x in hits], [
            (5, "harness.notification.background-command", ["harness.notification.background-command"], None),
            (5, "agent.communication.inbox", ["agent.communication.inbox"], "docs-writer")])
        for x in hits:
            self.assertEqual(x["record_labels"],
                             ["harness.notification.background-command", "agent.communication.inbox"])
        code, header, rows, summary, err = search_json("KestrelBatchWord", "@" + SID_BATCH, "-t",
                                                       "agent.communication.inbox")
        self.assertEqual([x["label"] for r in rows if r.get("kind") == "exchange" for x in r["hits"]],
                         ["agent.communication.inbox"], err)


class Tokens(unittest.TestCase):
    def test_stats_equals_the_usage_and_claude_codes_own_tally(self):
        code, header, rows, summary, err = h.run_json("stats", "@" + SID, "--claude-home", HOME)
        self.assertEqual(code, h.EXIT_OK, err)
        tally = [r for r in lines() if r["type"] == "cost-state"][-1]["modelUsage"]["claude-opus-5-5"]
        self.assertEqual(summary["tokens"], {"claude-opus-5-5": {
            "input_tokens": tally["inputTokens"], "output_tokens": tally["outputTokens"],
            "cache_read_input_tokens": tally["cacheReadInputTokens"],
            "cache_creation_input_tokens": tally["cacheCreationInputTokens"]}})
        # Its own cost figure beside ours: the fixture's model is in no price table, so ours is none.
        state = [r for r in lines() if r["type"] == "cost-state"][-1]
        self.assertEqual(rows[0]["harness_cost_usd"], state["totalCostUSD"])
        self.assertIsNone(rows[0]["cost_usd"])
        self.assertEqual(rows[0]["unpriced_models"], ["claude-opus-5-5"])


if __name__ == "__main__":
    unittest.main()
