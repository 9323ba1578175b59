// The HTTP/1.1 request parsers of server/http_server.h as pure functions: bytes and limits in, a typed result
// out (needs more bytes / complete / refused with a status and the text sent with it). They hold no socket,
// connection or lock, so every bound is tested on its own (tests/unit/http_parse_test.cpp) and the entry
// points can be handed to a fuzzer as they are. The epoll engine calls them with what it has buffered and
// erases what they consumed.
#pragma once
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace csift::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;
  std::string target;
  std::string path;  // the target without its query
  int minor_version = 1;
  Headers headers;  // names lower-cased, values trimmed
  std::string body;
  std::string peer;  // the client's address
  // The first value of a header (name lower-case), "" when absent.
  std::string header(std::string_view name) const;
};

struct Limits {
  size_t max_header_bytes = 16u << 10;  // request line and headers: more gets 431
  size_t max_body_bytes = 4u << 20;     // decoded body, Content-Length or chunked: more gets 413
  // From a request's first byte to its last: a client trickling bytes gets 408 and is closed.
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds idle_timeout{60000};   // a kept-alive connection with no request
  std::chrono::milliseconds write_timeout{30000};  // a reply the client does not read
  size_t max_connections = 512;
  // At the per-address bound, a new connection replaces that address's longest-waiting connection that has
  // no request being answered; only when all are being answered is it refused (503).
  size_t max_connections_per_address = 64;
};

// The statuses a request is refused with before it reaches the handler.
enum class Refusal {
  bad_request = 400,
  request_timeout = 408,
  content_too_large = 413,
  header_fields_too_large = 431,
  not_implemented = 501,
};

struct ParseError {
  Refusal status = Refusal::bad_request;
  std::string message;  // the text/plain body, without its final newline
};

enum class Parse { needs_more, complete, error };

// The request line and headers, and what they say about the body and the connection.
struct RequestHead {
  Request request;  // without body or peer
  bool chunked = false;
  size_t content_length = 0;  // when not chunked
  bool keep_alive = true;     // HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with "keep-alive"
  bool expects_continue = false;
};

struct HeadResult {
  Parse state = Parse::needs_more;
  RequestHead head;     // when complete
  size_t consumed = 0;  // when complete: the bytes up to and including the blank line ending the head
  ParseError error;     // when error
};

// Empty lines may precede a request line (RFC 9112 §2.2): the number of CR/LF bytes `bytes` starts with.
size_t blank_prefix(std::string_view bytes);

// Parses a request head from the start of `bytes` (blank lines before it skipped). Needs more until a blank
// line (CRLF CRLF, or LF LF) ends it; 431 once the head is over limits.max_header_bytes (whether or not it
// has ended); 400 for a malformed request line, an HTTP version other than 1.0/1.1, a folded (obs-fold) or
// malformed header line, conflicting Content-Length headers, Content-Length with Transfer-Encoding, or a
// malformed Content-Length; 501 for a Transfer-Encoding other than chunked. Bytes after the head (its body,
// a pipelined request) are not consumed. A NUL byte is an ordinary byte: it never ends a line or the head.
HeadResult parse_request_head(std::string_view bytes, const Limits& limits);

// 413 when a Content-Length body is over limits.max_body_bytes. Separate from the head parse because the
// server checks access (403/401) on the headers first.
std::optional<ParseError> check_content_length(const RequestHead& head, const Limits& limits);

struct BodyResult {
  Parse state = Parse::needs_more;
  size_t consumed = 0;  // always: the bytes of `bytes` used, whatever the state
  ParseError error;     // when error
};

// Decodes a chunked body incrementally: feed it what is buffered, erase `consumed`, feed it more. Decoded
// data is appended to `body`, held to limits.max_body_bytes as each chunk size is read (413). A chunk-size
// line takes hex digits (at most 15), optional whitespace and ;extensions (ignored); an empty, non-hex or
// longer size is 400, so is chunk data not followed by CRLF (or LF), and a size or trailer line longer than
// 1024 bytes without its LF. Trailer lines are read and ignored; the body is complete at the empty line after
// them, and bytes after it (a pipelined request) are not consumed.
class ChunkedDecoder {
 public:
  BodyResult feed(std::string_view bytes, const Limits& limits, std::string& body);

 private:
  enum class State { size, data, data_crlf, trailer } state_ = State::size;
  size_t left_ = 0;  // the current chunk's data bytes still to come
};

// A whole chunked body at once (a fresh decoder fed `bytes` once).
BodyResult parse_chunked_body(std::string_view bytes, const Limits& limits, std::string& body);

// When a request that started at `started` must be complete: from its first byte to its last.
std::chrono::steady_clock::time_point request_deadline(std::chrono::steady_clock::time_point started,
                                                       const Limits& limits);
// 408 when `now` is past `deadline` and the request is still incomplete.
std::optional<ParseError> check_request_deadline(std::chrono::steady_clock::time_point deadline,
                                                 std::chrono::steady_clock::time_point now);

}  // namespace csift::http
