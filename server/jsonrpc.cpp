#include "server/jsonrpc.h"

namespace csift::rpc {
namespace {

// MCP narrows JSON-RPC ids to strings and integers (no null, no fractions).
bool valid_id(const json& id) {
  return id.is_string() || id.is_number_integer();
}

Message invalid(std::string reason, json id = nullptr) {
  Message m;
  m.kind = Kind::invalid;
  m.reason = std::move(reason);
  if (valid_id(id)) m.id = std::move(id);
  return m;
}

}  // namespace

Message classify(const json& message) {
  if (message.is_array()) {
    Message m;
    m.kind = Kind::batch;
    m.reason = "JSON-RPC batches are not supported: send one message at a time";
    return m;
  }
  if (!message.is_object()) return invalid("a JSON-RPC message must be an object");
  const json id = message.contains("id") ? message["id"] : json();
  if (!message.contains("jsonrpc") || message["jsonrpc"] != "2.0") {
    return invalid("\"jsonrpc\" must be \"2.0\"", id);
  }
  if (!message.contains("method")) {
    if (message.contains("result") || message.contains("error")) {
      Message m;
      m.kind = Kind::response;
      m.id = id;
      return m;
    }
    return invalid("a message needs \"method\" (request or notification) or \"result\"/\"error\"", id);
  }
  if (!message["method"].is_string()) return invalid("\"method\" must be a string", id);
  Message m;
  m.method = message["method"].get<std::string>();
  if (message.contains("params") && !message["params"].is_object()) {
    return invalid("\"params\" must be an object", id);
  }
  m.params = message.contains("params") ? message["params"] : json::object();
  if (!message.contains("id")) {
    m.kind = Kind::notification;
    return m;
  }
  if (!valid_id(id)) return invalid("\"id\" must be a string or an integer");
  m.kind = Kind::request;
  m.id = id;
  return m;
}

bool nesting_within(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

std::optional<json> parse(std::string_view text, bool* too_deep) {
  // The parser stops at the first byte that is not JSON, and up to there it splits strings as this scan does,
  // so the scan's depth bounds the depth the parser can reach.
  if (too_deep) *too_deep = false;
  if (!nesting_within(text, kMaxNesting)) {
    if (too_deep) *too_deep = true;
    return std::nullopt;
  }
  json out = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return std::nullopt;
  return out;
}

json make_result(const json& id, json result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, int code, std::string message, json data) {
  json error{{"code", code}, {"message", std::move(message)}};
  if (!data.is_null()) error["data"] = std::move(data);
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

json make_notification(std::string method, json params) {
  return json{{"jsonrpc", "2.0"}, {"method", std::move(method)}, {"params", std::move(params)}};
}

bool is_error(const json& reply) {
  return reply.is_object() && reply.contains("error");
}

int error_code(const json& reply) {
  if (!is_error(reply)) return 0;
  const json& e = reply["error"];
  return e.contains("code") && e["code"].is_number_integer() ? e["code"].get<int>() : 0;
}

std::string encode(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string id_key(const json& id) {
  return id.is_string() ? "s:" + id.get<std::string>() : "n:" + id.dump();
}

}  // namespace csift::rpc
