#include "core/harness/claude_code/image_payloads.h"

#include <cctype>
#include <cstring>

#include "core/harness/claude_code/record_parser.h"

namespace csift {
namespace {

constexpr std::string_view kImageSourceHead = R"("source":{"type":"base64","media_type":"image/)";
constexpr std::string_view kImageDataKey = R"(","data":")";

struct PayloadSpan {
  size_t begin, end;
};

PayloadSpan image_line_around(std::string_view block, size_t at) {
  const size_t nl_before = block.rfind('\n', at);
  const size_t nl_after = block.find('\n', at);
  return {nl_before == std::string_view::npos ? 0 : nl_before + 1,
          nl_after == std::string_view::npos ? block.size() : nl_after};
}

// Where the payload of the image source at `head` lies ([begin, end) between its quotes), or {0, 0} when the
// source is not the plain shape (a subtype of at most 40 bytes, then "data") or its line must keep it.
PayloadSpan image_payload_at(std::string_view block, size_t head) {
  const PayloadSpan line = image_line_around(block, head);
  const std::string_view text = block.substr(line.begin, line.end - line.begin);
  if (peek_type(text) != "user" || text.find("\"questions\"") != std::string_view::npos) return {0, 0};
  size_t at = head + kImageSourceHead.size();
  const size_t subtype_end = std::min(at + 40, line.end);
  while (at < subtype_end && (std::isalnum(static_cast<unsigned char>(block[at])) || block[at] == '+' ||
                              block[at] == '-' || block[at] == '.'))
    ++at;
  if (block.substr(at, kImageDataKey.size()) != kImageDataKey) return {0, 0};
  const size_t begin = at + kImageDataKey.size();
  const size_t end = block.find('"', begin);
  if (end == std::string_view::npos || end > line.end) return {0, 0};
  return {begin, end};
}

// glibc's memmem, not string_view::find: the latter stops at every quote of the JSON to compare the head.
size_t find_image_head(std::string_view block, size_t from) {
  if (from >= block.size()) return std::string_view::npos;
  const void* at =
      ::memmem(block.data() + from, block.size() - from, kImageSourceHead.data(), kImageSourceHead.size());
  return at ? static_cast<size_t>(static_cast<const char*>(at) - block.data()) : std::string_view::npos;
}

}  // namespace

void for_each_sketchable_span(std::string_view block, const std::function<void(std::string_view)>& fn) {
  size_t from = 0, search = 0;
  for (size_t head; (head = find_image_head(block, search)) != std::string_view::npos;) {
    const PayloadSpan payload = image_payload_at(block, head);
    search = head + kImageSourceHead.size();
    if (payload.end == 0) continue;
    fn(block.substr(from, payload.begin - from));
    from = search = payload.end;
  }
  fn(block.substr(from));
}

}  // namespace csift
