// The MCP methods this server answers, in one table: each method's name, the revisions it exists in, where a
// transport runs it (on the reading thread, the worker pool, or the blocking pool), the capability that
// announces it, the parameter a 2026-07-28 request mirrors in its Mcp-Name header, and its handler. Dispatch,
// the lane a transport picks, the capabilities and every message that lists methods are read from it, so a
// method is added in one row.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/after_reply.h"
#include "core/base/envelope.h"
#include "server/inflight.h"
#include "server/jsonrpc.h"

namespace csift {

class McpServer;

// The two kinds of revision: the ones with an initialize handshake, and the stateless 2026-07-28.
enum class Revision { session, stateless };

// Where a transport runs a request: answered on the thread that read it (so ping and cancellation never wait
// behind calls), on the worker pool (slow: registered on its connection before it is queued, cancellable),
// or on the blocking pool (a call that blocks on purpose, wait, so waits never occupy the workers).
enum class Lane { reader, pool, blocking };

// One request as a handler sees it.
struct McpCall {
  const rpc::Message& m;
  Connection& conn;
  const Emit& emit;
  bool stateless;
  std::shared_ptr<InFlight> admitted;  // its entry from admit() when the transport queued it
  bool cancelled = false;              // set by the handler: the request gets no reply
  AfterReply* after_reply = nullptr;   // where the call leaves work for after its reply (null: none)
};

struct McpMethod {
  std::string_view name;
  bool session;    // in the revisions with an initialize handshake (2025-03-26, 2025-06-18, 2025-11-25)
  bool stateless;  // in 2026-07-28
  // Offered only where the transport may send a message unasked (stdio); elsewhere it answers -32601.
  bool notifying;
  Lane lane;  // Lane::pool methods may still run blocking: see `blocks`
  // The capability announcing it ("" when none: the handshake and ping are always there).
  std::string_view capability;
  // The parameter a 2026-07-28 request repeats in its Mcp-Name header ("" when none).
  std::string_view name_param;
  // For a pool method: true when this request blocks on purpose and runs on the blocking pool instead.
  bool (*blocks)(const rpc::Message& m);
  json (*handler)(McpServer& server, McpCall& call);
};

// Every method, in the order the messages list them.
const std::vector<McpMethod>& mcp_methods();
// The method named `name`, or nullptr.
const McpMethod* find_method(std::string_view name);
// Where `m` runs; Lane::reader for a method this server does not have (it is answered -32601 at once).
Lane lane_of(const rpc::Message& m);
// The value `m` must repeat in Mcp-Name, "" when its method has none or it is not a string.
std::string mirrored_name(const rpc::Message& m);

// The -32601 message for `method` in revision `rev`: it names the methods there are on this transport
// (`notify`: it can send a message unasked, so the subscription methods are among them).
std::string method_not_found(std::string_view method, Revision rev, bool notify);
// The server capabilities for initialize and server/discover. `notify`: the transport can send a message
// unasked, so subscriptions are offered.
json server_capabilities(bool notify);

}  // namespace csift
