#include "server/http_parse.h"

#include <algorithm>

#include "core/base/text.h"

namespace csift::http {
namespace {

// Optional whitespace around header values and chunk sizes (a stray \r before a bare \n included).
constexpr std::string_view kHttpSpace = " \t\r";

// A chunk-size line (with extensions) or a trailer line: longer without its LF is refused, whether its LF has
// arrived or not (a decoder fed in pieces and one given the whole body decide alike: the fuzz find).
constexpr size_t kMaxChunkLine = 1024;

ParseError make_parse_error(Refusal status, std::string message) {
  return ParseError{status, std::move(message)};
}

HeadResult head_error(Refusal status, std::string message) {
  HeadResult r;
  r.state = Parse::error;
  r.error = make_parse_error(status, std::move(message));
  return r;
}

std::string too_large_head(const Limits& limits) {
  return "request line and headers exceed " + std::to_string(limits.max_header_bytes) + " bytes";
}

std::string too_large_body(const Limits& limits) {
  return "the body exceeds " + std::to_string(limits.max_body_bytes) + " bytes";
}

// The head's lines (without the blank line ending it) into `out`; "" or the reason it is malformed.
// `not_implemented` is set when the reason is an unsupported Transfer-Encoding.
std::string parse_head_lines(std::string_view head, RequestHead& out, bool& not_implemented) {
  Request& req = out.request;
  size_t pos = head.find('\n');
  std::string_view line = trim(head.substr(0, pos), kHttpSpace);
  const size_t s1 = line.find(' ');
  const size_t s2 = s1 == std::string_view::npos ? s1 : line.find(' ', s1 + 1);
  if (s2 == std::string_view::npos) return "malformed request line";
  req.method = std::string(line.substr(0, s1));
  req.target = std::string(line.substr(s1 + 1, s2 - s1 - 1));
  const std::string_view version = line.substr(s2 + 1);
  if (version == "HTTP/1.1") {
    req.minor_version = 1;
  } else if (version == "HTTP/1.0") {
    req.minor_version = 0;
  } else {
    return "unsupported HTTP version";
  }
  req.path = req.target.substr(0, req.target.find('?'));
  while (pos != std::string_view::npos) {
    const size_t next = head.find('\n', pos + 1);
    std::string_view h = head.substr(pos + 1, next == std::string_view::npos ? head.npos : next - pos - 1);
    pos = next;
    if (!h.empty() && h.back() == '\r') h.remove_suffix(1);
    if (h.empty()) continue;
    if (h.front() == ' ' || h.front() == '\t') return "obsolete header folding is not accepted";
    const size_t colon = h.find(':');
    if (colon == std::string_view::npos || colon == 0) return "malformed header line";
    req.headers.emplace_back(lower_ascii(h.substr(0, colon)),
                             std::string(trim(h.substr(colon + 1), kHttpSpace)));
  }
  std::string length;
  std::string encoding;
  for (const auto& [k, v] : req.headers) {
    if (k == "content-length") {
      if (!length.empty() && length != v) return "conflicting Content-Length headers";
      length = v;
    } else if (k == "transfer-encoding") {
      encoding += (encoding.empty() ? "" : ",") + lower_ascii(v);
    }
  }
  if (!encoding.empty()) {
    if (!length.empty()) return "both Content-Length and Transfer-Encoding";
    if (trim(encoding, kHttpSpace) != "chunked") {
      not_implemented = true;
      return "501";  // the body the server has always sent with this refusal
    }
    out.chunked = true;
  } else if (!length.empty()) {
    if (length.size() > 18 || length.find_first_not_of("0123456789") != std::string::npos)
      return "malformed Content-Length";
    out.content_length = std::stoull(length);
  }
  const std::string connection = lower_ascii(req.header("connection"));
  out.keep_alive = req.minor_version == 0 ? connection.find("keep-alive") != std::string::npos
                                          : connection.find("close") == std::string::npos;
  out.expects_continue = lower_ascii(req.header("expect")) == "100-continue" && req.minor_version >= 1;
  return "";
}

// Whether the blank line ending a head may still start at or before `limit`, the bytes from there to the end
// being the start of one ("\r", "\r\n", "\r\n\r", "\n"). A head of max_header_bytes is accepted whole, so
// its prefix holding part of the blank line beyond the limit needs more: the verdict never depends on where
// the bytes were split (the fuzz find).
bool blank_line_may_start_by(std::string_view in, size_t limit) {
  for (size_t p = in.size() > 3 ? in.size() - 3 : 0; p <= limit && p < in.size(); ++p) {
    const std::string_view rest = in.substr(p);
    if (std::string_view("\r\n\r\n").starts_with(rest) || std::string_view("\n\n").starts_with(rest))
      return true;
  }
  return false;
}

}  // namespace

std::string Request::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (k == name) return v;
  return "";
}

