// Tail-first reading for `list` (spec §7b): chunks from EOF toward `floor_offset`, newest line first. The
// lowest fragment of each chunk is carried down until a lower chunk shows where its line starts.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/line_scanner.h"

namespace csift {

namespace {

constexpr uint64_t kFirstChunk = 64 * 1024;
constexpr uint64_t kMaxChunk = 1 << 20;

struct FileHandle {
  int fd = -1;
  explicit FileHandle(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~FileHandle() {
    if (fd >= 0) ::close(fd);
  }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
};

// Delivers the complete lines of data[from, data.size()) newest first; data ends with '\n' and data[from] is
// a line start at file offset base + from.
bool emit_backward(std::string_view data, size_t from, uint64_t base, const LineFn& fn, ScanStats& stats) {
  size_t line_end = data.size() - 1;  // index of the '\n' closing the current line
  while (true) {
    size_t start = from;
    if (line_end > from) {
      const void* prev = memrchr(data.data() + from, '\n', line_end - from);
      if (prev) start = static_cast<size_t>(static_cast<const char*>(prev) - data.data()) + 1;
    }
    size_t len = line_end - start;
    if (len > 0 && data[start + len - 1] == '\r') --len;
    ++stats.lines;
    if (!fn(LineView{data.substr(start, len), 0, base + start})) return false;
    if (start == from) return true;
    line_end = start - 1;
  }
}

}  // namespace

ScanStats scan_backward(const std::string& path, const LineFn& fn, uint64_t floor_offset) {
  ScanStats stats;
  FileHandle file(path);
  struct stat st {};
  if (file.fd < 0 || ::fstat(file.fd, &st) != 0) {
    stats.error = "cannot open " + path + ": " + std::strerror(errno);
    return stats;
  }
  const uint64_t size = static_cast<uint64_t>(std::max<off_t>(st.st_size, 0));
  uint64_t pos = size;
  uint64_t chunk = kFirstChunk;
  std::string carry;        // bytes [pos, pos + carry.size()) not yet delivered
  bool tail_known = false;  // the last '\n' of the file has been located
  std::string data;
  while (pos > floor_offset) {
    uint64_t n = std::min(chunk, pos - floor_offset);
    uint64_t new_pos = pos - n;
    data.resize(static_cast<size_t>(n));
    ssize_t got = ::pread(file.fd, data.data(), static_cast<size_t>(n), static_cast<off_t>(new_pos));
    if (got < 0 && errno == EINTR) continue;
    if (got != static_cast<ssize_t>(n)) {
      stats.error = "cannot read " + path + ": short read";
      return stats;
    }
    stats.bytes += n;
    data += carry;
    pos = new_pos;
    chunk = std::min(chunk * 2, kMaxChunk);
    if (!tail_known) {
      const void* last_nl = memrchr(data.data(), '\n', data.size());
      if (!last_nl) {
        carry.swap(data);
        continue;
      }
      size_t keep = static_cast<size_t>(static_cast<const char*>(last_nl) - data.data()) + 1;
      if (keep < data.size()) {
        stats.torn_tail = true;
        stats.torn_tail_offset = pos + keep;
        stats.torn_tail_bytes = data.size() - keep;
      }
      data.resize(keep);
      tail_known = true;
    }
    size_t from = 0;
    if (pos > floor_offset) {
      // The bytes before the first '\n' belong to a line that starts below pos: carry them down.
      const char* first_nl = static_cast<const char*>(std::memchr(data.data(), '\n', data.size()));
      from = static_cast<size_t>(first_nl - data.data()) + 1;
      if (from == data.size()) {
        carry.swap(data);
        continue;
      }
    }
    if (!emit_backward(data, from, pos, fn, stats)) {
      stats.stopped = true;
      return stats;
    }
    carry.assign(data, 0, from);
  }
  if (!tail_known && !carry.empty()) {
    stats.torn_tail = true;
    stats.torn_tail_offset = floor_offset;
    stats.torn_tail_bytes = carry.size();
  } else if (!carry.empty()) {
    // Reached the floor with a carried line: it starts exactly at the floor.
    if (!emit_backward(carry, 0, floor_offset, fn, stats)) stats.stopped = true;
  }
  return stats;
}

}  // namespace csift
