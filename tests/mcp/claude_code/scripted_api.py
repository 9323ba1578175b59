"""A scripted stand-in for the Anthropic Messages API, so Claude Code can be driven as a real MCP client with no
network and no model: loopback only, standard library only.

Claude Code (2.1.332) calls `POST /v1/messages` (streamed as SSE) and `POST /v1/messages/count_tokens`. Each
request of the conversation is answered with the next step of a script, an assistant turn made of text and
tool_use blocks; the tool_results Claude Code sends back arrive in the next request, which is recorded whole, so a
test can read the tool definitions Claude Code sent and what the "model" was handed for each call. A request that
is not part of the main conversation (a side query without the conversation's tools) gets a short text and does
not advance the script. When the script runs out, every further conversation request gets a final text answer.

A step is a dict {"content": [blocks], "usage": {...}} or a callable taking the list of recorded conversation
requests and returning one (so a step can depend on what the previous one produced). A block is
{"type": "text", "text": ...} or {"type": "tool_use", "name": ..., "input": {...}}; tool_use ids are assigned
here (`toolu_csift_<step>_<block>`, see `tool_use_id`) so a test can find each call's result.
"""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "claude-sonnet-4-5-20250929"
FINAL_TEXT = "Done: the scripted conversation is over."
DEFAULT_USAGE = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def tool_use_id(step, block, lane=None):
    """The id the stand-in gives the tool_use at `block` of script step `step` (both 0-based); a subagent lane's
    steps (ScriptedApi's `lanes`) carry the lane's name, so no two calls share an id."""
    return f"toolu_csift_{lane + '_' if lane else ''}{step:02d}_{block:02d}"


def first_user_text(body):
    """The text of a request's first user message (how a subagent's requests are told apart: Claude Code opens a
    subagent's conversation with the prompt its spawning Agent call gave)."""
    for message in body.get("messages", []):
        if message.get("role") == "user":
            return content_text(message.get("content"))
    return ""


def tool_results(body):
    """{tool_use_id: tool_result block} of every tool_result in a request's messages."""
    out = {}
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out[block.get("tool_use_id")] = block
    return out


def content_text(content):
    """A message's or tool_result's content as the model reads it: a string, or its text blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def result_text(block):
    """The text of a tool_result block as the model reads it."""
    return content_text(block.get("content"))


class ScriptedApi:
    """Serves the script on 127.0.0.1 (an ephemeral port); `url` is what ANTHROPIC_BASE_URL takes."""

    def __init__(self, script, conversation_tool="ToolSearch", lanes=None):
        self.script = list(script)
        # Subagent lanes: {name: (key, steps)}. A request whose first user message holds `key` belongs to that
        # lane (the subagent the main script spawned with a prompt holding it) and is answered from its own
        # steps, with tool_use ids of its own (tool_use_id(..., lane=name)).
        self.lanes = dict(lanes or {})
        self.lane_conversation = {name: [] for name in self.lanes}
        self.lane_sent = {name: [] for name in self.lanes}
        # A request carrying this tool name among its tools is a conversation turn; any other is a side query.
        self.conversation_tool = conversation_tool
        self.requests = []  # every request: {"path", "headers", "body", "kind", "time"}
        self.conversation = []  # the bodies of the conversation's /v1/messages requests, in order
        self.sent = []  # the assistant content sent for each conversation request, in order (ids filled in)
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                api._record(self, None, "get")
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "scripted API"}})

            def do_HEAD(self):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                path = self.path.split("?", 1)[0]
                if path.endswith("/v1/messages/count_tokens"):
                    api._record(self, body, "count_tokens")
                    chars = len(json.dumps(body.get("messages", []))) + len(json.dumps(body.get("tools", [])))
                    return self._json(200, {"input_tokens": max(1, chars // 4)})
                if not path.endswith("/v1/messages"):
                    api._record(self, body, "other")
                    return self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
                names = [t.get("name") for t in body.get("tools", []) if isinstance(t, dict)]
                opening = first_user_text(body)
                lane = next((n for n, (key, _) in api.lanes.items() if key in opening), None)
                if lane:
                    kind = "lane:" + lane
                    content, usage, stop = api._next_lane_turn(lane, body)
                elif api.conversation_tool in names:
                    kind = "conversation"
                    content, usage, stop = api._next_turn(body)
                else:
                    kind = "side"
                    content, usage, stop = [{"type": "text", "text": "ok"}], dict(DEFAULT_USAGE), "end_turn"
                api._record(self, body, kind)
                message_id = f"msg_csift_{len(api.requests):03d}"
                if body.get("stream"):
                    self._stream(message_id, body.get("model") or MODEL, content, usage, stop)
                else:
                    self._json(200, {"id": message_id, "type": "message", "role": "assistant",
                                     "model": body.get("model") or MODEL, "content": content, "stop_reason": stop,
                                     "stop_sequence": None, "usage": usage})

            def _json(self, status, obj):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, message_id, model, content, usage, stop):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                start_usage = dict(usage, output_tokens=1)

                def event(name, data):
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

                event("message_start", {"type": "message_start", "message": {
                    "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
                    "stop_reason": None, "stop_sequence": None, "usage": start_usage}})
                for i, block in enumerate(content):
                    if block["type"] == "text":
                        event("content_block_start", {"type": "content_block_start", "index": i,
                                                      "content_block": {"type": "text", "text": ""}})
                        event("content_block_delta", {"type": "content_block_delta", "index": i,
                                                      "delta": {"type": "text_delta", "text": block["text"]}})
                    else:
                        event("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                            "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
                        event("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                            "type": "input_json_delta", "partial_json": json.dumps(block["input"])}})
                    event("content_block_stop", {"type": "content_block_stop", "index": i})
                event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                        "usage": {"output_tokens": usage.get("output_tokens", 0)}})
                event("message_stop", {"type": "message_stop"})
                self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _record(self, handler, body, kind):
        with self.lock:
            self.requests.append({"path": handler.path, "headers": dict(handler.headers.items()), "body": body,
                                  "kind": kind, "time": time.time()})

    def _next_turn(self, body):
        with self.lock:
            return self._answer(self.conversation, self.script, body, self.sent, None)

    def _next_lane_turn(self, lane, body):
        with self.lock:
            return self._answer(self.lane_conversation[lane], self.lanes[lane][1], body, self.lane_sent[lane], lane)

    @staticmethod
    def _answer(convo, steps, body, sent, lane):
        """The next step of one conversation (the session's or a lane's) as (content, usage, stop_reason): its
        tool_use blocks get this conversation's ids; past the script's end, the final text."""
        convo.append(body)
        n = len(convo) - 1
        step = steps[n] if n < len(steps) else None
        if callable(step):
            step = step(list(convo))
        if step is None:
            step = {"content": [{"type": "text", "text": FINAL_TEXT}]}
        content = []
        for i, block in enumerate(step["content"]):
            block = dict(block)
            if block["type"] == "tool_use":
                block["id"] = tool_use_id(n, i, lane)
            content.append(block)
        usage = dict(DEFAULT_USAGE, **step.get("usage", {}))
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        sent.append({"content": content, "usage": usage, "stop_reason": stop})
        return content, usage, stop

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
