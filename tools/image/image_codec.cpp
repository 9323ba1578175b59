#include "tools/image/image_codec.h"

#include "core/base/error.h"
#include "core/base/text.h"

namespace csift {

ImageFormat format_of_media_type(std::string_view media_type) {
  if (media_type == "image/png") return ImageFormat::png;
  if (media_type == "image/jpeg" || media_type == "image/jpg") return ImageFormat::jpeg;
  if (media_type == "image/gif") return ImageFormat::gif;
  if (media_type == "image/webp") return ImageFormat::webp;
  return ImageFormat::unknown;
}

ImageFormat format_of_extension(std::string_view ext) {
  std::string lower(ext);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (lower == "png") return ImageFormat::png;
  if (lower == "jpg" || lower == "jpeg") return ImageFormat::jpeg;
  if (lower == "gif") return ImageFormat::gif;
  if (lower == "webp") return ImageFormat::webp;
  return ImageFormat::unknown;
}

ImageFormat sniff_format(std::string_view b) {
  if (b.size() >= 8 && b.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return ImageFormat::png;
  if (b.size() >= 3 && b.substr(0, 3) == "\xFF\xD8\xFF") return ImageFormat::jpeg;
  if (b.size() >= 6 && (b.substr(0, 6) == "GIF87a" || b.substr(0, 6) == "GIF89a")) return ImageFormat::gif;
  if (b.size() >= 12 && b.substr(0, 4) == "RIFF" && b.substr(8, 4) == "WEBP") return ImageFormat::webp;
  return ImageFormat::unknown;
}

const char* media_type_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::png:
      return "image/png";
    case ImageFormat::jpeg:
      return "image/jpeg";
    case ImageFormat::gif:
      return "image/gif";
    case ImageFormat::webp:
      return "image/webp";
    default:
      return "";
  }
}

const char* extension_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::png:
      return "png";
    case ImageFormat::jpeg:
      return "jpg";
    case ImageFormat::gif:
      return "gif";
    case ImageFormat::webp:
      return "webp";
    default:
      return "bin";
  }
}

void note_alpha(Raster& r) {
  r.has_alpha = false;
  for (size_t i = 3; i < r.rgba.size(); i += 4) {
    if (r.rgba[i] != 255) {
      r.has_alpha = true;
      return;
    }
  }
}

void check_raster_size(const char* format, uint64_t width, uint64_t height) {
  if (width * height <= kMaxRasterPixels) return;  // both are under 2^32: no overflow
  failure_error(std::string("not decoded: the ") + format + " declares " + std::to_string(width) + "x" +
                std::to_string(height) + " pixels, over the " + std::to_string(kMaxRasterPixels / 1'000'000) +
                " million a raster may hold; extract it in its own format (no conversion) instead");
}

Raster decode_image(std::string_view bytes, ImageFormat f) {
  switch (f) {
    case ImageFormat::png:
      return decode_png(bytes);
    case ImageFormat::jpeg:
      return decode_jpeg(bytes);
    case ImageFormat::gif:
      return decode_gif(bytes);
    case ImageFormat::webp:
      return decode_webp(bytes);
    default:
      failure_error("cannot decode an image of unknown format");
  }
}

std::string encode_image(const Raster& r, ImageFormat f) {
  switch (f) {
    case ImageFormat::png:
      return encode_png(r);
    case ImageFormat::jpeg:
      return encode_jpeg(r, 90);
    case ImageFormat::gif:
      return encode_gif(r);
    case ImageFormat::webp:
      return encode_webp(r, 90.0f);
    default:
      failure_error("cannot encode an image of unknown format");
  }
}

}  // namespace csift
