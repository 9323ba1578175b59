"""Triage state through the CLI, over a small Claude Code store built in a temporary directory: watermarks on
append, truncate, rotate and a torn last line; a crash between digest and mark; two digests at once; mark's
refusals; the collection policy (disabled, deny_paths, opt_in_only, a repository's own file, a symlinked
path) and a bad config file. Every run names its own state database and config file, never the user's."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness as h

UUID_A = "a0000000-0000-4000-8000-00000000000a"
UUID_B = "b0000000-0000-4000-8000-00000000000b"
UID = "0190c3a2-7b1e-7c4d-9a2f-3e5d6c7b8a90"


def encode(path):
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def entry(uuid, n, cwd, text):
    return json.dumps({"type": "user", "uuid": f"{uuid[:-4]}{n:04d}", "parentUuid": None, "sessionId": uuid,
                       "timestamp": f"2026-11-30T10:00:{n:02d}.000Z", "cwd": cwd,
                       "message": {"role": "user", "content": text}}) + "\n"


class TriageStateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="csift-triage-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, "claude")
        self.work = os.path.join(self.tmp, "work")
        self.config = os.path.join(self.tmp, "config.toml")
        os.makedirs(self.work)

    def env(self):
        return h.test_env(HOME=self.tmp, CLAUDE_CONFIG_DIR=self.home, CSIFT_STATE_DB=os.path.join(self.tmp, "s.db"),
                          CSIFT_CONFIG=self.config)

    def session(self, uuid, cwd, lines=2):
        os.makedirs(cwd, exist_ok=True)
        d = os.path.join(self.home, "projects", encode(cwd))
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, uuid + ".jsonl")
        with open(path, "w") as f:
            for n in range(lines):
                f.write(entry(uuid, n, cwd, f"prompt {n}"))
        return path

    def cli(self, tool, *args):
        return h.run_json(tool, "--harness", "claude-code", *args, env=self.env()) if tool != "sessions_mark" \
            else h.run_json(tool, *args, env=self.env())

    def listed(self):
        code, _, rows, _, err = self.cli("sessions_list")
        self.assertEqual(code, 0, err)
        return {r["ref"]: r for r in rows}

    def digest(self, ref):
        code, _, rows, _, err = h.run_json("sessions_digest", ref, env=self.env())
        self.assertEqual(code, 0, err)
        return h.rows_of(rows, "session")[0]

    def mark(self, ref):
        code, _, rows, _, err = h.run_json("sessions_mark", ref, "--outcome", "nothing", env=self.env())
        self.assertEqual(code, 0, err)
        return rows[0]

    def test_watermark_append_torn_truncate_rotate_and_crash(self):
        path = self.session(UUID_A, os.path.join(self.work, "p"))
        ref = "claude-code:" + UUID_A
        self.assertEqual(self.listed()[ref]["state"], "new")
        size = os.path.getsize(path)
        self.assertEqual(self.digest(ref)["watermark"]["covered_size"], size)
        # A crash between digest and mark: the session is still new, and the next digest reports the first.
        self.assertEqual(self.listed()[ref]["state"], "new")
        again = self.digest(ref)
        self.assertIsNotNone(again["unmarked_digest_replaced"])
        self.assertEqual(self.mark(ref)["digests_followed"], 2)
        self.assertEqual(self.listed()[ref]["state"], "processed")
        # Append one complete line and a torn one: appended from the marked size; the torn tail is not covered.
        line = entry(UUID_A, 7, os.path.join(self.work, "p"), "more")
        with open(path, "a") as f:
            f.write(line + line[:20])
        row = self.listed()[ref]
        self.assertEqual((row["state"], row["reason"], row["from_offset"], row["size"]),
                         ("changed", "appended", size, size + len(line)))
        d = self.digest(ref)
        self.assertEqual(d["watermark"], {"from_offset": size, "covered_size": size + len(line),
                                          "complete_size": size + len(line)})
        self.mark(ref)
        self.assertEqual(self.listed()[ref]["state"], "processed")
        # The torn line completes: appended again, from where the last digest stopped.
        with open(path, "a") as f:
            f.write(line[20:])
        row = self.listed()[ref]
        self.assertEqual((row["reason"], row["from_offset"]), ("appended", size + len(line)))
        # Truncated, then rotated (first line rewritten, file as large as before).
        with open(path, "r+") as f:
            f.truncate(size)
        self.assertEqual(self.listed()[ref]["reason"], "truncated")
        self.digest(ref)
        self.mark(ref)
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("prompt 0", "prompt X", 1))
        row = self.listed()[ref]
        self.assertEqual((row["state"], row["reason"], row.get("from_offset")), ("changed", "rotated", 0))

    def test_two_digests_at_once_and_mark_refusals(self):
        self.session(UUID_A, os.path.join(self.work, "p"))
        ref = "claude-code:" + UUID_A
        cmd = [h.binary(), "--cli", "sessions_digest", ref, "--format", "json"]
        procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env())
                 for _ in range(2)]
        outs = [p.communicate(timeout=60) for p in procs]
        self.assertEqual([p.returncode for p in procs], [0, 0], [o[1] for o in outs])
        replaced = [h.rows_of(h.parse_envelope(o[0].decode())[1], "session")[0]["unmarked_digest_replaced"]
                    for o in outs]
        self.assertEqual(sum(r is not None for r in replaced), 1, replaced)  # exactly the second is reported
        self.assertEqual(self.mark(ref)["digests_followed"], 2)
        # Refusals: all refs or none.
        code, out, err = h.run_cli("sessions_mark", ref, "claude-code:" + UUID_B, "--outcome", "nothing",
                                   env=self.env())
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("not digested yet", err)
        self.assertIn(UUID_B, err)
        code, out, err = h.run_cli("sessions_mark", ref, "--outcome", "filed", "--uids", "not-a-uuid",
                                   env=self.env())
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("8-4-4-4-12", err)
        code, out, err = h.run_cli("sessions_mark", ref, "--outcome", "done", env=self.env())
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn("filed", err)
        code, _, rows, _, err = h.run_json("sessions_mark", ref, "--outcome", "filed", "--uids", UID, env=self.env())
        self.assertEqual((code, rows[0]["uids"]), (0, [UID]), err)
        # A session the digest cannot take: exit 1, named in the error.
        code, out, err = h.run_cli("sessions_digest", "claude-code:" + UUID_B, env=self.env())
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("not-found", err)

    def test_collection_policy(self):
        private = os.path.join(self.work, "private")
        repo = os.path.join(self.work, "repo")
        self.session(UUID_A, private)
        self.session(UUID_B, repo)
        link = os.path.join(self.work, "linked")
        os.symlink(private, link)
        uuid_c = "c0000000-0000-4000-8000-00000000000c"
        self.session(uuid_c, os.path.join(link, "sub"))
        with open(self.config, "w") as f:
            f.write(f'[collect]\ndeny_paths = ["{private}"]\n')
        rows = self.listed()
        self.assertEqual(rows["claude-code:" + UUID_A]["state"], "denied")
        self.assertIsNone(rows["claude-code:" + UUID_A]["project"])  # refused: nothing read is shown
        self.assertEqual(rows["claude-code:" + uuid_c]["state"], "denied")  # by its resolved path
        self.assertEqual(rows["claude-code:" + UUID_B]["state"], "new")
        os.makedirs(os.path.join(repo, ".git"))
        with open(os.path.join(repo, ".csift-mcp.toml"), "w") as f:
            f.write("[collect]\ndisabled = true\n")
        self.assertEqual(self.listed()["claude-code:" + UUID_B]["state"], "disabled")
        with open(self.config, "w") as f:
            f.write(f'[collect]\nopt_in_only = true\nopt_in_paths = ["{private}"]\n')
        rows = self.listed()
        self.assertEqual(rows["claude-code:" + UUID_A]["state"], "new")
        self.assertEqual(rows["claude-code:" + UUID_B]["state"], "denied")
        with open(self.config, "w") as f:
            f.write("[collect]\ndisabled = true\n")
        self.assertEqual({r["state"] for r in self.listed().values()}, {"disabled"})
        code, out, err = h.run_cli("sessions_digest", "claude-code:" + UUID_A, env=self.env())
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("disabled", err)
        with open(self.config, "w") as f:
            f.write("[collect]\n\ndeny_paths = \"/x\"\n")
        code, out, err = h.run_cli("sessions_list", env=self.env())
        self.assertEqual(code, h.EXIT_USAGE)
        self.assertIn(self.config + " line 3: [collect] deny_paths must be an array of absolute paths", err)

    def test_refused_after_the_read_is_never_digested(self):
        # The digest's own pass is the read the state is settled on: a session whose log records a denied
        # directory (its project folder names another) is neither digested nor listed as unprocessed.
        private = os.path.join(self.work, "private")
        path = self.session(UUID_A, os.path.join(self.work, "open"))
        with open(path, "a") as f:
            f.write(entry(UUID_A, 7, private, "moved"))
        self.session(UUID_B, os.path.join(self.work, "other"))
        with open(self.config, "w") as f:
            f.write(f'[collect]\ndeny_paths = ["{private}"]\n')
        code, _, rows, summary, err = self.cli("sessions_list", "--unprocessed")
        self.assertEqual(code, 0, err)
        self.assertEqual(([r["ref"] for r in rows], summary["not_unprocessed"]), (["claude-code:" + UUID_B], 1))
        code, _, rows, summary, err = self.cli("sessions_digest", "--unprocessed")
        self.assertEqual(code, 0, err)
        self.assertEqual([r["ref"] for r in h.rows_of(rows, "session")], ["claude-code:" + UUID_B])
        self.assertEqual(h.rows_of(rows, "session")[0]["digest"]["counts"]["entries"], 2)
        code, out, err = h.run_cli("sessions_digest", "claude-code:" + UUID_A, env=self.env())
        self.assertEqual(code, h.EXIT_ERROR)
        self.assertIn("denied", err)
        # Once marked, the other is processed: --unprocessed alone leaves it out unread, and counts it.
        self.mark("claude-code:" + UUID_B)
        code, _, rows, summary, err = self.cli("sessions_list", "--unprocessed")
        self.assertEqual((rows, summary["not_unprocessed"]), ([], 2), err)

    def test_since_keeps_a_refused_session_touched_now(self):
        # A session the policy refuses before its log is read is kept by `since` on its log's mtime, which must
        # be stat(2)'s for every harness (not the filesystem library's clock, which is centuries off).
        private = os.path.join(self.work, "private")
        os.makedirs(private)
        stores = os.path.join(self.tmp, "stores")
        codex = os.path.join(stores, "codex", "sessions", "2026", "11", "30")
        os.makedirs(codex)
        with open(os.path.join(codex, "rollout-2026-11-30T10-00-00-0199cccc-0000-7000-8000-000000000001.jsonl"),
                  "w") as f:
            f.write(json.dumps({"type": "session_meta", "timestamp": "2026-11-30T10:00:00.000Z",
                                "payload": {"id": "0199cccc-0000-7000-8000-000000000001", "cwd": private}}) + "\n")
        gemini = os.path.join(stores, "gemini", ".gemini", "tmp", "p1")
        os.makedirs(os.path.join(gemini, "chats"))
        with open(os.path.join(gemini, ".project_root"), "w") as f:
            f.write(private + "\n")
        with open(os.path.join(gemini, "chats", "session-2026-11-30T10-00-g1.jsonl"), "w") as f:
            f.write(json.dumps({"sessionId": "g1", "projectHash": "p1", "startTime": "2026-11-30T10:00:00.000Z"})
                    + "\n")
        copilot = os.path.join(stores, "copilot", "session-state", "c1")
        os.makedirs(copilot)
        with open(os.path.join(copilot, "workspace.yaml"), "w") as f:
            f.write(f"id: c1\ncwd: {private}\n")
        with open(os.path.join(copilot, "events.jsonl"), "w") as f:
            f.write(json.dumps({"type": "session.start", "id": "e1", "timestamp": "2026-11-30T10:00:00.000Z",
                                "data": {"sessionId": "c1"}}) + "\n")
        with open(self.config, "w") as f:
            f.write(f'[collect]\ndeny_paths = ["{private}"]\n')
        env = self.env()
        env.update(CODEX_HOME=os.path.join(stores, "codex"), GEMINI_CLI_HOME=os.path.join(stores, "gemini"),
                   COPILOT_HOME=os.path.join(stores, "copilot"))
        code, _, rows, summary, err = h.run_json("sessions_list", "--harness", "codex", "--harness", "gemini-cli",
                                                 "--harness", "copilot", "--since", "1h", env=env)
        self.assertEqual(code, 0, err)
        self.assertEqual(summary["outside_since"], 0)
        self.assertEqual({r["ref"]: r["state"] for r in rows},
                         {"codex:0199cccc-0000-7000-8000-000000000001": "denied", "gemini-cli:g1": "denied",
                          "copilot:c1": "denied"})


if __name__ == "__main__":
    unittest.main()
