// JSON-RPC 2.0 as MCP uses it: message classification, the error codes, and line framing. Both transports
// go through here, so a malformed message is judged the same way on stdio and over HTTP.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "core/base/envelope.h"

namespace csift::rpc {

// JSON-RPC 2.0 codes, plus the MCP 2026-07-28 ones.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kSessionNotFound = -32001;  // Streamable HTTP: an ended or unknown Mcp-Session-Id
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kMissingClientCapability = -32021;
inline constexpr int kUnsupportedProtocolVersion = -32022;

enum class Kind {
  request,       // method + id: exactly one reply
  notification,  // method, no id: never a reply
  response,      // result or error with an id (a client answering us; we send no requests, so ignored)
  invalid,       // not a JSON-RPC 2.0 message: -32600
  batch,         // a JSON array: not supported by the revisions served (2025-06-18 removed batching)
};

struct Message {
  Kind kind = Kind::invalid;
  json id;  // null unless a request (or an invalid message whose id could be read)
  std::string method;
  json params;         // an object (empty when absent)
  std::string reason;  // why an invalid message is invalid
};

Message classify(const json& message);

// The deepest nesting of arrays and objects a message may have. nlohmann-json parses, copies and prints
// recursively, so an unbounded depth is a stack overflow any client can trigger with a small body; no MCP
// message comes near this.
inline constexpr size_t kMaxNesting = 256;

// Parses one message's text; nullopt when it is not JSON (the caller answers -32700) or nests deeper than
// kMaxNesting (-32600; `too_deep` is set). The depth is checked on the raw bytes before parsing.
std::optional<json> parse(std::string_view text, bool* too_deep = nullptr);
// True when no array/object in `text` nests deeper than `max_depth` (strings are skipped, escapes honoured).
bool nesting_within(std::string_view text, size_t max_depth);

json make_result(const json& id, json result);
json make_error(const json& id, int code, std::string message, json data = nullptr);
json make_notification(std::string method, json params);
bool is_error(const json& reply);
int error_code(const json& reply);

// One compact line, no trailing newline. Invalid UTF-8 in strings is replaced, never thrown on.
std::string encode(const json& message);

// A request id as a table key: ids 1 and "1" are different requests.
std::string id_key(const json& id);

}  // namespace csift::rpc
