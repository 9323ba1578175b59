#include "tools/image/image_extract.h"

#include <filesystem>
#include <fstream>

#include "core/base/arg_ref.h"
#include "core/base/error.h"
#include "core/harness/claude_code/image_handles.h"
#include "tools/common/record_render.h"
#include "tools/common/write_destination.h"
#include "tools/image/image_codec.h"
#include "tools/image/image_payload.h"

namespace csift {
namespace fs = std::filesystem;
namespace {

void refuse_store_path(const fs::path& out, const Scope& scope) {
  const std::string refusal = store_write_refusal("out", out.string(), out, scope.claude_home);
  if (!refusal.empty()) usage_error(refusal);
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) failure_error("cannot write " + path.string());
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) failure_error("cannot write " + path.string());
}

ImageFormat source_format(const ImageOccurrence& o, const std::string& bytes) {
  const ImageFormat declared = format_of_media_type(o.ref.media_type);
  return declared != ImageFormat::unknown ? declared : sniff_format(bytes);
}

std::string auto_name(const ImageOccurrence& o, const Transcript& t, ImageFormat f) {
  std::string name = t.id.substr(0, 8);
  if (o.handle) name += "-img" + std::to_string(*o.handle);
  return name + "-" + image_locator(o.line, o.ordinal) + "." + extension_of(f);
}

json base_row(const ImageOccurrence& o, const Transcript& t) {
  json row = TranscriptIdentity::of(t).row("extract");
  row["handle"] = o.handle ? json(*o.handle) : json(nullptr);
  row["id"] = image_locator(o.line, o.ordinal);
  row["line"] = o.line;
  row["path"] = nullptr;
  row["bytes"] = nullptr;
  row["media_type"] = nullptr;
  row["source_media_type"] = string_or_null(o.ref.media_type);
  row["converted"] = false;
  row["width"] = nullptr;
  row["height"] = nullptr;
  row["notes"] = json::array();
  row["error"] = nullptr;
  return row;
}

// Converts `bytes` from `from` to `to`, recording the size and what the conversion cost in `row`.
std::string convert(const std::string& bytes, ImageFormat from, ImageFormat to, json& row) {
  Raster raster = decode_image(bytes, from);
  if (raster.frames > 1) {
    row["notes"].push_back("animated GIF (" + std::to_string(raster.frames) + " frames, " +
                           std::to_string(raster.duration_ms / 1000) + "." +
                           std::to_string(raster.duration_ms % 1000 / 100) +
                           "s): extracted the first frame only");
  }
  if (to == ImageFormat::jpeg) row["notes"].push_back("converted to JPEG at quality 90 (lossy)");
  if (to == ImageFormat::webp) row["notes"].push_back("converted to WebP at quality 90 (lossy)");
  if (to == ImageFormat::gif)
    row["notes"].push_back("converted to GIF: a 256-colour palette, Floyd-Steinberg dithered");
  if (raster.has_alpha && (to == ImageFormat::jpeg || to == ImageFormat::gif)) {
    row["notes"].push_back("transparency flattened onto white");
  }
  row["width"] = raster.width;
  row["height"] = raster.height;
  row["converted"] = true;
  return encode_image(raster, to);
}

json extract_one(const ImageOccurrence& o, const Transcript& t, const fs::path& dir, const fs::path& file,
                 ImageFormat wanted) {
  json row = base_row(o, t);
  if (o.ref.data_length == 0) {
    row["error"] =
        "no inline bytes" + (o.ref.url.empty() ? std::string() : " (a url image: " + o.ref.url + ")");
    return row;
  }
  try {
    const ImagePayload payload = read_image_payload(t, o);
    const ImageFormat from = source_format(o, payload.bytes);
    const ImageFormat sniffed = sniff_format(payload.bytes);
    if (sniffed != ImageFormat::unknown && sniffed != from) {
      row["notes"].push_back(std::string("the bytes are ") + media_type_of(sniffed) + ", not the declared " +
                             o.ref.media_type);
    }
    const ImageFormat to = wanted == ImageFormat::unknown ? from : wanted;
    std::string bytes = to == from ? payload.bytes : convert(payload.bytes, from, to, row);
    const fs::path path = file.empty() ? dir / auto_name(o, t, to) : file;
    write_file(path, bytes);
    row["path"] = path.string();
    row["bytes"] = bytes.size();
    row["media_type"] = string_or_null(media_type_of(to));
  } catch (const ToolError& e) {
    row["error"] = e.what();
  }
  return row;
}

}  // namespace

std::vector<json> extract_images(const std::vector<ImageOccurrence>& selected, const Scope& scope,
                                 const std::string& out) {
  const fs::path target = clean_absolute_path(out);
  refuse_store_path(target, scope);
  const ImageFormat wanted =
      format_of_extension(target.extension().string().substr(target.extension().empty() ? 0 : 1));
  std::vector<json> rows;
  if (wanted != ImageFormat::unknown) {
    if (selected.size() != 1) {
      usage_error(arg_ref("out") + " " + out + " is one file, but " + std::to_string(selected.size()) +
                  " images are selected: name one with " + arg_ref("id") + ", or give a directory");
    }
    std::error_code ec;
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    rows.push_back(
        extract_one(selected.front(), scope.transcripts[selected.front().transcript], {}, target, wanted));
    return rows;
  }
  std::error_code ec;
  fs::create_directories(target, ec);
  if (!fs::is_directory(target)) failure_error("cannot create the directory " + target.string());
  for (const auto& o : selected)
    rows.push_back(extract_one(o, scope.transcripts[o.transcript], target, {}, ImageFormat::unknown));
  return rows;
}

}  // namespace csift
