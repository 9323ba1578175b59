// Front-to-back line scanning with read() into a reused buffer (measured 4-7x faster than mmap here; see
// /work/shared/notes/perf-facts.md), plus the parallel chunked scan and the tail-first backward scan.
#include "core/scan/line_scanner.h"
#include "core/scan/file_handle.h"

#include <fcntl.h>
#include <immintrin.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace csift {

namespace {

uint64_t count_newlines_scalar(const char* p, size_t n) {
  uint64_t count = 0;
  const char* end = p + n;
  while (p < end) {
    const void* hit = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (!hit) break;
    ++count;
    p = static_cast<const char*>(hit) + 1;
  }
  return count;
}

__attribute__((target("avx2"))) uint64_t count_newlines_avx2(const char* p, size_t n) {
  const __m256i newline = _mm256_set1_epi8('\n');
  uint64_t count = 0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32));
    uint32_t ma = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, newline)));
    uint32_t mb = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, newline)));
    count += static_cast<uint64_t>(__builtin_popcount(ma)) + static_cast<uint64_t>(__builtin_popcount(mb));
  }
  for (; i < n; ++i)
    count += p[i] == '\n';
  return count;
}

using CountFn = uint64_t (*)(const char*, size_t);

CountFn pick_count_fn() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? count_newlines_avx2 : count_newlines_scalar;
}

std::string open_error(const std::string& path) {
  return "cannot open " + path + ": " + std::strerror(errno);
}

}  // namespace

uint64_t count_newlines(const char* p, size_t n) {
  static const CountFn fn = pick_count_fn();
  return fn(p, n);
}

bool for_each_line(const LineBlock& block, const LineFn& fn) {
  const char* base = block.data.data();
  const char* end = base + block.data.size();
  const char* p = base;
  uint64_t line = block.first_line;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = nl ? nl : end;
    size_t len = static_cast<size_t>(stop - p);
    if (len > 0 && p[len - 1] == '\r') --len;
    LineView view{std::string_view(p, len), line, block.offset + static_cast<uint64_t>(p - base)};
    if (!fn(view)) return false;
    ++line;
    if (!nl) break;
    p = nl + 1;
  }
  return true;
}

namespace {

// One spare read buffer per thread (the largest one its scanners grew to, capped so that one 64 MiB line does
// not pin 64 MiB per thread for the life of the process).
struct SpareBuffer {
  std::unique_ptr<char[]> buf;
  size_t cap = 0;
};
thread_local SpareBuffer t_spare;
constexpr size_t kMaxSpareBytes = size_t{8} << 20;

// The offset of the first '\n' in [from, end) of the file, read in small pieces and kept nowhere;
// UINT64_MAX when there is none (or on error/cancel, with stats set).
uint64_t newline_at_or_after(int fd, uint64_t from, uint64_t end, ScanStats& stats,
                             const CancelToken* cancel) {
  constexpr size_t kPiece = 64 * 1024;
  auto piece = std::make_unique_for_overwrite<char[]>(kPiece);
  uint64_t pos = from;
  while (pos < end) {
    if (cancel && cancel->is_cancelled()) {
      stats.stopped = true;
      return UINT64_MAX;
    }
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kPiece, end - pos));
    const ssize_t got = pread_upto(fd, piece.get(), want, pos);
    if (got < 0) {
      stats.error = std::string("cannot read: ") + std::strerror(errno);
      return UINT64_MAX;
    }
    if (got == 0) break;
    const void* nl = std::memchr(piece.get(), '\n', static_cast<size_t>(got));
    if (nl) {
      const uint64_t at = pos + static_cast<uint64_t>(static_cast<const char*>(nl) - piece.get());
      stats.bytes += at + 1 - pos;
      return at;
    }
    stats.bytes += static_cast<uint64_t>(got);
    pos += static_cast<uint64_t>(got);
  }
  return UINT64_MAX;
}

}  // namespace

LineScanner::LineScanner(size_t buffer_bytes) : window_(std::max<size_t>(buffer_bytes, 16)) {
  const size_t want = window_;
  if (t_spare.buf && t_spare.cap >= want) {
    buf_ = std::move(t_spare.buf);
    cap_ = t_spare.cap;
    t_spare.cap = 0;
  } else {
    buf_ = std::make_unique_for_overwrite<char[]>(want);
    cap_ = want;
  }
}

LineScanner::~LineScanner() {
  if (buf_ && cap_ <= kMaxSpareBytes && cap_ > t_spare.cap) {
    t_spare.buf = std::move(buf_);
    t_spare.cap = cap_;
  }
}

