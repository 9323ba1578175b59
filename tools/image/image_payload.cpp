#include "tools/image/image_payload.h"

#include <optional>

#include "core/base/envelope.h"
#include "core/base/error.h"
#include "core/harness/claude_code/image_handles.h"
#include "core/json/json_text_repair.h"
#include "core/scan/line_fetch.h"
#include "tools/image/base64.h"

namespace csift {
namespace {

std::string name_of(const Transcript& t, const ImageOccurrence& image) {
  return image_locator(image.line, image.ordinal) + " of " + t.id;
}

// The span the parser recorded, in the same bytes it parsed (the repaired copy for a repaired line).
std::string data_token(const Transcript& t, const ImageOccurrence& image) {
  std::string line;
  const LineRef ref{image.line, image.record_offset, image.record_length};
  const std::string err =
      fetch_lines(t.path, {ref}, [&](const LineRef&, std::string_view bytes) { line.assign(bytes); });
  if (!err.empty()) failure_error("cannot read " + name_of(t, image) + " back: " + err);
  if (image.text_repaired) {
    if (std::optional<std::string> repaired = repair_json_text(line)) line = std::move(*repaired);
  }
  const uint64_t end = image.ref.data_offset + image.ref.data_length;
  if (end > line.size() || image.ref.data_offset < 1 || line[image.ref.data_offset - 1] != '"' ||
      (end < line.size() && line[end] != '"')) {
    failure_error("the line of " + name_of(t, image) +
                  " changed since it was read (the data is not where it was)");
  }
  return line.substr(image.ref.data_offset, image.ref.data_length);
}

}  // namespace

ImagePayload read_image_payload(const Transcript& t, const ImageOccurrence& image) {
  if (image.ref.data_length == 0) {
    failure_error(name_of(t, image) + " has no inline data" +
                  (image.ref.url.empty() ? std::string() : " (a url image: " + image.ref.url + ")"));
  }
  ImagePayload out;
  out.base64 = data_token(t, image);
  if (image.ref.data_escaped) {
    try {
      out.base64 = json::parse("\"" + out.base64 + "\"").get<std::string>();
    } catch (const json::exception& e) {
      failure_error("the data of " + name_of(t, image) + " is not a JSON string: " + e.what());
    }
  }
  std::string error;
  std::optional<std::string> bytes = base64_decode(out.base64, error);
  if (!bytes) failure_error("the data of " + name_of(t, image) + " is not base64: " + error);
  out.bytes = std::move(*bytes);
  return out;
}

}  // namespace csift