size_t blank_prefix(std::string_view bytes) {
  size_t skip = 0;
  while (skip < bytes.size() && (bytes[skip] == '\r' || bytes[skip] == '\n'))
    ++skip;
  return skip;
}

HeadResult parse_request_head(std::string_view bytes, const Limits& limits) {
  const size_t skip = blank_prefix(bytes);
  const std::string_view in = bytes.substr(skip);
  size_t end = in.find("\r\n\r\n");
  size_t sep = 4;
  const size_t lf = in.find("\n\n");
  if (lf != std::string_view::npos && (end == std::string_view::npos || lf < end)) {
    end = lf;
    sep = 2;
  }
  if (end == std::string_view::npos) {
    if (in.size() > limits.max_header_bytes && !blank_line_may_start_by(in, limits.max_header_bytes))
      return head_error(Refusal::header_fields_too_large, too_large_head(limits));
    return HeadResult{};
  }
  if (end > limits.max_header_bytes)
    return head_error(Refusal::header_fields_too_large, too_large_head(limits));
  HeadResult r;
  bool not_implemented = false;
  std::string error = parse_head_lines(in.substr(0, end), r.head, not_implemented);
  if (!error.empty())
    return head_error(not_implemented ? Refusal::not_implemented : Refusal::bad_request, std::move(error));
  r.state = Parse::complete;
  r.consumed = skip + end + sep;
  return r;
}

std::optional<ParseError> check_content_length(const RequestHead& head, const Limits& limits) {
  if (head.chunked || head.content_length <= limits.max_body_bytes) return std::nullopt;
  return make_parse_error(Refusal::content_too_large, too_large_body(limits));
}

BodyResult ChunkedDecoder::feed(std::string_view bytes, const Limits& limits, std::string& body) {
  BodyResult r;
  size_t& pos = r.consumed;
  auto fail = [&](Refusal status, std::string message) {
    r.state = Parse::error;
    r.error = make_parse_error(status, std::move(message));
    return r;
  };
  for (;;) {
    const std::string_view in = bytes.substr(pos);
    switch (state_) {
      case State::size: {
        const size_t nl = in.find('\n');
        if (nl == std::string_view::npos) {
          if (in.size() > kMaxChunkLine) return fail(Refusal::bad_request, "chunk-size line too long");
          return r;
        }
        if (nl > kMaxChunkLine) return fail(Refusal::bad_request, "chunk-size line too long");
        std::string_view line = trim(in.substr(0, nl), kHttpSpace);
        line = trim(line.substr(0, line.find(';')), kHttpSpace);
        if (line.empty() || line.size() > 15 || line.find_first_not_of("0123456789abcdefABCDEF") != line.npos)
          return fail(Refusal::bad_request, "malformed chunk size");
        const size_t size = std::stoull(std::string(line), nullptr, 16);
        pos += nl + 1;
        if (size == 0) {
          state_ = State::trailer;
          break;
        }
        if (body.size() + size > limits.max_body_bytes)
          return fail(Refusal::content_too_large, too_large_body(limits));
        left_ = size;
        state_ = State::data;
        break;
      }
      case State::data: {
        const size_t take = std::min(left_, in.size());
        body.append(in.substr(0, take));
        pos += take;
        left_ -= take;
        if (left_ > 0) return r;
        state_ = State::data_crlf;
        break;
      }
      case State::data_crlf: {
        if (in.empty()) return r;
        size_t at = 0;
        if (in[0] == '\r') {
          if (in.size() < 2) return r;
          at = 1;
        }
        if (in[at] != '\n') {
          pos += at;  // the CR was taken
          return fail(Refusal::bad_request, "malformed chunk: data is not followed by CRLF");
        }
        pos += at + 1;
        state_ = State::size;
        break;
      }
      case State::trailer: {
        const size_t nl = in.find('\n');
        if (nl == std::string_view::npos) {
          if (in.size() > kMaxChunkLine) return fail(Refusal::bad_request, "trailer line too long");
          return r;
        }
        if (nl > kMaxChunkLine) return fail(Refusal::bad_request, "trailer line too long");
        const bool empty = trim(in.substr(0, nl), kHttpSpace).empty();
        pos += nl + 1;
        if (empty) {  // trailers are read and ignored
          r.state = Parse::complete;
          return r;
        }
        break;
      }
    }
  }
}

BodyResult parse_chunked_body(std::string_view bytes, const Limits& limits, std::string& body) {
  ChunkedDecoder decoder;
  return decoder.feed(bytes, limits, body);
}

std::chrono::steady_clock::time_point request_deadline(std::chrono::steady_clock::time_point started,
                                                       const Limits& limits) {
  return started + limits.request_timeout;
}

std::optional<ParseError> check_request_deadline(std::chrono::steady_clock::time_point deadline,
                                                 std::chrono::steady_clock::time_point now) {
  if (now <= deadline) return std::nullopt;
  return make_parse_error(Refusal::request_timeout, "the request did not arrive in time");
}

}  // namespace csift::http
