#include "core/scan/line_index.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {
namespace {

constexpr size_t kIndexReadBytes = 256 * 1024;

// Counts the newlines of [index.end, EOF) into `index`, noting each line start the stride asks for.
void count_from_end(const std::string& path, LineIndex& index, const CancelToken* cancel) {
  const FileHandle file(path);
  if (file.fd < 0) {
    index.error = "cannot open " + path + ": " + std::strerror(errno);
    return;
  }
  thread_local std::unique_ptr<char[]> buf(new char[kIndexReadBytes]);
  uint64_t at = index.end;
  while (true) {
    if (cancel && cancel->is_cancelled()) {
      index.error = "cancelled";
      return;
    }
    const ssize_t got = pread_upto(file.fd, buf.get(), kIndexReadBytes, at);
    if (got < 0) {
      index.error = "cannot read " + path + ": " + std::strerror(errno);
      return;
    }
    if (got == 0) break;
    const auto n = static_cast<size_t>(got);
    const uint64_t newlines = count_newlines(buf.get(), n);
    // The block holds the start of line k * stride + 1 when it ends line k * stride: walk to that newline.
    const uint64_t next_indexed = index.starts.size() * index.stride;  // the line whose end starts the next
    if (index.complete_lines + newlines >= next_indexed) {
      uint64_t line = index.complete_lines;
      for (size_t pos = 0; pos < n;) {
        const void* nl = std::memchr(buf.get() + pos, '\n', n - pos);
        if (!nl) break;
        pos = static_cast<size_t>(static_cast<const char*>(nl) - buf.get()) + 1;
        if (++line % index.stride == 0) index.starts.push_back(at + pos);
      }
    }
    index.complete_lines += newlines;
    if (newlines) {
      const void* last = memrchr(buf.get(), '\n', n);
      index.end = at + static_cast<uint64_t>(static_cast<const char*>(last) - buf.get()) + 1;
    }
    at += n;
  }
  index.size = at;
}

}  // namespace

LineIndex::Start LineIndex::start_at_or_before(uint64_t line) const {
  if (line <= 1 || starts.empty()) return Start{};
  const uint64_t k = std::min<uint64_t>((line - 1) / stride, starts.size() - 1);
  return Start{starts[k], k * stride + 1};
}

LineIndex index_lines(const std::string& path, const CancelToken* cancel, uint64_t stride) {
  LineIndex index;
  index.stride = stride ? stride : kLineIndexStride;
  index.starts.push_back(0);
  count_from_end(path, index, cancel);
  return index;
}

LineIndex extend_line_index(const std::string& path, const LineIndex& was, const CancelToken* cancel) {
  LineIndex index = was;
  index.error.clear();
  if (!line_ends_at(path, was.end)) {
    index.error = "the line ending the indexed part is gone: " + path + " was rewritten";
    return index;
  }
  count_from_end(path, index, cancel);
  return index;
}

}  // namespace csift
