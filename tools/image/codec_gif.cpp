// GIF through giflib: DGifSlurp reads every frame (the raster is the first, composited on the logical screen;
// the frame count and total delay are reported); writing quantizes to a 256-colour median-cut palette
// (GifQuantizeBuffer) and maps pixels to it with Floyd–Steinberg error diffusion.
#include <gif_lib.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/base/error.h"
#include "tools/image/image_codec.h"

namespace csift {
namespace {

struct Reader {
  std::string_view bytes;
  size_t at = 0;
};

int read_memory(GifFileType* gif, GifByteType* buf, int len) {
  auto* r = static_cast<Reader*>(gif->UserData);
  const size_t n = std::min(static_cast<size_t>(len), r->bytes.size() - r->at);
  std::memcpy(buf, r->bytes.data() + r->at, n);
  r->at += n;
  return static_cast<int>(n);
}

int write_memory(GifFileType* gif, const GifByteType* buf, int len) {
  static_cast<std::string*>(gif->UserData)
      ->append(reinterpret_cast<const char*>(buf), static_cast<size_t>(len));
  return len;
}

// giflib's text for an error code. It has none (a null pointer) for a code it does not know, and DGifSlurp
// can fail leaving the code 0, as on an image descriptor wider than the logical screen's 16-bit arithmetic
// allows (the fuzz find: the null was appended to the message).
std::string gif_error_text(int code) {
  if (const char* text = GifErrorString(code)) return text;
  return code == 0 ? "giflib gave no reason" : "giflib error " + std::to_string(code);
}

struct GifCloser {
  void operator()(GifFileType* g) const {
    int err = 0;
    DGifCloseFile(g, &err);
  }
};

// The raster is the logical screen, which giflib reads as given: a 0 width or height (DGifSlurp takes a
// frame outside it) would make an empty raster that encoders and callers take for an image (the fuzz find).
void check_screen(const GifFileType* gif) {
  if (gif->SWidth > 0 && gif->SHeight > 0) return;
  failure_error("not a readable GIF: its logical screen is " + std::to_string(gif->SWidth) + "x" +
                std::to_string(gif->SHeight) + " pixels");
}

uint16_t u16_at(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | static_cast<uint8_t>(b[at + 1]) << 8);
}

// Skips a run of data sub-blocks (a length byte, that many bytes, until a 0 length) from `at`; npos past the
// end.
size_t skip_sub_blocks(std::string_view b, size_t at) {
  while (at < b.size() && b[at] != 0)
    at += 1 + static_cast<uint8_t>(b[at]);
  return at < b.size() ? at + 1 : std::string_view::npos;
}

// DGifSlurp allocates each frame's raster (a byte a pixel, up to 2 GB) from its descriptor before reading its
// data, and every frame stays in memory, so the frames' declared sizes are summed from the block structure
// before giflib sees the bytes: over four rasters' worth of pixels is refused. A walk that meets a block it
// does not know stops there and leaves the error to giflib.
void check_frame_sizes(std::string_view b) {
  if (b.size() < 13) return;
  size_t at = 13;
  if (b[10] & 0x80) at += 3u << ((b[10] & 7) + 1);  // the global colour table
  uint64_t pixels = 0;
  while (at != std::string_view::npos && at + 1 < b.size()) {
    const uint8_t block = static_cast<uint8_t>(b[at]);
    if (block == 0x21) {
      at = skip_sub_blocks(b, at + 2);
    } else if (block == 0x2C && at + 10 <= b.size()) {
      const uint64_t w = u16_at(b, at + 5), h = u16_at(b, at + 7);
      check_raster_size("GIF frame", w, h);
      pixels += w * h;
      if (pixels > 4 * kMaxRasterPixels) {
        failure_error("not decoded: the GIF's frames declare " + std::to_string(pixels) +
                      " pixels together, over the " + std::to_string(4 * kMaxRasterPixels / 1'000'000) +
                      " million its frames may hold; extract it in its own format (no conversion) instead");
      }
      const uint8_t packed = static_cast<uint8_t>(b[at + 9]);
      at += 10 + ((packed & 0x80) ? 3u << ((packed & 7) + 1) : 0) + 1;  // + local table + LZW code size
      at = skip_sub_blocks(b, at);
    } else {
      return;
    }
  }
}

void paint_first_frame(GifFileType* gif, Raster& r) {
  const SavedImage& frame = gif->SavedImages[0];
  const ColorMapObject* map = frame.ImageDesc.ColorMap ? frame.ImageDesc.ColorMap : gif->SColorMap;
  if (!map) failure_error("not a readable GIF: no colour map");
  GraphicsControlBlock gcb{};
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  DGifSavedExtensionToGCB(gif, 0, &gcb);
  const GifImageDesc& d = frame.ImageDesc;
  for (int y = 0; y < d.Height; ++y) {
    for (int x = 0; x < d.Width; ++x) {
      const int cx = d.Left + x, cy = d.Top + y;
      if (cx < 0 || cy < 0 || cx >= r.width || cy >= r.height) continue;
      const int index = frame.RasterBits[static_cast<size_t>(y) * d.Width + x];
      if (index == gcb.TransparentColor || index >= map->ColorCount) continue;
      uint8_t* px = &r.rgba[(static_cast<size_t>(cy) * r.width + cx) * 4];
      px[0] = map->Colors[index].Red;
      px[1] = map->Colors[index].Green;
      px[2] = map->Colors[index].Blue;
      px[3] = 255;
    }
  }
}

}  // namespace

