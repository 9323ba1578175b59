// Fuzzes the chunked-body decoder (server/http_parse.h). Input: one byte giving a feeding step (1..64), then
// the body bytes. The body is decoded twice: whole (parse_chunked_body) and fed piece by piece to one
// ChunkedDecoder as the epoll engine feeds it (buffer what came, erase what was consumed). A failure is a
// sanitizer report, an exception, consumed beyond the bytes given, or the two decodings disagreeing on the
// outcome (complete, error and its status), the decoded body or the bytes a complete body consumed.
#include "server/http_parse.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(http_chunked) {
  using namespace csift::http;
  if (size < 1) return 0;
  const size_t step = data[0] % 64 + 1;
  const std::string_view s = csift_fuzz::as_text(data + 1, size - 1);
  Limits limits;
  limits.max_body_bytes = 2048;
  std::string whole_body;
  const BodyResult whole = parse_chunked_body(s, limits, whole_body);
  FUZZ_CHECK(whole.consumed <= s.size(), "consumed beyond the bytes");

  ChunkedDecoder decoder;
  std::string buffer, body;
  size_t fed = 0, consumed = 0;
  BodyResult last;
  while (true) {
    const size_t n = std::min(step, s.size() - fed);
    buffer.append(s.substr(fed, n));
    fed += n;
    last = decoder.feed(buffer, limits, body);
    FUZZ_CHECK(last.consumed <= buffer.size(), "consumed beyond the buffer");
    buffer.erase(0, last.consumed);
    consumed += last.consumed;
    if (last.state != Parse::needs_more || fed == s.size()) break;
  }
  FUZZ_CHECK(last.state == whole.state, "incremental vs whole: outcome");
  if (whole.state == Parse::complete) {
    FUZZ_CHECK(body == whole_body, "incremental vs whole: body");
    FUZZ_CHECK(consumed == whole.consumed, "incremental vs whole: consumed");
  }
  if (whole.state == Parse::error)
    FUZZ_CHECK(last.error.status == whole.error.status, "incremental vs whole: status");
  return 0;
}
