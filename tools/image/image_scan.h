// Finds every image one transcript carries inline (SPEC.md §9.9): direct image blocks of user records and
// images nested in tool_result content, each with its `L<line>i<n>` locator, `#N` handle, turn and time.
// Only lines naming "image" and possible turn openers are parsed; the payloads stay in the file.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/record/record.h"
#include "core/store/store.h"

namespace csift {

struct ImageOccurrence {
  size_t transcript = 0;  // index of the owning transcript in the scope
  uint64_t line = 0;
  uint64_t record_offset = 0, record_length = 0;  // the carrying line, to read the payload back
  bool text_repaired = false;                     // the data span is relative to the repaired copy
  std::string uuid, timestamp;
  int turn_index = -1;
  int ordinal = 0;
  std::optional<int64_t> handle;
  bool in_tool_result = false;
  ImageRef ref;
  std::string context;     // one line of the record's text around its `[Image #N]` marker (ambiguity lists)
  size_t occurrences = 1;  // how many times this content appears (the listing keeps the latest)
};

struct TranscriptImages {
  std::vector<ImageOccurrence> images;  // file order
  int turn_count = 0;
  uint64_t skipped_lines = 0;
  std::string error;  // the file could not be read
};

TranscriptImages scan_images(const Transcript& t, size_t index, const CancelToken* cancel);

// Whether two occurrences carry the same content (same base64 length and hash, or the same url).
bool same_image_content(const ImageOccurrence& a, const ImageOccurrence& b);

// One occurrence per content, the latest kept (its `occurrences` counts the folded ones); order kept.
std::vector<ImageOccurrence> dedup_by_content(const std::vector<ImageOccurrence>& all);

}  // namespace csift