Raster decode_gif(std::string_view bytes) {
  Reader reader{bytes, 0};
  int err = 0;
  std::unique_ptr<GifFileType, GifCloser> gif(DGifOpen(&reader, read_memory, &err));
  if (!gif) failure_error("not a readable GIF: " + gif_error_text(err));
  check_raster_size("GIF", static_cast<uint64_t>(gif->SWidth), static_cast<uint64_t>(gif->SHeight));
  check_frame_sizes(bytes);
  if (DGifSlurp(gif.get()) != GIF_OK || gif->ImageCount < 1) {
    failure_error("not a readable GIF: " + gif_error_text(gif->Error));
  }
  check_screen(gif.get());
  Raster r;
  r.width = gif->SWidth;
  r.height = gif->SHeight;
  r.rgba.assign(static_cast<size_t>(r.width) * static_cast<size_t>(r.height) * 4, 0);
  paint_first_frame(gif.get(), r);
  r.frames = gif->ImageCount;
  for (int i = 0; i < gif->ImageCount; ++i) {
    GraphicsControlBlock gcb{};
    if (DGifSavedExtensionToGCB(gif.get(), i, &gcb) == GIF_OK) r.duration_ms += gcb.DelayTime * 10;
  }
  note_alpha(r);
  return r;
}

namespace {

// The nearest palette entry by squared RGB distance.
int nearest(const GifColorType* colors, int count, int red, int green, int blue) {
  int best = 0;
  long best_d = -1;
  for (int i = 0; i < count; ++i) {
    const long dr = red - colors[i].Red, dg = green - colors[i].Green, db = blue - colors[i].Blue;
    const long d = dr * dr + dg * dg + db * db;
    if (best_d < 0 || d < best_d) best = i, best_d = d;
    if (d == 0) break;
  }
  return best;
}

// Floyd–Steinberg: each pixel's quantization error goes 7/16 right, 3/16 down-left, 5/16 down, 1/16
// down-right. Images under 2 pixels on a side are mapped without diffusion.
std::vector<GifByteType> dither(const Raster& r, const GifColorType* colors, int count) {
  const int w = r.width, h = r.height;
  std::vector<float> err(static_cast<size_t>(w) * h * 3, 0.0f);
  std::vector<GifByteType> out(static_cast<size_t>(w) * h);
  const bool diffuse = w >= 2 && h >= 2;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const size_t p = static_cast<size_t>(y) * w + x;
      int c[3];
      for (int k = 0; k < 3; ++k)
        c[k] = std::clamp(static_cast<int>(r.rgba[p * 4 + k] + err[p * 3 + k] + 0.5f), 0, 255);
      const int index = nearest(colors, count, c[0], c[1], c[2]);
      out[p] = static_cast<GifByteType>(index);
      if (!diffuse) continue;
      const int q[3] = {colors[index].Red, colors[index].Green, colors[index].Blue};
      auto spread = [&](int dx, int dy, float share) {
        const int nx = x + dx, ny = y + dy;
        if (nx < 0 || nx >= w || ny >= h) return;
        const size_t n = static_cast<size_t>(ny) * w + nx;
        for (int k = 0; k < 3; ++k)
          err[n * 3 + k] += static_cast<float>(c[k] - q[k]) * share;
      };
      spread(1, 0, 7.0f / 16), spread(-1, 1, 3.0f / 16), spread(0, 1, 5.0f / 16), spread(1, 1, 1.0f / 16);
    }
  }
  return out;
}

}  // namespace

std::string encode_gif(const Raster& r) {
  const size_t n = static_cast<size_t>(r.width) * static_cast<size_t>(r.height);
  std::vector<GifByteType> red(n), green(n), blue(n), ignored(n);
  for (size_t p = 0; p < n; ++p) {
    const unsigned a = r.rgba[p * 4 + 3];  // translucent pixels are composited over white
    red[p] = static_cast<GifByteType>((r.rgba[p * 4] * a + 255 * (255 - a) + 127) / 255);
    green[p] = static_cast<GifByteType>((r.rgba[p * 4 + 1] * a + 255 * (255 - a) + 127) / 255);
    blue[p] = static_cast<GifByteType>((r.rgba[p * 4 + 2] * a + 255 * (255 - a) + 127) / 255);
  }
  int palette_size = 256;
  GifColorType palette[256]{};
  if (GifQuantizeBuffer(static_cast<unsigned>(r.width), static_cast<unsigned>(r.height), &palette_size,
                        red.data(), green.data(), blue.data(), ignored.data(), palette) != GIF_OK) {
    failure_error("GIF palette quantization failed");
  }
  Raster flat = r;
  for (size_t p = 0; p < n; ++p)
    flat.rgba[p * 4] = red[p], flat.rgba[p * 4 + 1] = green[p], flat.rgba[p * 4 + 2] = blue[p];
  std::vector<GifByteType> indices = dither(flat, palette, 256);

  std::string out;
  int err = 0;
  GifFileType* gif = EGifOpen(&out, write_memory, &err);
  if (!gif) failure_error(std::string("GIF encoding failed: ") + GifErrorString(err));
  ColorMapObject* map = GifMakeMapObject(256, palette);
  bool ok = map && EGifPutScreenDesc(gif, r.width, r.height, 8, 0, map) == GIF_OK &&
            EGifPutImageDesc(gif, 0, 0, r.width, r.height, false, nullptr) == GIF_OK;
  for (int y = 0; ok && y < r.height; ++y)
    ok = EGifPutLine(gif, indices.data() + static_cast<size_t>(y) * r.width, r.width) == GIF_OK;
  const int put_error = gif->Error;
  GifFreeMapObject(map);
  const bool closed = EGifCloseFile(gif, &err) == GIF_OK;
  if (!ok || !closed)
    failure_error(std::string("GIF encoding failed: ") + GifErrorString(ok ? err : put_error));
  return out;
}

}  // namespace csift
