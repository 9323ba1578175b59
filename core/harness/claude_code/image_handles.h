// The images one record carries, in `L<line>i<n>` order, with the `#N` handle Claude Code showed the model
// for each (the `[Image #N]` paste markers, SPEC.md §9.9). Shared by image (its listing), search and show
// (the hit suffix `[2 image(s): #3, #4]`) and verbatim (under a restored user turn). Here with Claude Code's
// rules: the markers and the imagePasteIds fallback are Claude Code's.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record/record.h"

namespace csift {

struct RecordImage {
  const ImageRef* ref = nullptr;
  int ordinal = 0;                // 1-based among the record's images, in document order (the `i<n>`)
  std::optional<int64_t> handle;  // the `#N` the model saw; nullopt when it cannot be known for sure
  bool in_tool_result = false;    // nested in a tool_result's content (a tool's screenshot)
};

// The `[Image #N]` numbers in a text, in order of appearance.
std::vector<int64_t> image_markers(std::string_view text);

// Every image of `r`: direct image blocks and images nested in tool_result content, in document order.
// Handles: the record's `[Image #N]` markers zipped in order with its direct image blocks when the counts
// agree, else Claude Code's imagePasteIds when that count agrees; otherwise none (never a guess). Images
// inside tool results never have one.
std::vector<RecordImage> record_images(const Record& r);

// `L<line>i<n>`.
std::string image_locator(uint64_t line, int ordinal);
// A handle as shown (`#3`), or the locator when the handle is unknown.
std::string image_address(const RecordImage& img, uint64_t line);
// ` [2 image(s): #3, #4]` for `images` of the record at `line` ("" when there are none).
std::string image_handle_zone(const std::vector<RecordImage>& images, uint64_t line);

}  // namespace csift
