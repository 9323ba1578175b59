// The Streamable HTTP transport (on server/http_server.h): one endpoint, /mcp. POST carries JSON-RPC
// (answered as JSON, or as an SSE stream when a call reports progress); DELETE ends a session; GET is 405
// (this server never sends unprompted messages). The 2025 revisions use Mcp-Session-Id; 2026-07-28 requests
// are stateless and checked against their Mcp-Method / Mcp-Name / MCP-Protocol-Version headers.
#pragma once
#include <atomic>
#include <functional>
#include <string>

#include "server/http_server.h"
#include "server/mcp_server.h"

namespace csift {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8765;  // 0: any free port (the one bound is logged)
  std::string token;
  // Connection, header, body (413 whatever the framing) and time bounds; see http::Limits.
  http::Limits limits;
  size_t call_workers = 8;        // tool calls run at once; everything else is answered on the I/O thread
  size_t max_queued_calls = 256;  // more waiting calls are answered 503 "server busy"
  size_t blocking_workers = 16;   // waits run on threads of their own (as many more may queue)
  size_t max_sessions = 1024;
};

// Serves until `stop_requested` turns true (polled), then stops accepting, lets requests under way finish
// and returns 0; returns 1 when the address cannot be bound. `on_listening(port)` runs once bound.
int serve_http(McpServer& server, const HttpOptions& options, const std::atomic<bool>& stop_requested,
               const std::function<void(int)>& on_listening = {});

}  // namespace csift
