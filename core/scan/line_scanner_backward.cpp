// Tail-first reading for `list` (SPEC.md §7): chunks from EOF toward `floor_offset`, newest line first. The
// lowest fragment of each chunk is carried down until a lower chunk shows where its line starts.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>

#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {

namespace {

constexpr uint64_t kFirstChunk = 64 * 1024;
constexpr uint64_t kMaxChunk = 1 << 20;

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

// One downward-filling buffer per thread, reused across files: each chunk is read directly below the bytes
// carried from the chunk above, so the carry is never copied and no chunk is zero-filled first. The carry
// moves only when the buffer's bottom is reached (to the top of a buffer grown to fit chunk + carry).
class BackwardBuffer {
 public:
  // Makes room for `n` bytes directly below the carry and returns where they go.
  char* below_carry(size_t n) {
    if (lo_ < n) {
      const size_t need = n + carry_len_;
      if (need > cap_) {
        const size_t cap = std::max(need, std::max(cap_ * 2, kDefaultCapacity));
        std::unique_ptr<char[]> grown(new char[cap]);
        // The first buffer has no carry and no storage yet: memcpy from a null source is undefined even for
        // 0.
        if (carry_len_ > 0) std::memcpy(grown.get() + cap - carry_len_, buf_.get() + lo_, carry_len_);
        buf_ = std::move(grown);
        cap_ = cap;
      } else {
        if (carry_len_ > 0) std::memmove(buf_.get() + cap_ - carry_len_, buf_.get() + lo_, carry_len_);
      }
      lo_ = cap_ - carry_len_;
    }
    return buf_.get() + lo_ - n;
  }
  // The `n` bytes just read followed by the carry.
  std::string_view with_carry(size_t n) const { return {buf_.get() + lo_ - n, n + carry_len_}; }
  // Keeps the first `len` bytes of what with_carry(n) returned as the new carry.
  void carry(size_t n, size_t len) { lo_ -= n, carry_len_ = len; }
  size_t carry_len() const { return carry_len_; }
  // Forgets the carry (an overlong line, delivered or reported, whose bytes are no longer needed).
  void drop_carry() { lo_ = cap_, carry_len_ = 0; }
  std::string_view carried() const { return {buf_.get() + lo_, carry_len_}; }
  // Starts a new file; a buffer grown far past the usual size (a huge line) is released.
  void reset() {
    if (cap_ > kKeepCapacity) buf_.reset(), cap_ = 0;
    lo_ = cap_, carry_len_ = 0;
  }

