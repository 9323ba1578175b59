// Image formats and the Debian codec libraries behind them (README.md "Build and dependencies"): libpng,
// libjpeg-turbo, giflib and libwebp decode a payload to 8-bit RGBA and encode RGBA back. Only `image`'s
// conversions use them; extraction in the source format writes the decoded base64 bytes untouched.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csift {

enum class ImageFormat { png, jpeg, gif, webp, unknown };

ImageFormat format_of_media_type(std::string_view media_type);  // image/png, image/jpeg, ...
ImageFormat format_of_extension(std::string_view ext);          // png, jpg, jpeg, gif, webp (any case)
ImageFormat sniff_format(std::string_view bytes);               // by the file signature
const char* media_type_of(ImageFormat f);                       // "" for unknown
const char* extension_of(ImageFormat f);                        // "png", "jpg", ... ("bin" for unknown)

struct Raster {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4
  int frames = 1;             // an animated GIF's frame count (the raster is its first frame)
  int duration_ms = 0;        // an animated GIF's total duration
  bool has_alpha = false;     // some pixel is not opaque
};

// Throws ToolError(failure) when the bytes are not a readable image of that format.
Raster decode_image(std::string_view bytes, ImageFormat f);
// Encodes (png lossless; jpeg and webp at quality 90; gif: a 256-colour median-cut palette with
// Floyd–Steinberg dithering). Throws ToolError(failure) on an encoder failure.
std::string encode_image(const Raster& r, ImageFormat f);

// Per-format halves (tools/image/codec_<format>.cpp).
Raster decode_png(std::string_view bytes);
std::string encode_png(const Raster& r);
Raster decode_jpeg(std::string_view bytes);
std::string encode_jpeg(const Raster& r, int quality);
Raster decode_gif(std::string_view bytes);
std::string encode_gif(const Raster& r);
Raster decode_webp(std::string_view bytes);
std::string encode_webp(const Raster& r, float quality);

// Sets has_alpha from the pixels.
void note_alpha(Raster& r);

// The largest raster a decoder makes: 50 million pixels (200 MB as RGBA; an 8000x6000 screenshot fits, and
// the Messages API refuses images over 8000 pixels on a side). A header can declare far more (a 40-byte GIF
// says 65535x65535, 17 GB) than its bytes hold, so each decoder checks the declared size before it
// allocates.
inline constexpr uint64_t kMaxRasterPixels = 50'000'000;
// Throws ToolError(failure) naming the size and the limit when width x height is over kMaxRasterPixels.
void check_raster_size(const char* format, uint64_t width, uint64_t height);

}  // namespace csift