ScanStats LineScanner::scan(const std::string& path, const BlockFn& fn, uint64_t begin, uint64_t end,
                            uint64_t first_line, const CancelToken* cancel) {
  ScanStats stats;
  FileHandle file(path);
  if (file.fd < 0) {
    stats.error = open_error(path);
    return stats;
  }
  uint64_t read_pos = begin;   // next file offset to read
  uint64_t block_off = begin;  // file offset of buf_[0]
  uint64_t line = first_line;  // line number of buf_[0]
  size_t filled = 0;           // valid bytes in buf_ (all belong to unfinished lines after each delivery)
  while (read_pos < end) {
    if (cancel && cancel->is_cancelled()) {
      stats.stopped = true;
      return stats;
    }
    // A carried partial line filling most of the window means a long line: widen it so reads stay large.
    if (filled > window_ / 2 && window_ < kMaxHeldLineBytes + 1) {
      window_ = std::min(window_ * 2, kMaxHeldLineBytes + 1);
      if (window_ > cap_) {
        auto grown = std::make_unique_for_overwrite<char[]>(window_);
        std::memcpy(grown.get(), buf_.get(), filled);
        buf_ = std::move(grown);
        cap_ = window_;
      }
    }
    size_t want = window_ - filled;
    if (end != UINT64_MAX) want = static_cast<size_t>(std::min<uint64_t>(want, end - read_pos));
    ssize_t got = pread_upto(file.fd, buf_.get() + filled, want, read_pos);
    if (got < 0) {
      stats.error = "cannot read " + path + ": " + std::strerror(errno);
      return stats;
    }
    if (got == 0) break;
    read_pos += static_cast<uint64_t>(got);
    stats.bytes += static_cast<uint64_t>(got);
    size_t scanned_from = filled;  // bytes before this held no '\n'
    filled += static_cast<size_t>(got);
    const char* data = buf_.get();
    const void* last_nl = memrchr(data + scanned_from, '\n', filled - scanned_from);
    if (!last_nl) {
      if (filled < kMaxHeldLineBytes) continue;
      // An overlong line: deliver what is held, read past the rest (see kMaxHeldLineBytes).
      filled = kMaxHeldLineBytes;
      const uint64_t newline = newline_at_or_after(file.fd, read_pos, end, stats, cancel);
      if (!stats.error.empty() || stats.stopped) return stats;
      if (newline == UINT64_MAX) break;  // no newline before the end: a torn tail, reported below
      buf_[filled] = '\n';
      ++stats.lines;
      if (!fn(LineBlock{std::string_view(buf_.get(), filled + 1), line, block_off})) {
        stats.stopped = true;
        return stats;
      }
      ++line;
      block_off = read_pos = newline + 1;
      filled = 0;
      continue;
    }
    size_t block_len = static_cast<size_t>(static_cast<const char*>(last_nl) - data) + 1;
    uint64_t lines_in_block = count_newlines(data, block_len);
    LineBlock block{std::string_view(data, block_len), line, block_off};
    stats.lines += lines_in_block;
    if (!fn(block)) {
      stats.stopped = true;
      return stats;
    }
    line += lines_in_block;
    block_off += block_len;
    filled -= block_len;
    if (filled > 0) std::memmove(buf_.get(), buf_.get() + block_len, filled);
  }
  if (filled > 0) {
    stats.torn_tail = true;
    stats.torn_tail_line = line;
    stats.torn_tail_offset = block_off;
    stats.torn_tail_bytes = filled;
  }
  return stats;
}

ScanStats scan_bytes(std::string_view bytes, const BlockFn& fn, const CancelToken* cancel, bool numbered,
                     size_t window) {
  ScanStats stats;
  stats.bytes = bytes.size();
  const char* base = bytes.data();
  size_t off = 0;
  uint64_t line = numbered ? 1 : 0;
  while (off < bytes.size()) {
    if (cancel && cancel->is_cancelled()) {
      stats.stopped = true;
      return stats;
    }
    const size_t span = std::min(window, bytes.size() - off);
    const void* nl = memrchr(base + off, '\n', span);
    // A line longer than the window is a block of its own, as the file scanner's grown buffer delivers it.
    if (!nl) nl = std::memchr(base + off + span, '\n', bytes.size() - off - span);
    if (!nl) break;  // the torn tail, reported below
    const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - (base + off)) + 1;
    const uint64_t lines = numbered ? count_newlines(base + off, len) : 0;
    stats.lines += lines;
    if (!fn(LineBlock{bytes.substr(off, len), line, off})) {
      stats.stopped = true;
      return stats;
    }
    line += lines;
    off += len;
  }
  if (off < bytes.size()) {
    stats.torn_tail = true;
    stats.torn_tail_line = line;
    stats.torn_tail_offset = off;
    stats.torn_tail_bytes = bytes.size() - off;
  }
  return stats;
}

ScanStats LineScanner::scan_lines(const std::string& path, const LineFn& fn, const CancelToken* cancel) {
  return scan(
      path, [&](const LineBlock& block) { return for_each_line(block, fn); }, 0, UINT64_MAX, 1, cancel);
}

}  // namespace csift
