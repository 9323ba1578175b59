// Fuzzes JSON-RPC message handling (server/jsonrpc.h, server/mcp_server.h): each input line is one message
// as a transport receives it, parsed, classified and run through the MCP method table on one connection
// (initialize, tools/list, tools/call, resources/*, prompts/*, completion, notifications) for both the
// session and the stateless revision. The tool context is fake: HOME and every harness's store variable name
// an empty directory, so tools find no transcript; a tools/call of a tool that writes or blocks is not run.
// Every reply is encoded and must parse back. A failure is a sanitizer report or an exception escaping the
// handling (a request must be answered, never thrown out of).
#include <filesystem>

#include "server/jsonrpc.h"
#include "server/mcp_server.h"
#include "tests/fuzz/fuzz_support.h"
#include "tools/dispatch/tool_table.h"

namespace {

csift::McpServer& server() {
  static csift::McpServer* s = [] {
    namespace fs = std::filesystem;
    const fs::path home = fs::temp_directory_path() / ("csift-fuzz-home-" + std::to_string(::getpid()));
    fs::create_directories(home);
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(fs::temp_directory_path() / ("csift-fuzz-home-" + std::to_string(::getpid())), ec);
    });
    csift::ServerOptions o;
    o.env.cwd = home.string();
    for (const char* v : {"HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "COPILOT_HOME",
                          "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CSIFT_STATE_DIR"})
      o.env.vars[v] = home.string();
    o.env.vars["OPENCODE_DB"] = (home / "none.db").string();
    o.progress_interval = std::chrono::milliseconds(0);
    return new csift::McpServer(std::move(o));
  }();
  return *s;
}

// Whether a tools/call may run here: a read-only tool that does not block on purpose.
bool may_call(const csift::rpc::Message& m) {
  if (m.method != "tools/call") return true;
  const auto name = m.params.find("name");
  if (name == m.params.end() || !name->is_string()) return true;  // refused before any tool runs
  const csift::ToolSpec* spec = csift::find_tool(name->get<std::string>());
  return !spec || (spec->read_only && !spec->blocks);
}

void check_reply(const csift::json& reply) {
  const std::string line = csift::rpc::encode(reply);
  FUZZ_CHECK(csift::json::accept(line), "an encoded reply is not JSON: " + line);
}

}  // namespace

CSIFT_FUZZ_TARGET(jsonrpc) {
  using namespace csift;
  const std::string_view s = csift_fuzz::as_text(data, size);
  csift::Connection conn;
  const Emit emit = [](const json& note) {
    check_reply(note);
    return true;
  };
  for (size_t at = 0; at <= s.size();) {
    size_t nl = s.find('\n', at);
    if (nl == std::string_view::npos) nl = s.size();
    const std::string_view text = s.substr(at, nl - at);
    at = nl + 1;
    bool too_deep = false;
    const std::optional<json> parsed = rpc::parse(text, &too_deep);
    if (!parsed) continue;
    const rpc::Message m = rpc::classify(*parsed);
    if (m.kind == rpc::Kind::notification) {
      server().handle_notification(m, conn);
    } else if (m.kind == rpc::Kind::request && may_call(m)) {
      const std::optional<json> reply = server().handle_request(m, revision_of(m), conn, emit);
      if (reply) check_reply(*reply);
    } else if (m.kind == rpc::Kind::invalid) {
      check_reply(rpc::make_error(m.id, rpc::kInvalidRequest, m.reason));
    }
  }
  return 0;
}
