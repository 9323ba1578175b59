// tools/image: base64, the [Image #N] markers and their zip with a record's images, and the codecs (each
// format's encoder output read back by its decoder with the right dimensions).
#include <doctest/doctest.h>

#include "core/harness/claude_code/image_handles.h"
#include "core/harness/claude_code/record_parser.h"
#include "tools/image/base64.h"
#include "tools/image/image_codec.h"

namespace image_unit {

using namespace csift;

namespace {

Record parse(const std::string& line) {
  RecordParser p;
  Record r;
  REQUIRE(p.parse(line, r) == ParseStatus::ok);
  return r;
}

Raster gradient(int w, int h, bool alpha) {
  Raster r;
  r.width = w;
  r.height = h;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      r.rgba.insert(r.rgba.end(),
                    {static_cast<uint8_t>(x * 13), static_cast<uint8_t>(y * 17),
                     static_cast<uint8_t>((x + y) * 5), static_cast<uint8_t>(alpha ? x * 20 : 255)});
  note_alpha(r);
  return r;
}

}  // namespace

TEST_CASE("base64: round trips every length, refuses what is not base64") {
  std::string bytes;
  for (int n = 0; n < 70; ++n) {
    std::string err;
    const auto back = base64_decode(base64_encode(bytes), err);
    REQUIRE(back.has_value());
    CHECK(*back == bytes);
    bytes += static_cast<char>(n * 37);
  }
  std::string err;
  CHECK(base64_decode("aGVsbG8=", err) == std::optional<std::string>("hello"));
  CHECK(base64_decode("aGVsbG8", err) == std::optional<std::string>("hello"));
  CHECK_FALSE(base64_decode("[trimmed for fixture]", err).has_value());
  CHECK(err.find("not base64") != std::string::npos);
  CHECK_FALSE(base64_decode("aGVsb", err).has_value());     // one stray character
  CHECK_FALSE(base64_decode("aGVs=bG8", err).has_value());  // data after padding
}

TEST_CASE("image markers: [Image #N] numbers in order, nothing else") {
  CHECK(image_markers("[Image #3] and [Image #12]; [Image #] [Image #x] [image #4]") ==
        std::vector<int64_t>{3, 12});
}

TEST_CASE("record_images: markers zip with direct images; tool-result images and mismatches get no handle") {
  const std::string img =
      R"({"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0K"}})";
  Record two = parse(R"({"type":"user","message":{"role":"user","content":[)" + img + "," + img +
                     R"(,{"type":"text","text":"[Image #4] vs [Image #7]"}]}})");
  auto images = record_images(two);
  REQUIRE(images.size() == 2);
  CHECK(images[0].handle == 4);
  CHECK(images[1].handle == 7);
  CHECK(images[0].ref->media_type == "image/png");
  CHECK(images[0].ref->data_length == 8);
  CHECK(image_handle_zone(images, 5) == " [2 image(s): #4, #7]");

  Record pasted =
      parse(R"({"type":"user","imagePasteIds":[2],"message":{"role":"user","content":[)" + img + "]}}");
  CHECK(record_images(pasted).at(0).handle == 2);

  Record mismatch = parse(R"({"type":"user","message":{"role":"user","content":[)" + img + "," + img +
                          R"(,{"type":"text","text":"[Image #1] only one marker"}]}})");
  images = record_images(mismatch);
  CHECK_FALSE(images[0].handle.has_value());
  CHECK(image_handle_zone(images, 9) == " [2 image(s): L9i1, L9i2]");

  Record shot =
      parse(R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t",)"
            R"("content":[{"type":"text","text":"[Image #1]"},)" +
            img + "]}]}}");
  images = record_images(shot);
  REQUIRE(images.size() == 1);
  CHECK(images[0].in_tool_result);
  CHECK_FALSE(images[0].handle.has_value());
}

TEST_CASE("codecs: each encoder's output is read back by its decoder with the same dimensions") {
  for (const bool alpha : {false, true}) {
    const Raster src = gradient(23, 11, alpha);
    for (const ImageFormat f : {ImageFormat::png, ImageFormat::jpeg, ImageFormat::gif, ImageFormat::webp}) {
      CAPTURE(extension_of(f));
      const std::string bytes = encode_image(src, f);
      CHECK(sniff_format(bytes) == f);
      const Raster back = decode_image(bytes, f);
      CHECK(back.width == 23);
      CHECK(back.height == 11);
      if (f == ImageFormat::png) CHECK(back.rgba == src.rgba);  // lossless
    }
  }
  CHECK_THROWS(decode_image("not an image", ImageFormat::png));
  CHECK_THROWS(decode_image("\xFF\xD8\xFF junk", ImageFormat::jpeg));
  CHECK_THROWS(decode_image("GIF89a junk", ImageFormat::gif));
  CHECK_THROWS(decode_image("RIFF....WEBPjunk", ImageFormat::webp));
  // A GIF whose DGifSlurp fails with error code 0, for which giflib has no text (a null pointer appended to
  // the message crashed; tests/fuzz, image: regressions/image/gif-slurp-fails-without-a-code).
  std::string error;
  const auto gif = base64_decode("R0lGODlhAgACAIAAAAAAAP///yH5BAAAAAAALAAAAIAAACAAAAIChFEAOw==", error);
  REQUIRE(gif);
  CHECK_THROWS_WITH(decode_image(*gif, ImageFormat::gif), "not a readable GIF: giflib gave no reason");
  // A logical screen 514 wide and 0 high around a 2x2 frame: giflib reads it, and the raster was empty
  // (tests/fuzz, image: regressions/image/gif-logical-screen-of-zero-height).
  const auto flat = base64_decode("R0lGODlhAgIAAIAAAAAAAP///yH5BAAAAAAALAAAAFgCAAIAAAIChFEAOw==", error);
  REQUIRE(flat);
  CHECK_THROWS_WITH(decode_image(*flat, ImageFormat::gif),
                    "not a readable GIF: its logical screen is 514x0 pixels");
}

namespace {

void put_u16(std::string& b, size_t at, unsigned v, bool big_endian) {
  b[at + (big_endian ? 1 : 0)] = static_cast<char>(v & 0xFF);
  b[at + (big_endian ? 0 : 1)] = static_cast<char>(v >> 8);
}

uint32_t crc32_of(std::string_view bytes) {  // PNG's chunk CRC (ISO 3309), bit by bit
  uint32_t crc = 0xFFFFFFFFu;
  for (const char c : bytes) {
    crc ^= static_cast<uint8_t>(c);
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// A small image of format f whose header is rewritten to declare width x height (and, for PNG, the IHDR CRC
// recomputed, as libpng checks it before it reports the size).
std::string declaring(ImageFormat f, unsigned width, unsigned height) {
  std::string b = encode_image(gradient(4, 3, false), f);
  if (f == ImageFormat::png) {
    const size_t ihdr = b.find("IHDR");
    for (int k = 0; k < 4; ++k) {
      b[ihdr + 4 + k] = static_cast<char>(width >> (24 - 8 * k));
      b[ihdr + 8 + k] = static_cast<char>(height >> (24 - 8 * k));
    }
    const uint32_t crc = crc32_of(std::string_view(b).substr(ihdr, 17));
    for (int k = 0; k < 4; ++k)
      b[ihdr + 17 + k] = static_cast<char>(crc >> (24 - 8 * k));
  } else if (f == ImageFormat::jpeg) {
    const size_t sof = b.find("\xFF\xC0");
    put_u16(b, sof + 5, height, true), put_u16(b, sof + 7, width, true);
  } else if (f == ImageFormat::webp) {
    const size_t start = b.find("\x9D\x01\x2A");
    put_u16(b, start + 3, width, false), put_u16(b, start + 5, height, false);
  } else {
    put_u16(b, 6, width, false), put_u16(b, 8, height, false);
  }
  return b;
}

}  // namespace

TEST_CASE("codecs: a declared size over the raster limit is refused before anything is allocated") {
  // The fuzz find: a 40-byte GIF declaring a 65535x65535 screen made decode_gif allocate 17 GB.
  const struct {
    ImageFormat format;
    unsigned width, height;
    const char* message;
  } cases[] = {
      {ImageFormat::gif, 65535, 65535,
       "not decoded: the GIF declares 65535x65535 pixels, over the 50 million"},
      {ImageFormat::png, 100000, 100000,
       "not decoded: the PNG declares 100000x100000 pixels, over the 50 million"},
      {ImageFormat::jpeg, 60000, 60000,
       "not decoded: the JPEG declares 60000x60000 pixels, over the 50 million"},
      {ImageFormat::webp, 16383, 16383,
       "not decoded: the WebP image declares 16383x16383 pixels, over the 50 million"},
  };
  for (const auto& c : cases) {
    CAPTURE(extension_of(c.format));
    const std::string bytes = declaring(c.format, c.width, c.height);
    CHECK_THROWS_WITH(decode_image(bytes, c.format), doctest::Contains(c.message));
    // One pixel under the limit on a side passes the check and fails (or not) on the data, not the size.
    const std::string fits = declaring(c.format, 7000, 7000);
    try {
      (void)decode_image(fits, c.format);
    } catch (const std::exception& e) {
      CHECK(std::string(e.what()).find("not decoded") == std::string::npos);
    }
  }
  // GIF frames are allocated by giflib from their descriptors before their data is read: one frame over the
  // limit inside a screen that fits, and five 7000x7000 frames after the 4x3 one (245,000,012 pixels), are
  // refused.
  std::string gif = declaring(ImageFormat::gif, 7000, 7000);
  const size_t frame = gif.find(',');  // the image separator 0x2C
  REQUIRE(frame != std::string::npos);
  std::string wide = gif;
  put_u16(wide, frame + 5, 60000, false), put_u16(wide, frame + 7, 1000, false);
  CHECK_THROWS_WITH(decode_image(wide, ImageFormat::gif),
                    doctest::Contains("the GIF frame declares 60000x1000 pixels"));
  std::string many = gif.substr(0, gif.size() - 1);  // without the trailer
  std::string big_frame = gif.substr(frame, gif.size() - 1 - frame);
  put_u16(big_frame, 5, 7000, false), put_u16(big_frame, 7, 7000, false);
  for (int i = 0; i < 5; ++i)
    many += big_frame;
  many += ';';
  CHECK_THROWS_WITH(
      decode_image(many, ImageFormat::gif),
      doctest::Contains("the GIF's frames declare 245000012 pixels together, over the 200 million"));
}

TEST_CASE("codecs: formats by media type and extension") {
  CHECK(format_of_media_type("image/jpeg") == ImageFormat::jpeg);
  CHECK(format_of_media_type("image/heic") == ImageFormat::unknown);
  CHECK(format_of_extension("JPEG") == ImageFormat::jpeg);
  CHECK(format_of_extension("md") == ImageFormat::unknown);
  CHECK(std::string(extension_of(ImageFormat::jpeg)) == "jpg");
}

}  // namespace image_unit
