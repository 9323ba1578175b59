#include "core/harness/claude_code/image_handles.h"

#include "core/harness/claude_code/claude_fields.h"

namespace csift {
namespace {

constexpr std::string_view kMarkerOpen = "[Image #";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The text the user typed around the pastes: string content, or the text blocks joined.
std::vector<int64_t> record_markers(const Record& r) {
  std::vector<int64_t> out;
  auto add = [&out](std::string_view text) {
    for (int64_t n : image_markers(text))
      out.push_back(n);
  };
  if (!r.content_text.empty()) add(r.content_text);
  if (r.message.content_is_string) add(r.message.content_string);
  for (const Block& b : r.message.blocks) {
    if (b.kind == BlockKind::text) add(b.text);
  }
  return out;
}

}  // namespace

std::vector<int64_t> image_markers(std::string_view text) {
  std::vector<int64_t> out;
  for (size_t at = text.find(kMarkerOpen); at != std::string_view::npos;
       at = text.find(kMarkerOpen, at + 1)) {
    size_t i = at + kMarkerOpen.size();
    int64_t n = 0;
    size_t digits = 0;
    while (i < text.size() && is_digit(text[i]) && digits < 12) {
      n = n * 10 + (text[i] - '0');
      ++i, ++digits;
    }
    if (digits > 0 && i < text.size() && text[i] == ']') out.push_back(n);
  }
  return out;
}

std::vector<RecordImage> record_images(const Record& r) {
  std::vector<RecordImage> out;
  size_t direct = 0;
  for (const Block& b : r.message.blocks) {
    for (const ImageRef& ref : b.images) {
      const bool nested = b.kind == BlockKind::tool_result;
      out.push_back(RecordImage{&ref, static_cast<int>(out.size()) + 1, std::nullopt, nested});
      direct += nested ? 0 : 1;
    }
  }
  if (direct == 0) return out;
  std::vector<int64_t> handles = record_markers(r);
  if (handles.size() != direct) handles = image_paste_ids(r);
  if (handles.size() != direct) return out;
  size_t k = 0;
  for (RecordImage& img : out) {
    if (!img.in_tool_result) img.handle = handles[k++];
  }
  return out;
}

std::string image_locator(uint64_t line, int ordinal) {
  return "L" + std::to_string(line) + "i" + std::to_string(ordinal);
}

std::string image_address(const RecordImage& img, uint64_t line) {
  return img.handle ? "#" + std::to_string(*img.handle) : image_locator(line, img.ordinal);
}

std::string image_handle_zone(const std::vector<RecordImage>& images, uint64_t line) {
  if (images.empty()) return "";
  std::string out = " [" + std::to_string(images.size()) + " image(s):";
  for (size_t k = 0; k < images.size(); ++k)
    out += (k ? ", " : " ") + image_address(images[k], line);
  return out + "]";
}

}  // namespace csift