 private:
  static constexpr size_t kDefaultCapacity = 4 * kMaxChunk;
  static constexpr size_t kKeepCapacity = 16 * kMaxChunk;
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0, lo_ = 0, carry_len_ = 0;
};

// The offset of the last '\n' in [floor, below) of the file, read downward in small pieces and kept nowhere;
// UINT64_MAX when there is none (or on a read error, with stats.error set).
uint64_t newline_before(int fd, uint64_t below, uint64_t floor, ScanStats& stats) {
  constexpr size_t kPiece = 64 * 1024;
  auto piece = std::make_unique_for_overwrite<char[]>(kPiece);
  uint64_t pos = below;
  while (pos > floor) {
    const auto n = static_cast<size_t>(std::min<uint64_t>(kPiece, pos - floor));
    if (pread_upto(fd, piece.get(), n, pos - n) != static_cast<ssize_t>(n)) {
      stats.error = "cannot read: short read";
      return UINT64_MAX;
    }
    stats.bytes += n;
    pos -= n;
    if (const void* nl = memrchr(piece.get(), '\n', n))
      return pos + static_cast<uint64_t>(static_cast<const char*>(nl) - piece.get());
  }
  return UINT64_MAX;
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
  // The thread's buffer holds bytes [pos, pos + carry_len) not yet delivered; a nested call (a callback that
  // scans again on this thread, directly or by running another task while it waits) gets its own.
  thread_local BackwardBuffer shared;
  thread_local bool shared_in_use = false;
  BackwardBuffer own;
  BackwardBuffer& buffer = shared_in_use ? own : shared;
  struct InUse {
    bool& flag;
    bool was;
    ~InUse() { flag = was; }
  } in_use{shared_in_use, shared_in_use};
  shared_in_use = true;
  buffer.reset();
  bool tail_known = false;  // the last '\n' of the file has been located
  while (pos > floor_offset) {
    const auto n = static_cast<size_t>(std::min(chunk, pos - floor_offset));
    const uint64_t new_pos = pos - n;
    char* dst = buffer.below_carry(n);
    if (pread_upto(file.fd, dst, n, new_pos) != static_cast<ssize_t>(n)) {
      stats.error = "cannot read " + path + ": short read";
      return stats;
    }
    stats.bytes += n;
    std::string_view data = buffer.with_carry(n);
    pos = new_pos;
    chunk = std::min(chunk * 2, kMaxChunk);
    if (!tail_known) {
      const void* last_nl = memrchr(data.data(), '\n', data.size());
      if (!last_nl && data.size() > kMaxHeldLineBytes) {
        // A torn tail longer than any line is held: find where it starts without buffering the rest.
        const uint64_t nl = newline_before(file.fd, pos, floor_offset, stats);
        if (!stats.error.empty()) return stats;
        const uint64_t start = nl == UINT64_MAX ? floor_offset : nl + 1;
        stats.torn_tail = true;
        stats.torn_tail_offset = start;
        stats.torn_tail_bytes = std::min<uint64_t>(size - start, kMaxHeldLineBytes);
        buffer.drop_carry();
        tail_known = true;
        pos = start;
        continue;
      }
      if (!last_nl) {
        buffer.carry(n, data.size());
        continue;
      }
      size_t keep = static_cast<size_t>(static_cast<const char*>(last_nl) - data.data()) + 1;
      if (keep < data.size()) {
        stats.torn_tail = true;
        stats.torn_tail_offset = pos + keep;
        stats.torn_tail_bytes = data.size() - keep;
      }
      data = data.substr(0, keep);
      tail_known = true;
    }
    size_t from = 0;
    if (pos > floor_offset) {
      // The bytes before the first '\n' belong to a line that starts below pos: carry them down.
      const char* first_nl = static_cast<const char*>(std::memchr(data.data(), '\n', data.size()));
      from = static_cast<size_t>(first_nl - data.data()) + 1;
      if (from == data.size() && data.size() > kMaxHeldLineBytes) {
        // One line longer than any line is held (its top bytes are in hand): find its start without
        // buffering the rest, and deliver those top bytes, still longer than any record may be.
        const uint64_t nl = newline_before(file.fd, pos, floor_offset, stats);
        if (!stats.error.empty()) return stats;
        const uint64_t start = nl == UINT64_MAX ? floor_offset : nl + 1;
        std::string_view line = data.substr(data.size() - 1 - kMaxHeldLineBytes, kMaxHeldLineBytes);
        ++stats.lines;
        if (!fn(LineView{line, 0, start})) {
          stats.stopped = true;
          return stats;
        }
        buffer.drop_carry();
        pos = start;
        continue;
      }
      if (from == data.size()) {
        buffer.carry(n, data.size());
        continue;
      }
    }
    if (!emit_backward(data, from, pos, fn, stats)) {
      stats.stopped = true;
      return stats;
    }
    buffer.carry(n, from);
  }
  if (!tail_known && buffer.carry_len() > 0) {
    stats.torn_tail = true;
    stats.torn_tail_offset = floor_offset;
    stats.torn_tail_bytes = buffer.carry_len();
  } else if (buffer.carry_len() > 0) {
    // Reached the floor with a carried line: it starts exactly at the floor.
    if (!emit_backward(buffer.carried(), 0, floor_offset, fn, stats)) stats.stopped = true;
  }
  return stats;
}

}  // namespace csift
