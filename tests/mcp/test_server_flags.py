"""The server's own flags and argument values over MCP (issue 9, points 5, 20, 21): `--claude-home DIR` is
the default store of every call and must exist, a tool name given as a mode points at `--cli`, and integer
arguments follow JSON Schema (1e2 and 100.0 are 100; beyond int64 and unwanted negatives are refused)."""
import os
import subprocess
import tempfile
import time
import unittest

from mcp_harness import FIXTURE_HOME, HttpServer, StdioClient, binary, meta, server_env, stateless_headers

BASICS = "11111111-1111-4111-8111-000000000001"


def call(client, name, arguments):
    r = client.request("tools/call", {"name": name, "arguments": arguments})
    return r["result"]


class ServerClaudeHome(unittest.TestCase):
    def empty_home_env(self):
        empty = tempfile.mkdtemp(prefix="csift-empty-home-")
        os.makedirs(os.path.join(empty, "projects"))
        self.addCleanup(lambda: os.rmdir(os.path.join(empty, "projects")) or os.rmdir(empty))
        return server_env(claude_home=empty)

    def test_stdio_claude_home_is_the_default_of_every_call(self):
        c = StdioClient(["--stdio", "--claude-home", FIXTURE_HOME], env=self.empty_home_env())
        self.addCleanup(c.close)
        c.initialize()
        result = call(c, "stats", {"targets": ["@" + BASICS], "format": "json"})
        self.assertFalse(result["isError"], result)
        self.assertEqual(result["structuredContent"]["rows"][0]["session_id"], BASICS)

    def test_claude_home_alone_serves_stdio(self):
        c = StdioClient(["--claude-home=" + FIXTURE_HOME], env=self.empty_home_env())
        self.addCleanup(c.close)
        c.initialize()
        self.assertFalse(call(c, "show", {"targets": ["@" + BASICS], "line": ["7"]})["isError"])

    def test_http_claude_home(self):
        s = HttpServer(["--claude-home", FIXTURE_HOME], env=self.empty_home_env())
        self.addCleanup(s.stop)
        status, _, body = s.post({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                  "params": {"name": "stats", "arguments": {"targets": ["@" + BASICS]},
                                             "_meta": meta()}},
                                 headers=stateless_headers("tools/call", "stats"))
        self.assertEqual(status, 200, body)
        self.assertFalse(body["result"]["isError"], body)

    def test_watch_stamps_are_on_by_default_and_see_an_append(self):
        # On by default (SPEC §7 "Watched stamps"): a default server holds one inotify descriptor once it has
        # listed, `--no-watch-stamps` none, and a warm list sees an append either way.
        import shutil
        home = tempfile.mkdtemp(prefix="csift-watch-")
        self.addCleanup(shutil.rmtree, home, True)
        shutil.copytree(FIXTURE_HOME, os.path.join(home, "h"), symlinks=True)
        home = os.path.join(home, "h")

        def inotify_fds(c):
            fd_dir = f"/proc/{c.proc.pid}/fd"
            return sum(os.readlink(os.path.join(fd_dir, fd)) == "anon_inode:inotify" for fd in os.listdir(fd_dir))

        def size(c):
            rows = call(c, "list", {"targets": ["@" + BASICS], "format": "json"})["structuredContent"]["rows"]
            return rows[0]["bytes"]
        off = StdioClient(["--stdio", "--no-watch-stamps"], env=server_env(claude_home=home))
        self.addCleanup(off.close)
        off.initialize()
        c = StdioClient(["--stdio"], env=server_env(claude_home=home))
        self.addCleanup(c.close)
        c.initialize()
        before = size(c)
        self.assertEqual(size(c), before)
        self.assertEqual(size(off), before)
        self.assertEqual(inotify_fds(c), 1)
        self.assertEqual(inotify_fds(off), 0)
        path = [os.path.join(d, f) for d, _, fs in os.walk(home) for f in fs if f == BASICS + ".jsonl"][0]
        with open(path, "a") as f:
            f.write("{}\n")
        self.assertEqual(size(c), before + 3)
        self.assertEqual(size(off), before + 3)

    def test_a_missing_server_home_stops_the_server_naming_it(self):
        for mode in ([], ["--http", "--port", "0"]):
            p = subprocess.run([binary(), *mode, "--claude-home", "/nonexistent/claude-home"],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30, env=server_env())
            self.assertEqual(p.returncode, 2, mode)
            self.assertIn(b"/nonexistent/claude-home", p.stderr)
            self.assertIn(b"no such directory", p.stderr)

    def test_a_bad_memo_budget_stops_the_server_naming_the_flag_and_range(self):
        for mode, flag in (([], "--result-memo-mb"), (["--http", "--port", "0"], "--result-memo-mb=x"),
                           ([], "--scan-memo-mb")):
            value = [] if "=" in flag else ["2000000"]
            p = subprocess.run([binary(), *mode, flag, *value], stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=30, env=server_env())
            self.assertEqual(p.returncode, 2, (mode, flag))
            self.assertIn(flag.split("=")[0].encode() + b" '", p.stderr)
            self.assertIn(b"0..1048576", p.stderr)

    def test_a_missing_call_home_is_an_error_naming_it(self):
        c = StdioClient()
        self.addCleanup(c.close)
        c.initialize()
        for tool, args in (("list", {}), ("stats", {"targets": ["@" + BASICS]}), ("whoami", {})):
            result = call(c, tool, {**args, "claude_home": "/nonexistent/claude-home"})
            self.assertTrue(result["isError"], (tool, result))
            message = result["structuredContent"]["summary"]["error"]["message"]
            self.assertIn("/nonexistent/claude-home", message)
            self.assertIn("does not exist", message)


