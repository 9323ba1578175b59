// The official TypeScript SDK client driving `wait` on a live session the Python test simulates
// (tests/mcp/test_live_wait.py). Every event goes to stdout as one JSON line; the test reads them and appends
// records to the session at the right moments.
// Usage: node sdk_wait.mjs <binary> <claude_home> <session id>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, home, session] = process.argv.slice(2);
const say = (event) => process.stdout.write(JSON.stringify(event) + "\n");
const target = { targets: ["@" + session], claude_home: home, format: "json" };

async function main() {
  const transport = new StdioClientTransport({ command: binary, args: ["--stdio"], env: process.env, stderr: "inherit" });
  const client = new Client({ name: "csift-live-wait", version: "1.0.0" });
  await client.connect(transport);

  // More waits than the server has call workers, none of which can fire soon: other calls must still run.
  const blockers = [];
  for (let i = 0; i < 6; i++) {
    const abort = new AbortController();
    const call = client.callTool({ name: "wait", arguments: { ...target, until: ["verdict:stale-dead"], timeout: 60 } },
      undefined, { signal: abort.signal, timeout: 120000 }).then(() => "finished", (e) => "rejected: " + e.message);
    blockers.push({ abort, call });
  }
  await new Promise((r) => setTimeout(r, 300));
  const t0 = Date.now();
  await client.ping();
  const status = await client.callTool({ name: "status", arguments: target });
  say({ event: "status-while-blocked", verdict: status.structuredContent.rows[0].verdict, ms: Date.now() - t0 });

  // A wait with a progress token: the test appends a pending AskUserQuestion once the readiness progress arrives.
  const waited = await client.callTool({ name: "wait", arguments: { ...target, until: ["auq"], timeout: 30 } }, undefined, {
    timeout: 60000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => say({ event: "progress", progress: p.progress, total: p.total, message: p.message }),
  });
  say({ event: "result", isError: waited.isError === true, row: waited.structuredContent.rows[0], summary: waited.structuredContent.summary });

  for (const b of blockers) b.abort.abort("test done");
  say({ event: "blockers", outcomes: await Promise.all(blockers.map((b) => b.call)) });
  await client.close();
}

main().then(() => process.exit(0), (e) => {
  say({ event: "error", message: String(e && e.stack || e) });
  process.exit(1);
});
