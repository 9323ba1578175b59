// LineIndex: how many physical lines a file has and where every kLineIndexStride-th one starts, from one
// SIMD newline count over its bytes. `show` addresses lines from the end (`-20..`) and reads from the first
// addressed line: with the index, the count is one pass at memory speed instead of a callback per line, and
// the read starts at the nearest indexed line instead of the file's first byte. An index extends over bytes
// appended since it was made, so a server that remembers one re-reads only what a live transcript grew by.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/cancel.h"

namespace csift {

inline constexpr uint64_t kLineIndexStride = 4096;

struct LineIndex {
  uint64_t stride = kLineIndexStride;
  uint64_t complete_lines = 0;   // lines ending in '\n'
  uint64_t end = 0;              // the offset just past the last '\n': where an extension resumes
  uint64_t size = 0;             // the file's size when indexed; above `end` when it ends in a torn line
  std::vector<uint64_t> starts;  // starts[k]: the offset of line k * stride + 1 (starts[0] == 0)
  std::string error;             // the file could not be read (the counts then cover what was read)

  // Physical lines, a torn final line included (what a raw read delivers).
  uint64_t lines() const { return complete_lines + (size > end ? 1 : 0); }
  struct Start {
    uint64_t offset = 0, line = 1;
  };
  // The indexed line start at or before `line` (1-based).
  Start start_at_or_before(uint64_t line) const;
};

// Indexes the file at `path` from its first byte.
LineIndex index_lines(const std::string& path, const CancelToken* cancel, uint64_t stride = kLineIndexStride);
// Extends `was`, an index of the same file when it was shorter, over the bytes appended since. Checks that
// the byte before `was.end` is still a newline; the caller checks the file is the same one (device, inode,
// first line).
LineIndex extend_line_index(const std::string& path, const LineIndex& was, const CancelToken* cancel);

}  // namespace csift
