// The official TypeScript SDK client against csift-mcp: lists the tools (following nextCursor), compiles
// every schema (as JSON Schema 2020-12 and as draft-07, the subset the schemas keep to), calls every tool on
// the fixture store and validates each structuredContent against the tool's outputSchema.
// Usage: node sdk_client.mjs stdio <binary> | node sdk_client.mjs http <url>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft07 from "ajv";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import fs from "node:fs";
import path from "node:path";

const [mode, target] = process.argv.slice(2);
const failures = [];
const fail = (what) => failures.push(what);

function compileBoth(schema, label) {
  const out = {};
  try {
    out.v2020 = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  } catch (e) {
    fail(`${label}: does not compile as 2020-12: ${e.message}`);
  }
  try {
    const { $schema, ...draft07 } = schema;  // draft-07 Ajv refuses the 2020-12 meta-schema URI, not the keywords
    void $schema;
    out.v07 = new AjvDraft07({ strict: false, allErrors: true }).compile(draft07);
  } catch (e) {
    fail(`${label}: does not compile as draft-07: ${e.message}`);
  }
  return out;
}

function check(validators, value, label) {
  for (const [dialect, validate] of Object.entries(validators)) {
    if (validate && !validate(value)) fail(`${label} (${dialect}): ${JSON.stringify(validate.errors).slice(0, 500)}`);
  }
}

async function main() {
  const transport = mode === "stdio"
    ? new StdioClientTransport({ command: target, args: ["--stdio"], env: process.env, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target));
  const client = new Client({ name: "csift-interop", version: "1.0.0" });
  await client.connect(transport);
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  if (tools.length === 0) fail("tools/list is empty");
  const calls = [];
  for (const tool of tools) {
    // The triage tools that write csift-mcp's own state database, and export, say so; every other tool only reads.
    const writesState = ["sessions_digest", "sessions_mark", "sessions_status", "export"].includes(tool.name);
    if (tool.annotations?.readOnlyHint !== !writesState) fail(`${tool.name}: readOnlyHint is not ${!writesState}`);
    if (tool.annotations?.openWorldHint !== false) fail(`${tool.name}: openWorldHint is not false`);
    compileBoth(tool.inputSchema, `${tool.name} inputSchema`);
    const out = compileBoth(tool.outputSchema, `${tool.name} outputSchema`);
    for (const args of [{}, { format: "json" }, { no_such_argument: true }]) {
      // The SDK itself also validates structuredContent against outputSchema and throws on a mismatch.
      const result = await client.callTool({ name: tool.name, arguments: args });
      const label = `${tool.name}(${JSON.stringify(args)})`;
      if (!result.structuredContent) fail(`${label}: no structuredContent`);
      else check(out, result.structuredContent, `${label} structuredContent`);
      if (result.content?.[0]?.type !== "text") fail(`${label}: content[0] is not text`);
      calls.push({ tool: tool.name, args, isError: result.isError === true, rows: result.structuredContent?.rows?.length });
    }
  }
  // Sessions as resources: the SDK lists every page (its schemas validate each result) and reads the first.
  const resources = [];
  cursor = undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    resources.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor && resources.length < 10000);
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  let read = null;
  if (resources.length > 0) {
    const r = await client.readResource({ uri: resources[0].uri });
    read = { uri: r.contents?.[0]?.uri, chars: r.contents?.[0]?.text?.length ?? 0 };
    if (!read.chars) fail(`resources/read ${resources[0].uri}: no text`);
  }
  const session = resources.find((r) => r.uri.startsWith("csift://session/"));
  // Subscriptions, where the server offers them and the test gave a store it may grow (a copy): the SDK
  // subscribes to a session, the session's file grows, notifications/resources/updated names it.
  let subscribed = null;
  if (client.getServerCapabilities()?.resources?.subscribe && process.env.CSIFT_INTEROP_WRITABLE_STORE === "1" && session) {
    subscribed = [];
    let wake = () => {};
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      subscribed.push(n.params.uri);
      wake();
    });
    await client.subscribeResource({ uri: session.uri });
    const projects = path.join(process.env.CLAUDE_CONFIG_DIR, "projects");
    const file = fs.readdirSync(projects).map((d) => path.join(projects, d, `${session.name}.jsonl`))
      .find((f) => fs.existsSync(f));
    fs.appendFileSync(file, JSON.stringify({ type: "user", sessionId: session.name, uuid: "interop-grow",
      message: { role: "user", content: "grown by the interop test" } }) + "\n");
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, 10000);
    });
    await client.unsubscribeResource({ uri: session.uri });
    if (!subscribed.includes(session.uri)) fail(`resources/subscribe ${session.uri}: no update after it grew`);
  }
  // Prompts: listed, and one got for the first session listed; completion of that session's id prefix.
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  let prompt = null;
  let completed = null;
  if (session && prompts.includes("recap")) {
    const got = await client.getPrompt({ name: "recap", arguments: { session: session.name } });
    prompt = got.messages?.[0]?.content?.text?.length ?? 0;
    if (!prompt) fail("prompts/get recap: no text");
    const c = await client.complete({
      ref: { type: "ref/prompt", name: "recap" },
      argument: { name: "session", value: session.name.slice(0, 6) },
    });
    completed = c.completion.values;
    if (!completed.includes(session.name)) fail(`completion/complete: ${session.name} not offered`);
  }
  await client.ping();
  const version = transport.protocolVersion ?? null;
  await client.close();
  console.log(JSON.stringify({
    mode, tools: tools.map((t) => t.name), protocolVersion: version, calls,
    resources: resources.length, templates, read, subscribed, prompts, prompt, completed, failures,
  }));
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.log(JSON.stringify({ mode, failures: [...failures, `exception: ${e.stack || e}`] }));
  process.exit(1);
});
