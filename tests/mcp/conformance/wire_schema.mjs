// The conformance suite's own wire-schema check, applied to messages our tests capture. The suite validates
// only the messages its scenarios provoke, and those scenarios call its fixture tools, not ours; this runs
// the same validator (the spec's JSON schema per revision, the same method-to-result mapping) over every
// method and every tool this server answers. The suite exports nothing, so the validator is cut out of its
// pinned bundle between two markers; a new suite version that moves them fails loudly here.
//
// stdin: one JSON object per line, {"version": "2026-07-28", "method": "tools/list", "message": {...}}
// (message: the JSON-RPC response, or a request/notification the server sent). stdout: one JSON object,
// {"validated": N, "violations": [{"line": i, "version": ..., "method": ..., "errors": [...]}]}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const suite = join(here, "node_modules", "@modelcontextprotocol", "conformance");
const bundle = readFileSync(join(suite, "dist", "index.js"), "utf8");
const START = "Pe={$schema";
const END = "const Je=new re";
const from = bundle.indexOf(START);
const to = bundle.indexOf(END);
if (from < 0 || to < from) {
  console.error(`wire_schema.mjs: markers '${START}' / '${END}' not found in the conformance bundle`);
  process.exit(2);
}
// The suite resolves ajv from its own dependencies; so do we.
const requireFromSuite = createRequire(join(suite, "package.json"));
const { Ajv } = requireFromSuite("ajv");
const { Ajv2020 } = requireFromSuite("ajv/dist/2020.js");
const addFormats = requireFromSuite("ajv-formats").default;
// In the bundle: ie = Ajv, ae = Ajv2020, O = ajv-formats, A = the stateless revision's name; qe(version,
// message, requestMethod) returns the schema errors of one message.
const validate = new Function("ie", "ae", "O", "A", `let ${bundle.slice(from, to)}; return qe;`)(
  Ajv, Ajv2020, addFormats, "2026-07-28");

const lines = readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
const violations = [];
lines.forEach((line, i) => {
  const { version, method, message } = JSON.parse(line);
  const errors = validate(version, message, method);
  if (errors.length) violations.push({ line: i, version, method, errors });
});
console.log(JSON.stringify({ validated: lines.length, violations }));
