// The stdio transport: newline-delimited JSON-RPC on a pair of streams. Only protocol messages go to `out`
// (logs go to stderr). Slow requests run on a worker pool so the reader keeps answering ping and
// cancellation; a cancelled call that is still queued never runs. On EOF nobody is left to read a reply:
// every call, queued or running, is cancelled and the server exits within `exit_grace` (work after a reply,
// which the next server starts from, may run on for `after_reply_grace`).
#pragma once
#include <chrono>
#include <cstdio>

#include "server/mcp_server.h"

namespace csift {

struct StdioOptions {
  size_t workers = 4;
  size_t max_queued = 64;
  size_t blocking_workers = 16;          // waits run here, beside the workers (as many more may queue)
  size_t max_message_bytes = 16u << 20;  // a longer line is refused (-32600) without being kept or parsed
  std::chrono::milliseconds exit_grace{800};
  // How long work after a reply may still run once stdin ended (a cold call's memo fill and disk write,
  // bounded by what that call read: seconds on a store of several GiB).
  std::chrono::milliseconds after_reply_grace{60000};
  // How often subscribed transcripts are looked at (their size and modification time).
  std::chrono::milliseconds watch_interval{500};
};

int serve_stdio(McpServer& server, std::FILE* in, std::FILE* out, const StdioOptions& options = {});

}  // namespace csift
