// MCP method dispatch shared by both transports: the session revisions (2025-03-26, 2025-06-18, 2025-11-25,
// with the initialize handshake) and the stateless 2026-07-28 revision (server/discover, per-request _meta).
// The methods are the rows of server/mcp_methods.h; server/dispatcher.h runs them for the transports.
// Every tool in the table is served from here; no tool has server code of its own.
#pragma once
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/store.h"
#include "server/inflight.h"
#include "server/jsonrpc.h"
#include "server/mcp_methods.h"
#include "tools/common/tool.h"

namespace csift {

inline constexpr std::string_view kLatestSessionVersion = "2025-11-25";
inline constexpr std::string_view kStatelessVersion = "2026-07-28";
// The revisions with an initialize handshake, oldest first.
const std::vector<std::string>& session_versions();
// Every revision served, session ones first (what server/discover lists).
const std::vector<std::string>& supported_versions();
bool is_session_version(std::string_view v);

// The default per-call output budget (characters of rendering) when a call gives no max_chars: each of the
// text and the structured halves stays near it, so a whole result is a fraction of Claude Code's 25,000-token
// tool-output limit.
inline constexpr int64_t kDefaultMaxChars = 16000;

// Whether tools/call results carry structuredContent (and tools/list each tool's outputSchema):
// `--structured-content`. `automatic` leaves both out for a client known to hand structuredContent to its
// model in place of the text (Claude Code), so the model reads the text form, and keeps both for every other
// client.
enum class StructuredMode { automatic, always, never };
// "auto", "always", "never"; nullopt for anything else.
std::optional<StructuredMode> structured_mode_of(std::string_view word);

// The most characters of one result a client passes on to its model, from Claude Code's rule (measured in
// 2.1.332): a result whose text, at its estimate of 4 characters a token, is at most half of
// MAX_MCP_OUTPUT_TOKENS (25,000 by default) is passed whole without counting its tokens, and one over 50,000
// characters is saved to a file in place of the text. So 2 characters a token, at most 50,000, less a tenth
// kept back for the notes block and for characters Claude Code counts twice (outside the BMP): 45,000 by
// default. `env` is the server's environment, which a stdio server inherits from Claude Code.
inline constexpr int64_t kDefaultMcpOutputTokens = 25000;
constexpr int64_t answer_ceiling_for(int64_t mcp_output_tokens) {
  constexpr int64_t kSavedToFileOver = 50000;
  return std::min(2 * mcp_output_tokens, kSavedToFileOver) / 10 * 9;
}
// From MAX_MCP_OUTPUT_TOKENS when it is a positive whole number (as Claude Code reads it), else the default.
int64_t answer_ceiling(const Environment& env);

// A message speaks 2026-07-28 when its _meta names a protocol version or it is server/discover.
Revision revision_of(const rpc::Message& m);
// The version a stateless request's _meta names ("" when absent or not a string).
std::string meta_protocol_version(const rpc::Message& m);
// `result` as a stateless (2026-07-28) answer says it: marked complete; a session answer is unchanged.
json with_result_type(json result, bool stateless);

// The caching hints (SEP-2549) every 2026-07-28 result of server/discover, tools/list, prompts/list,
// resources/list, resources/templates/list and resources/read must carry: how long a client may reuse it
// (ttlMs; 0 is stale at once) and whether a shared cache may hand it to another caller ("public") or only
// to the one that asked ("private"). Each method picks its own; SPEC.md §11 says why.
struct CacheHint {
  int64_t ttl_ms;
  std::string_view scope;
};
// What changes only with the binary and is the same for every caller of this transport: server/discover,
// the tool, prompt and resource-template lists.
inline constexpr CacheHint kFixedByBinary{300000, "public"};
// `result` with `hint` when it answers 2026-07-28; a session answer is unchanged (those revisions have none).
json with_cache_hint(json result, bool stateless, CacheHint hint);

struct ServerOptions {
  Environment env;
  int64_t default_max_chars = kDefaultMaxChars;
  StructuredMode structured = StructuredMode::automatic;
  // No answer over MCP is larger (max_chars 0 and any larger budget page at it): answer_ceiling().
  int64_t answer_ceiling = answer_ceiling_for(kDefaultMcpOutputTokens);
  size_t page_size = 100;
  std::chrono::milliseconds progress_interval{50};
};

class McpServer {
 public:
  explicit McpServer(ServerOptions options);

  // One request to its reply, or nullopt when the request was cancelled (a cancelled request gets no reply).
  // Progress notifications go to `emit`, possibly from other threads, and all before this returns.
  // `admitted` is the request's entry from admit() when the transport queued it.
  // `after_reply`: where the call may leave work for after its reply is sent (the caller runs it then);
  // null: the call does all of it before it returns.
  std::optional<json> handle_request(const rpc::Message& m, Revision rev, Connection& conn, const Emit& emit,
                                     std::shared_ptr<InFlight> admitted = nullptr,
                                     AfterReply* after_reply = nullptr);
  // Registers a slow request on `conn` before it is queued, so notifications/cancelled (or the transport,
  // when the client goes away) cancels it while it still waits: it then never runs and gets no reply.
  // nullptr when a request with the same id is under way (answer rpc_id_in_use).
  std::shared_ptr<InFlight> admit(const rpc::Message& m, Connection& conn, const Emit& emit) const;
  static json id_in_use(const json& id);
  void handle_notification(const rpc::Message& m, Connection& conn);
  const ServerOptions& options() const { return options_; }

 private:
  // The method table's rows name the handlers below (server/mcp_methods.cpp).
  static const std::vector<McpMethod>& method_table();
  friend const std::vector<McpMethod>& mcp_methods();

  // Finds `call`'s method in the table for its revision and runs it (-32601 when there is none).
  json dispatch(McpCall& call);
  json initialize(const rpc::Message& m, Connection& conn);
  json discover(const rpc::Message& m);
  json list_tools(const rpc::Message& m, Connection& conn, bool stateless);
  // Whether results to the client behind `m` carry structuredContent (the server's StructuredMode, and in
  // automatic mode the client's name: the request's 2026-07-28 _meta clientInfo, else its initialize).
  bool sends_structured(const rpc::Message& m, Connection& conn) const;
  // A slow request, registered on its connection (and cancellable) for as long as `body` runs.
  json run_registered(McpCall& call, const std::function<json(ToolContext&)>& body);
  json list_resources(const rpc::Message& m, bool stateless, ToolContext& ctx);
  json list_resource_templates(const rpc::Message& m, bool stateless);
  json read_resource(const rpc::Message& m, bool stateless, ToolContext& ctx);
  // resources/subscribe and resources/unsubscribe (session revisions, transports that can notify).
  json subscribe(const rpc::Message& m, Connection& conn, ToolContext& ctx);
  json unsubscribe(const rpc::Message& m, Connection& conn);
  json list_prompts(const rpc::Message& m, bool stateless);
  json get_prompt(const rpc::Message& m, bool stateless);
  json complete(const rpc::Message& m, bool stateless, ToolContext& ctx);
  json call_tool(McpCall& call);
  // A tools/call of a tool that blocks on purpose (wait): it runs on the blocking pool, so waits never
  // occupy the workers other calls need.
  static bool call_blocks(const rpc::Message& m);

  ServerOptions options_;
};

}  // namespace csift