class HugePages(unittest.TestCase):
    """A server built with jemalloc re-executes itself with jemalloc's transparent huge pages (SPEC.md §7); a
    MALLOC_CONF the user set is kept, CSIFT_NO_HUGE_PAGES=1 opts out, and the sanitizer build (no jemalloc)
    never sets it. The server's own environment and memory map say which happened."""

    def served_with(self, **extra):
        env = server_env()
        env.pop("MALLOC_CONF", None)
        env.update(extra)
        c = StdioClient(env=env)
        try:
            self.assertEqual(c.request("ping", id=1)["result"], {})  # the re-executed server answers
            with open(f"/proc/{c.proc.pid}/environ", "rb") as f:
                environ = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
            with open(f"/proc/{c.proc.pid}/maps") as f:
                jemalloc = "libjemalloc" in f.read()
            # Re-executed or not, the process keeps its binary's name in ps and top (not "exe").
            with open(f"/proc/{c.proc.pid}/comm") as f:
                self.assertEqual(f.read().strip(), os.path.basename(binary())[:15])
            return environ.get(b"MALLOC_CONF"), jemalloc
        finally:
            c.close()

    def test_a_server_sets_huge_pages_unless_told_otherwise(self):
        conf, jemalloc = self.served_with()
        self.assertEqual(conf, b"thp:always,metadata_thp:always" if jemalloc else None)
        self.assertEqual(self.served_with(MALLOC_CONF="narenas:2")[0], b"narenas:2")
        self.assertIsNone(self.served_with(CSIFT_NO_HUGE_PAGES="1")[0])

    def test_the_cli_keeps_the_default(self):
        # A CLI wait blocks until its timeout: long enough to read the running process's environment.
        env = server_env()
        env.pop("MALLOC_CONF", None)
        p = subprocess.Popen([binary(), "--cli", "wait", "@22222222-2222-4222-8222-000000000002", "--until",
                              "tool:NoSuchTool", "--timeout", "3", "--claude-home", FIXTURE_HOME], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            self.assertIsNone(p.poll(), "the wait ended early")
            with open(f"/proc/{p.pid}/environ", "rb") as f:
                self.assertNotIn(b"MALLOC_CONF=", f.read())
            with open(f"/proc/{p.pid}/cmdline", "rb") as f:
                self.assertIn(b"--cli", f.read())
        finally:
            p.kill()
            p.wait()


class ToolNameAsMode(unittest.TestCase):
    def test_list_without_cli_suggests_cli_list(self):
        p = subprocess.run([binary(), "list"], capture_output=True, timeout=30, env=server_env())
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"csift-mcp --cli list", p.stderr)
        self.assertNotIn(b"unknown mode", p.stderr)


class IntegerArguments(unittest.TestCase):
    def setUp(self):
        self.c = StdioClient()
        self.addCleanup(self.c.close)
        self.c.initialize()

    def matched(self, max_count):
        result = call(self.c, "search", {"pattern": "", "label": ["agent"], "max_count": max_count,
                                         "format": "json"})
        self.assertFalse(result["isError"], result)
        return result["structuredContent"]["summary"]

    def test_integral_floats_are_integers(self):
        exact = self.matched(2)
        self.assertEqual(exact["matched"], 2)
        self.assertGreater(exact["dropped_by_cap"], 0)
        for spelled in (2.0, 2e0):
            self.assertEqual(self.matched(spelled), exact)

    def test_beyond_int64_is_refused_not_wrapped(self):
        for value in (2 ** 63, 1e19, -(2 ** 63) - 1, -(2 ** 63)):
            result = call(self.c, "search", {"pattern": "x", "max_count": value})
            self.assertTrue(result["isError"], value)
            message = result["structuredContent"]["summary"]["error"]["message"]
            self.assertIn("out of range", message)
            self.assertNotIn("-9223372036854775808,", message.split("got")[-1])

    def test_negatives_are_refused_where_they_mean_nothing(self):
        for tool, args in (("list", {"max_count": -1}), ("show", {"targets": ["@" + BASICS], "line": ["1"],
                                                                  "max_count": -1}),
                           ("search", {"pattern": "x", "max_chars": -5})):
            result = call(self.c, tool, args)
            self.assertTrue(result["isError"], (tool, result))


if __name__ == "__main__":
    unittest.main()
