"""The disk cache every server and CLI run share (SPEC §7 "Persisted cache"): a fresh server's first `list`
takes the probes a CLI run stored; every answer equals the cache-off answer after an append, a truncation, a
rename and a delete, and with the database corrupted; two servers and a CLI run writing at once agree; the
directory is 0700 and the file 0600. Few spawns: one store (the fixtures copied, their mtimes kept)."""
import json
import os
import shutil
import stat
import subprocess
import tempfile
import threading
import time
import unittest

from mcp_harness import FIXTURE_HOME, StdioClient, binary, cpu_seconds, server_env

LIST = {"max_count": 0, "max_chars": 0, "format": "json"}
SESSION = os.path.join("projects", "-home-dev-projets-caf---------app", "77777777-7777-4777-8777-000000000007.jsonl")


def answer(structured):
    s = json.loads(json.dumps(structured))
    for report in ("disk_cache", "result_memo", "scan_memo"):
        s.get("summary", {}).pop(report, None)
    return s


# One call of each persisted kind: the stats tally, the label census, the search screen (an absent literal,
# and a word some files hold), the list probe, and the triage facts of each session log.
CALLS = [
    ("stats", {"max_count": 0, "format": "json"}),
    ("search", {"count_only": True, "format": "json", "pattern": "", "label": ["user.message"]}),
    ("search", {"count_only": True, "format": "json", "pattern": "xylophonezebraquartz"}),
    ("search", {"count_only": True, "format": "json", "pattern": "hello"}),
    ("list", LIST),
    ("sessions_list", {"format": "json"}),  # each log's triage facts
]


