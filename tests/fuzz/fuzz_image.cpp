// Fuzzes image extraction (tools/image/): the first byte picks the path. Even: the rest is a Claude Code
// transcript, scanned for inline images (scan_images: image blocks of user records and those nested in tool
// results), each payload read back from its line and base64-decoded (read_image_payload) and then decoded
// as below. Odd: the rest is an image payload itself (the bytes an extraction converts), its format sniffed
// (or taken from the second byte's low bits), decoded to RGBA by the Debian codec libraries and, when it
// decodes, encoded back as PNG. A failure is a sanitizer report, an exception other than the documented
// ToolError, or a decoded raster whose pixel buffer is not width * height * 4 bytes.
#include "core/base/error.h"
#include "tests/fuzz/fuzz_support.h"
#include "tools/image/base64.h"
#include "tools/image/image_codec.h"
#include "tools/image/image_payload.h"
#include "tools/image/image_scan.h"

namespace {

void convert(std::string_view bytes, csift::ImageFormat format) {
  using namespace csift;
  if (format == ImageFormat::unknown) return;
  Raster r;
  try {
    r = decode_image(bytes, format);
  } catch (const ToolError&) {
    return;
  }
  FUZZ_CHECK(r.width > 0 && r.height > 0 &&
                 r.rgba.size() == static_cast<size_t>(r.width) * static_cast<size_t>(r.height) * 4,
             "a decoded raster of the wrong size");
  note_alpha(r);
  if (static_cast<size_t>(r.width) * static_cast<size_t>(r.height) > (1u << 16)) return;  // keep runs fast
  try {
    (void)encode_image(r, ImageFormat::png);
  } catch (const ToolError&) {
  }
}

}  // namespace

CSIFT_FUZZ_TARGET(image) {
  using namespace csift;
  if (size < 2) return 0;
  const std::string_view rest = csift_fuzz::as_text(data + 1, size - 1);
  if (data[0] & 1) {
    const ImageFormat formats[] = {ImageFormat::png, ImageFormat::jpeg, ImageFormat::gif, ImageFormat::webp};
    const ImageFormat sniffed = sniff_format(rest.substr(1));
    convert(rest.substr(1), sniffed != ImageFormat::unknown ? sniffed : formats[data[1] & 3]);
    std::string error;
    (void)base64_decode(rest, error);
    return 0;
  }
  Transcript t;
  t.harness = HarnessId::claude_code;
  t.path = csift_fuzz::scratch_file(rest);
  t.id = t.session_id = "fuzz";
  t.size = rest.size();
  const TranscriptImages found = scan_images(t, 0, nullptr);
  for (const ImageOccurrence& image : found.images) {
    try {
      const ImagePayload payload = read_image_payload(t, image);
      convert(payload.bytes, sniff_format(payload.bytes));
    } catch (const ToolError&) {
    }
  }
  (void)dedup_by_content(found.images);
  return 0;
}
