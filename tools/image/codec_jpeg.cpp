// JPEG through libjpeg-turbo's libjpeg API in memory (jpeg_mem_src / jpeg_mem_dest). libjpeg reports errors
// by calling error_exit, which must not return: it longjmps back here, and the functions that call setjmp
// hold no object with a destructor between the setjmp and the jump.
#include <csetjmp>
#include <cstdio>  // jpeglib.h needs FILE
#include <cstdlib>
#include <cstring>

#include <jpeglib.h>

#include "core/base/error.h"
#include "tools/image/image_codec.h"

namespace csift {
namespace {

struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void on_error(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegError*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Decodes into `out` (sized by the caller from the header pass); false with err->message on failure.
bool decode_into(const unsigned char* data, unsigned long size, Raster* out, JpegError* err) {
  jpeg_decompress_struct cinfo;
  cinfo.err = jpeg_std_error(&err->mgr);
  err->mgr.error_exit = on_error;
  if (setjmp(err->jump)) {
    jpeg_destroy_decompress(&cinfo);
    return false;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  if (static_cast<uint64_t>(cinfo.image_width) * cinfo.image_height > kMaxRasterPixels) {
    out->width = static_cast<int>(cinfo.image_width);  // the caller refuses it: no throw across setjmp
    out->height = static_cast<int>(cinfo.image_height);
    jpeg_destroy_decompress(&cinfo);
    return true;
  }
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  out->width = static_cast<int>(cinfo.output_width);
  out->height = static_cast<int>(cinfo.output_height);
  out->rgba.resize(static_cast<size_t>(out->width) * static_cast<size_t>(out->height) * 4);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = out->rgba.data() + static_cast<size_t>(cinfo.output_scanline) * out->width * 4;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return true;
}

// Encodes `rgb` (3 bytes a pixel); the result is malloc'd by libjpeg into *buffer.
bool encode_into(const uint8_t* rgb, int width, int height, int quality, unsigned char** buffer,
                 unsigned long* size, JpegError* err) {
  jpeg_compress_struct cinfo;
  cinfo.err = jpeg_std_error(&err->mgr);
  err->mgr.error_exit = on_error;
  if (setjmp(err->jump)) {
    jpeg_destroy_compress(&cinfo);
    return false;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, buffer, size);
  cinfo.image_width = static_cast<JDIMENSION>(width);
  cinfo.image_height = static_cast<JDIMENSION>(height);
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(rgb) + static_cast<size_t>(cinfo.next_scanline) * width * 3;
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  return true;
}

}  // namespace

Raster decode_jpeg(std::string_view bytes) {
  Raster r;
  JpegError err{};
  if (!decode_into(reinterpret_cast<const unsigned char*>(bytes.data()),
                   static_cast<unsigned long>(bytes.size()), &r, &err)) {
    failure_error(std::string("not a readable JPEG: ") + err.message);
  }
  check_raster_size("JPEG", static_cast<uint64_t>(r.width), static_cast<uint64_t>(r.height));
  r.has_alpha = false;
  return r;
}

// JPEG has no alpha: a translucent pixel is composited over white.
std::string encode_jpeg(const Raster& r, int quality) {
  std::vector<uint8_t> rgb(static_cast<size_t>(r.width) * static_cast<size_t>(r.height) * 3);
  for (size_t p = 0, q = 0; p + 3 < r.rgba.size(); p += 4, q += 3) {
    const unsigned a = r.rgba[p + 3];
    for (int c = 0; c < 3; ++c)
      rgb[q + c] = static_cast<uint8_t>((r.rgba[p + c] * a + 255 * (255 - a) + 127) / 255);
  }
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  JpegError err{};
  const bool ok = encode_into(rgb.data(), r.width, r.height, quality, &buffer, &size, &err);
  std::string out = ok && buffer ? std::string(reinterpret_cast<char*>(buffer), size) : std::string();
  std::free(buffer);
  if (!ok) failure_error(std::string("JPEG encoding failed: ") + err.message);
  return out;
}

}  // namespace csift
