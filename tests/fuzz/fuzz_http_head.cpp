// Fuzzes the HTTP/1.1 request head parser (server/http_parse.h) on arbitrary bytes, with small limits so the
// 431 bound is reached. A failure is a sanitizer report, an exception, or a broken contract: a complete head
// that consumed more than it was given, a prefix of a complete head not reported as needing more (the
// parser must not decide before the blank line), or the head alone (without what follows it) parsing
// differently from the head with its body.
#include "server/http_parse.h"
#include "tests/fuzz/fuzz_support.h"

CSIFT_FUZZ_TARGET(http_head) {
  using namespace csift::http;
  const std::string_view s = csift_fuzz::as_text(data, size);
  Limits limits;
  limits.max_header_bytes = 1024;
  limits.max_body_bytes = 4096;
  FUZZ_CHECK(blank_prefix(s) <= s.size(), "blank_prefix beyond the bytes");
  const HeadResult whole = parse_request_head(s, limits);
  if (whole.state != Parse::complete) return 0;
  FUZZ_CHECK(whole.consumed > 0 && whole.consumed <= s.size(), "consumed outside the bytes");
  (void)check_content_length(whole.head, limits);
  (void)whole.head.request.header("content-type");
  const HeadResult alone = parse_request_head(s.substr(0, whole.consumed), limits);
  FUZZ_CHECK(alone.state == Parse::complete && alone.consumed == whole.consumed &&
                 alone.head.request.target == whole.head.request.target &&
                 alone.head.request.headers == whole.head.request.headers &&
                 alone.head.chunked == whole.head.chunked &&
                 alone.head.content_length == whole.head.content_length,
             "the head alone vs the head with what follows it");
  for (size_t cut : {whole.consumed - 1, whole.consumed / 2}) {
    const HeadResult prefix = parse_request_head(s.substr(0, cut), limits);
    FUZZ_CHECK(prefix.state == Parse::needs_more, "a prefix of a complete head did not need more (cut " +
                                                      std::to_string(cut) + "): " + prefix.error.message);
  }
  return 0;
}
