"""Golden sessions_list and sessions_digest outputs per harness over the labelled triage fixtures
(fixtures/triage/home plays $HOME for every store): any difference fails. `<harness>.list.json` is the whole
sessions_list envelope; `<harness>.digest-run.json` the whole sessions_digest envelope with each session's digest
object replaced by a pointer, because that object must equal `<harness>.digest.json`, the detector's own golden
(tests/unit/triage_digest_test.cpp). Only what varies by machine is normalised: the source tree's path and the
temporary state database's. CSIFT_REGEN_GOLDEN=1 rewrites the two files of this test (review the diff)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import harness as h

TRIAGE = os.path.realpath(os.path.join(h.REPO, "fixtures", "triage"))
GOLDEN = os.path.join(TRIAGE, "golden")
FILE_HARNESSES = ["claude-code", "codex", "gemini-cli", "copilot", "cursor"]
# OpenCode's sessions live in databases built at test time (nothing binary committed): OpenCode 1's from the
# labelled export file, OpenCode 2's by the generator's migrated store (a native session beside a migrated one).
MAKE_OPENCODE_DB = os.path.join(h.REPO, "fixtures", "opencode", "make_opencode_db.sh")


def golden_ref(harness):
    with open(os.path.join(GOLDEN, f"{harness}.digest.json")) as f:
        return json.load(f)["ref"]


def normalise(text, tmp):
    return text.replace(tmp, "<tmp>").replace(os.path.realpath(h.REPO), "<repo>")


class TriageGoldenTest(unittest.TestCase):
    def run_harness(self, harness):
        tmp = tempfile.mkdtemp(prefix="csift-golden-")
        self.addCleanup(shutil.rmtree, tmp, True)
        home = os.path.join(TRIAGE, "home")
        env = h.test_env(HOME=home, CSIFT_STATE_DB=os.path.join(tmp, "state.db"),
                         CSIFT_CONFIG=os.path.join(tmp, "none.toml"), XDG_DATA_HOME=os.path.join(tmp, "data"))
        if harness.startswith("opencode-"):
            db = os.path.join(tmp, "opencode.db")
            make = ["export", db, os.path.join(TRIAGE, "opencode-session.json")] if harness == "opencode-v1" \
                else ["v2", db]
            subprocess.run(["bash", MAKE_OPENCODE_DB] + make, check=True, capture_output=True)
            env["OPENCODE_DB"] = db
        for var in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "OPENCODE_DB",
                    "XDG_CONFIG_HOME", "CURSOR_CONFIG_DIR"):
            if not (var == "OPENCODE_DB" and harness.startswith("opencode-")):
                env.pop(var, None)
        out = {}
        for tool, args in (("sessions_list", []), ("sessions_digest", ["--unprocessed"])):
            code, text, err = h.run_cli(tool, "--harness", harness, *args, "--format", "json", env=env)
            self.assertEqual(code, 0, err)
            header, rows, summary = h.parse_envelope(text)
            for row in rows:
                if tool == "sessions_digest" and row["kind"] == "session":
                    out.setdefault("digests", []).append(row["digest"])
                    # The detector's golden session is a pointer here; any other stays whole in this golden.
                    if row["digest"].get("ref") == golden_ref(harness):
                        row["digest"] = f"<{harness}.digest.json>"
            out[tool] = normalise(json.dumps({"header": header, "rows": rows, "summary": summary}, indent=1,
                                             ensure_ascii=False) + "\n", tmp)
        return out

    def test_golden_per_harness(self):
        regen = os.environ.get("CSIFT_REGEN_GOLDEN") == "1"
        for harness in FILE_HARNESSES + ["opencode-v1", "opencode-v2"]:
            with self.subTest(harness=harness):
                got = self.run_harness(harness)
                for tool, kind in (("sessions_list", "list"), ("sessions_digest", "digest-run")):
                    path = os.path.join(GOLDEN, f"{harness}.{kind}.json")
                    if regen:
                        os.makedirs(GOLDEN, exist_ok=True)
                        with open(path, "w") as f:
                            f.write(got[tool])
                    with open(path) as f:
                        self.assertEqual(got[tool], f.read(), f"{path} differs (CSIFT_REGEN_GOLDEN=1 rewrites it)")
                self.assertGreater(json.loads(got["sessions_list"])["summary"]["sessions"], 0, harness)
                # A session the list calls unknown-project (Cursor's log records no working directory) is not
                # digested; every other one's digest is the detector's golden.
                listed = json.loads(got["sessions_list"])["rows"]
                expected = []
                if any(r["state"] == "new" for r in listed):
                    with open(os.path.join(GOLDEN, f"{harness}.digest.json")) as f:
                        expected = [json.load(f)]
                ours = [d for d in got.get("digests", []) if d.get("ref") == golden_ref(harness)]
                self.assertEqual(ours, expected, f"{harness}: the tool's digest is not the detector's")


if __name__ == "__main__":
    unittest.main()
