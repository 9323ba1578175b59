// PNG through libpng's simplified API (png_image): whole-image reads and writes in memory.
#include <png.h>

#include "core/base/error.h"
#include "tools/image/image_codec.h"

namespace csift {

Raster decode_png(std::string_view bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) {
    failure_error(std::string("not a readable PNG: ") + image.message);
  }
  image.format = PNG_FORMAT_RGBA;
  if (image.width * static_cast<uint64_t>(image.height) > kMaxRasterPixels) {
    png_image_free(&image);
    check_raster_size("PNG", image.width, image.height);
  }
  Raster r;
  r.width = static_cast<int>(image.width);
  r.height = static_cast<int>(image.height);
  r.rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, r.rgba.data(), 0, nullptr)) {
    const std::string message = image.message;
    png_image_free(&image);
    failure_error("not a readable PNG: " + message);
  }
  note_alpha(r);
  return r;
}

std::string encode_png(const Raster& r) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(r.width);
  image.height = static_cast<png_uint_32>(r.height);
  image.format = r.has_alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels;
  const void* source = r.rgba.data();
  if (!r.has_alpha) {
    pixels.reserve(r.rgba.size() / 4 * 3);
    for (size_t i = 0; i < r.rgba.size(); i += 4)
      pixels.insert(pixels.end(), r.rgba.begin() + static_cast<std::ptrdiff_t>(i),
                    r.rgba.begin() + static_cast<std::ptrdiff_t>(i) + 3);
    source = pixels.data();
  }
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, source, 0, nullptr)) {
    failure_error(std::string("PNG encoding failed: ") + image.message);
  }
  std::string out(size, '\0');
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, source, 0, nullptr)) {
    failure_error(std::string("PNG encoding failed: ") + image.message);
  }
  out.resize(size);
  return out;
}

}  // namespace csift
