// Entry points main.cpp calls for the two MCP transports. Each parses its own flags from argv (argv[0] is the
// program; the transport flag itself, --stdio or --http, may appear and is skipped) and returns the exit
// code.
#pragma once
#include <cstdint>
#include <string>

namespace csift {

// The value of `--disk-cache-mb` (into `budget_bytes`) or `--disk-cache-dir` (into `dir`), checked by one
// rule for the servers and the CLI, which share the cache: std::invalid_argument says what the flag takes.
void take_disk_cache_value(const std::string& flag, const std::string& value, uint64_t& budget_bytes,
                           std::string& dir);

// `csift-mcp` / `csift-mcp --stdio`: one JSON-RPC message per line on stdin/stdout until EOF.
int run_stdio_server(int argc, char** argv);
// `csift-mcp --http [--host H] [--port N] [--token T]`: Streamable HTTP on http://H:N/mcp.
int run_http_server(int argc, char** argv);

}  // namespace csift