def inotify_watches(pid):
    """The inotify watches process `pid` holds now (each is an `inotify wd:` line of its descriptor's fdinfo)."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:inotify":
                continue
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                n += sum(1 for line in f if line.startswith("inotify wd:"))
        except OSError:
            continue  # closed meanwhile
    return n


def wait_quiet(pid, quiet=0.5, limit=60.0):
    """Until process `pid` used no CPU for `quiet` seconds (its idle-time work is done)."""
    deadline, quiet_since, used = time.monotonic() + limit, time.monotonic(), cpu_seconds(pid)
    while time.monotonic() < deadline and time.monotonic() - quiet_since < quiet:
        time.sleep(0.1)
        now = cpu_seconds(pid)
        if now != used:
            used, quiet_since = now, time.monotonic()


def wait_for(cond, limit=20.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


class DiskCacheShared(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="csift-disk-cache-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, ".claude")
        shutil.copytree(FIXTURE_HOME, self.home, symlinks=True)  # copy2: mtimes kept, settled
        self.xdg = os.path.join(self.tmp, "xdg")
        self.env = server_env(self.home, XDG_CACHE_HOME=self.xdg)

    def cli_list(self, *extra):
        p = subprocess.run([binary(), "--cli", "list", "--claude-home", self.home, "--max-count", "0",
                            "--max-chars", "0", "--format", "json", *extra],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def server_list(self, *flags):
        c = StdioClient(args=["--claude-home", self.home, *flags], env=self.env)
        try:
            c.initialize()
            r = c.request("tools/call", {"name": "list", "arguments": LIST}, timeout=120)
            self.assertFalse(r["result"].get("isError"), json.dumps(r)[:400])
            return r["result"]["structuredContent"]
        finally:
            c.close()

    def server_call(self, tool, args, *flags):
        """One call on a fresh server: its structured answer."""
        c = StdioClient(args=["--claude-home", self.home, *flags], env=self.env)
        try:
            c.initialize()
            r = c.request("tools/call", {"name": tool, "arguments": args}, timeout=120)
            self.assertFalse(r["result"].get("isError"), json.dumps(r)[:400])
            return r["result"]["structuredContent"]
        finally:
            c.close()

    def server_calls(self, *flags):
        """Every call of CALLS on one fresh server: (answers, summaries)."""
        c = StdioClient(args=["--claude-home", self.home, *flags], env=self.env)
        try:
            c.initialize()
            out, sums = [], []
            for tool, args in CALLS:
                r = c.request("tools/call", {"name": tool, "arguments": args}, timeout=120)
                self.assertFalse(r["result"].get("isError"), json.dumps(r)[:400])
                out.append(answer(r["result"]["structuredContent"]))
                sums.append(r["result"]["structuredContent"].get("summary", {}))
            return out, sums
        finally:
            c.close()

    def age(self, path):
        st = os.stat(path)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 10 * 10**9))  # out of the racy window

    def change_each_way(self, line, uuid_prefix, changed):
        """Changes the session file each way the cache must see, calling changed(what) after each: line `line`
        appended again under a new uuid, the file cut to two lines, renamed, deleted."""
        path = os.path.join(self.home, SESSION)
        with open(path, "rb") as f:
            lines = f.readlines()
        with open(path, "ab") as f:
            f.write(lines[line].replace(b"\"uuid\":\"", b"\"uuid\":\"" + uuid_prefix))
        self.age(path)
        changed("append")
        with open(path, "wb") as f:
            f.writelines(lines[:2])
        self.age(path)
        changed("truncation")
        renamed = path.replace("000000000007", "000000000077")
        os.rename(path, renamed)
        changed("rename")
        os.unlink(renamed)
        changed("delete")

    def test_shared_fresh_server_and_changes_seen(self):
        uncached = self.cli_list("--disk-cache-mb", "0")
        self.assertFalse(os.path.exists(self.xdg))  # off: nothing made
        self.assertEqual(self.cli_list(), uncached)  # the CLI fills the cache, its output unchanged
        cache = os.path.join(self.xdg, "csift-mcp")
        self.assertEqual(stat.S_IMODE(os.stat(cache).st_mode), 0o700)
        for f in os.listdir(cache):
            self.assertEqual(stat.S_IMODE(os.stat(os.path.join(cache, f)).st_mode), 0o600, f)
        first = self.server_list()
        self.assertGreater(first["summary"]["disk_cache"]["hits"], 0, first["summary"]["disk_cache"])
        self.assertEqual(first["summary"]["disk_cache"]["misses"], 0)
        off = self.server_list("--disk-cache-mb", "0")
        self.assertNotIn("disk_cache", off["summary"])
        self.assertEqual(answer(first), answer(off))
        # Appended, truncated, renamed, deleted: each seen, equal to the uncached answer.
        def changed(what):
            self.assertEqual(self.cli_list(), self.cli_list("--disk-cache-mb", "0"), what)
            if what == "append":
                self.assertEqual(answer(self.server_list()), answer(self.server_list("--disk-cache-mb", "0")))

        self.change_each_way(0, b"dc", changed)

    def test_screens_and_censuses_built_after_the_reply(self):
        # A server's cold search answers first and screens after (SPEC §7 "After the reply"): the call reports
        # its screens deferred; the server's next call waits for them and is answered from them; a server
        # whose input ends after one call still writes them for the next server. A counted label search's
        # censuses likewise: the second count is answered from them.
        absent, labels = CALLS[2][1], CALLS[1][1]
        c = StdioClient(args=["--claude-home", self.home], env=self.env)
        try:
            c.initialize()
            first, second, count, recount = (
                c.request("tools/call", {"name": "search", "arguments": args},
                          timeout=120)["result"]["structuredContent"] for args in (absent, absent, labels, labels))
        finally:
            c.close()
        self.assertEqual(count["summary"]["result_memo"]["hits"], 0, count["summary"])
        self.assertGreater(recount["summary"]["result_memo"]["hits"], 0, recount["summary"])
        self.assertEqual(recount["summary"]["result_memo"]["misses"], 0, recount["summary"])
        self.assertEqual(answer(count), answer(recount))
        before, after = first["summary"]["scan_memo"], second["summary"]["scan_memo"]
        self.assertEqual(before["hits"], 0, before)
        self.assertGreater(before["screens_deferred"], 0, before)
        self.assertGreaterEqual(after["hits"], before["screens_deferred"], after)
        self.assertEqual((after["misses"], after["screens_deferred"]), (0, 0), after)
        self.assertEqual(answer(first), answer(second))
        shutil.rmtree(self.xdg)
        once = self.server_call("search", absent)
        fresh = self.server_call("search", absent)
        self.assertEqual(once["summary"]["scan_memo"]["hits"], 0)
        self.assertGreaterEqual(fresh["summary"]["scan_memo"]["hits"], before["screens_deferred"], fresh["summary"])
        self.assertEqual(answer(once), answer(fresh))

    def started_idle(self, *flags):
        """A fresh server left alone once started, until it used no CPU for half a second (a model's first call
        comes seconds after the server starts): the client, initialized; the caller closes it."""
        c = StdioClient(args=["--claude-home", self.home, *flags], env=self.env, warm_up=True)
        c.initialize()
        time.sleep(0.3)  # past the warm-up's quiet start (200 ms)
        wait_quiet(c.proc.pid)
        return c

    def call_on(self, c, tool, args):
        r = c.request("tools/call", {"name": tool, "arguments": args}, timeout=120)
        self.assertFalse(r["result"].get("isError"), json.dumps(r)[:400])
        return r["result"]["structuredContent"]

    def idle_first_call(self, tool, args, *flags):
        """A fresh server's first call made once the server has gone idle: its structured answer."""
        c = self.started_idle(*flags)
        try:
            return self.call_on(c, tool, args)
        finally:
            c.close()

    def warmed_and_cold(self, tool, args, memo):
        """The first call of a server left idle (warmed up) and of one started with --no-warm-up, once an
        earlier server filled the disk cache: both answer as the uncached server; the cold one asks the disk,
        the warmed one finds every entry it asked for in `memo` instead. Returns (warmed, cold) summaries."""
        uncached = answer(self.server_call(tool, args, "--disk-cache-mb", "0"))
        self.server_call(tool, args)  # what it takes is written for the next server
        warmed = self.idle_first_call(tool, args)
        cold = self.idle_first_call(tool, args, "--no-warm-up")
        self.assertEqual(answer(warmed), uncached)
        self.assertEqual(answer(cold), uncached)
        taken = cold["summary"]["disk_cache"]["hits"]
        self.assertGreater(taken, 0, cold["summary"])
        self.assertNotIn("disk_cache", warmed["summary"])  # reported only when the call used it
        self.assertEqual(warmed["summary"][memo]["hits"], taken, warmed["summary"])
        return warmed["summary"], cold["summary"]

    def test_warm_up_before_the_first_call(self):
        # A server left alone after its start walks the store and takes every screen, list probe and label
        # census from the disk cache (SPEC §7 "The warm-up"): its first call finds them in memory and asks the
        # disk for none. With --no-warm-up the same first call takes them from the disk.
        warmed, _ = self.warmed_and_cold("search", CALLS[2][1], "scan_memo")  # the screens
        self.assertEqual(warmed["scan_memo"]["misses"], 0, warmed)
        warmed, cold = self.warmed_and_cold("list", LIST, "result_memo")  # the probes
        # What list remembers besides probes is not kept on disk: computed by either server.
        probes = cold["disk_cache"]["hits"]
        self.assertEqual(warmed["result_memo"]["misses"], cold["result_memo"]["misses"] - probes, (warmed, cold))
        # A counted label search's censuses (taken under the gates of a call naming no gated leaf).
        warmed, _ = self.warmed_and_cold("search", CALLS[1][1], "result_memo")
        self.assertEqual(warmed["result_memo"]["misses"], 0, warmed)

    def test_warm_up_watches_then_gives_them_back_uncalled(self):
        # Once its screens are taken, a server left idle watches the directories its walk looked into and
        # walks again, so its first call answers the walk from memory; a change made after that is seen. Never
        # called, it gives the watches back after --uncalled-watches-s; called, it watches again after the
        # reply. With 0 the warm-up adds none.
        for tool, args in CALLS[:5]:
            self.server_call(tool, args)  # fills the disk cache
        c = self.started_idle("--uncalled-watches-s", "30")
        try:
            self.assertTrue(wait_for(lambda: inotify_watches(c.proc.pid) > 0), "the warm-up added no watch")
            wait_quiet(c.proc.pid)  # the watches all in and the walk made again (kept)
            path = os.path.join(self.home, SESSION)
            with open(path, "rb") as f:
                first = f.readline()
            with open(path, "ab") as f:
                f.write(first.replace(b"\"uuid\":\"", b"\"uuid\":\"ee"))
            created = path.replace("000000000007", "000000000078")
            shutil.copy2(path, created)
            self.age(path)
            self.age(created)
            got = [answer(self.call_on(c, tool, args)) for tool, args in CALLS[:5]]
            want = [answer(self.server_call(tool, args, "--disk-cache-mb", "0")) for tool, args in CALLS[:5]]
            self.assertEqual(got, want)
            self.assertIn("000000000078", json.dumps(got[4]))  # the session created after the warm-up
        finally:
            c.close()
        c = self.started_idle("--uncalled-watches-s", "1")
        try:
            self.assertTrue(wait_for(lambda: inotify_watches(c.proc.pid) > 0), "the warm-up added no watch")
            self.assertTrue(wait_for(lambda: inotify_watches(c.proc.pid) == 0), "the watches were kept uncalled")
            self.assertEqual(answer(self.call_on(c, *CALLS[4])),
                             answer(self.server_call(*CALLS[4], "--disk-cache-mb", "0")))
            self.assertTrue(wait_for(lambda: inotify_watches(c.proc.pid) > 0), "no watch after a call")
        finally:
            c.close()
        c = self.started_idle("--uncalled-watches-s", "0")
        try:
            time.sleep(1)
            self.assertEqual(inotify_watches(c.proc.pid), 0)
        finally:
            c.close()

    def test_persisted_kinds_fresh_server_and_changes_seen(self):
        want, _ = self.server_calls("--disk-cache-mb", "0")
        self.assertEqual(self.server_calls()[0], want)  # fills the cache
        got, sums = self.server_calls()  # a fresh server: warm from its first call
        self.assertEqual(got, want)
        self.assertGreater(sums[0]["disk_cache"]["hits"], 0, sums[0])  # the tallies
        self.assertGreater(sums[1]["disk_cache"]["hits"], 0, sums[1])  # the censuses
        self.assertGreater(sums[2]["scan_memo"]["hits"], 0, sums[2])  # the screens, no file read
        self.assertGreater(sums[5]["disk_cache"]["hits"], 0, sums[5])  # the logs' triage facts, none parsed
        self.assertEqual(sums[5]["disk_cache"]["misses"], 0, sums[5])
        # An unchanged scope's stats figures come from one entry: a page of one row reads that row's batch of
        # tallies (8), not every transcript's; the answer is the cache-off one.
        one_row = {"max_count": 0, "format": "json", "max_chars": 1500}
        paged = self.server_call("stats", one_row)
        self.assertEqual(answer(paged), answer(self.server_call("stats", one_row, "--disk-cache-mb", "0")))
        self.assertGreater(paged["summary"]["sessions"], 9)
        self.assertLessEqual(paged["summary"]["disk_cache"]["hits"], 9, paged["summary"])
        db = os.path.join(self.xdg, "csift-mcp", "cache.sqlite3")
        kinds = subprocess.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]);"
                                "print(sorted({bytes(k).split(b'\\0')[0].decode() for (k,) in "
                                "c.execute('SELECT key FROM entries')}))", db],
                               check=True, stdout=subprocess.PIPE).stdout.decode()
        self.assertEqual(kinds.strip(), "['agent-meta', 'census', 'dir-entries', 'legacy-session', 'log-facts', "
                                        "'probe', 'screen', 'stats-scope', 'tally']")
        # Damaged entries (a cut blob, a wrong checksum): refused, recomputed, the same answers, then rebuilt.
        subprocess.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]);"
                        "c.execute('UPDATE entries SET blob = substr(blob, 1, length(blob) - 3) WHERE rowid % 2');"
                        "c.execute('UPDATE entries SET sum = sum + 1 WHERE rowid % 2 = 0'); c.commit()", db],
                       check=True)
        got, sums = self.server_calls()
        self.assertEqual(got, want)
        self.assertGreater(sums[0]["disk_cache"]["errors"], 0, sums[0])
        self.assertEqual(self.server_calls()[0], want)
        # Appended, truncated, renamed, deleted: each seen by a fresh server, equal to the uncached answers.
        self.change_each_way(
            1, b"dd", lambda what: self.assertEqual(self.server_calls()[0],
                                                    self.server_calls("--disk-cache-mb", "0")[0], what))

    def test_corrupt_cache_ignored_and_rebuilt(self):
        want = self.cli_list("--disk-cache-mb", "0")
        want_server = answer(self.server_list("--disk-cache-mb", "0"))
        db = os.path.join(self.xdg, "csift-mcp", "cache.sqlite3")
        for way in ("truncated", "overwritten", "foreign", "killed writer"):
            self.assertEqual(self.cli_list(), want)  # fills
            if way == "truncated":
                with open(db, "r+b") as f:
                    f.truncate(1500)
            elif way == "overwritten":
                with open(db, "r+b") as f:
                    f.seek(0)
                    f.write(b"\xff" * 4096)
            elif way == "foreign":
                subprocess.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]);"
                                "c.execute(\"UPDATE meta SET value='999' WHERE name='format'\"); c.commit()", db],
                               check=True)
            else:  # a writer killed inside its transaction: its frames sit in the WAL, uncommitted
                subprocess.run(["python3", "-c", "import sqlite3,sys,os; c=sqlite3.connect(sys.argv[1], "
                                "isolation_level=None); c.execute('BEGIN IMMEDIATE');"
                                "c.execute(\"UPDATE entries SET blob=x'00'\"); os._exit(9)", db])
            self.assertEqual(self.cli_list(), want, way)  # ignored (or dropped); the next fill is the rebuild
        self.assertEqual(answer(self.server_list()), want_server)

    def test_concurrent_writers_agree(self):
        want = answer(self.server_list("--disk-cache-mb", "0"))
        results, errors = [], []

        def server():
            try:
                results.append(answer(self.server_list()))
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        def cli():
            try:
                results.append(("cli", self.cli_list()))
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=f) for f in (server, server, cli)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        want_cli = self.cli_list("--disk-cache-mb", "0")
        for r in results:
            if isinstance(r, tuple):
                self.assertEqual(r[1], want_cli)
            else:
                self.assertEqual(r, want)
        self.assertEqual(answer(self.server_list()), want)  # what they wrote answers the next one

    def test_unsafe_directory_refused(self):
        os.makedirs(os.path.join(self.xdg, "csift-mcp"))
        os.chmod(os.path.join(self.xdg, "csift-mcp"), 0o777)
        p = subprocess.run([binary(), "--cli", "list", "--claude-home", self.home, "--format", "json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, timeout=120)
        self.assertEqual(p.returncode, 0)
        self.assertIn(b"not using the disk cache", p.stderr)
        self.assertEqual(os.listdir(os.path.join(self.xdg, "csift-mcp")), [])


if __name__ == "__main__":
    unittest.main()
