// WebP through libwebp's one-call API (WebPDecodeRGBA, WebPEncodeRGBA / WebPEncodeRGB at quality 90).
#include <webp/decode.h>
#include <webp/encode.h>

#include <cstring>

#include "core/base/error.h"
#include "tools/image/image_codec.h"

namespace csift {

Raster decode_webp(std::string_view bytes) {
  int width = 0, height = 0;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if (WebPGetInfo(data, bytes.size(), &width, &height))
    check_raster_size("WebP image", static_cast<uint64_t>(width), static_cast<uint64_t>(height));
  uint8_t* pixels = WebPDecodeRGBA(data, bytes.size(), &width, &height);
  if (!pixels) failure_error("not a readable WebP image");
  Raster r;
  r.width = width;
  r.height = height;
  r.rgba.assign(pixels, pixels + static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  WebPFree(pixels);
  note_alpha(r);
  return r;
}

std::string encode_webp(const Raster& r, float quality) {
  uint8_t* out = nullptr;
  const size_t size = WebPEncodeRGBA(r.rgba.data(), r.width, r.height, r.width * 4, quality, &out);
  if (size == 0 || !out) failure_error("WebP encoding failed");
  std::string bytes(reinterpret_cast<const char*>(out), size);
  WebPFree(out);
  return bytes;
}

}  // namespace csift
