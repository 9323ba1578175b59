// Within-file parallelism (spec §7e): a single large transcript is split at newline-aligned offsets, a
// parallel newline count fixes every chunk's first line number, then the chunks are scanned concurrently.
#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/file_handle.h"
#include "core/line_scanner.h"

namespace csift {

namespace {

// The offset just past the first '\n' at or after `from`, or `size` when there is none.
uint64_t next_line_start(int fd, uint64_t from, uint64_t size) {
  char probe[64 * 1024];
  uint64_t pos = from;
  while (pos < size) {
    ssize_t got = ::pread(fd, probe, sizeof probe, static_cast<off_t>(pos));
    if (got <= 0) return size;
    const void* nl = std::memchr(probe, '\n', static_cast<size_t>(got));
    if (nl) return pos + static_cast<uint64_t>(static_cast<const char*>(nl) - probe) + 1;
    pos += static_cast<uint64_t>(got);
  }
  return size;
}

// Newlines in [begin, end) of the file, read through a private buffer.
uint64_t count_range_newlines(int fd, uint64_t begin, uint64_t end) {
  std::string buf(1 << 20, '\0');
  uint64_t count = 0;
  for (uint64_t pos = begin; pos < end;) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(buf.size(), end - pos));
    ssize_t got = ::pread(fd, buf.data(), want, static_cast<off_t>(pos));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    count += count_newlines(buf.data(), static_cast<size_t>(got));
    pos += static_cast<uint64_t>(got);
  }
  return count;
}

std::vector<uint64_t> chunk_starts(int fd, uint64_t size, uint64_t chunk_bytes) {
  std::vector<uint64_t> starts{0};
  for (uint64_t nominal = chunk_bytes; nominal < size; nominal += chunk_bytes) {
    if (nominal <= starts.back()) continue;  // a long line swallowed this nominal boundary
    uint64_t start = next_line_start(fd, nominal - 1, size);
    if (start >= size) break;
    if (start > starts.back()) starts.push_back(start);
  }
  return starts;
}

}  // namespace

ScanStats scan_parallel(const std::string& path,
                        const std::function<bool(size_t chunk, const LineBlock&)>& fn, ChunkPlan* plan_out,
                        const CancelToken* cancel, uint64_t threshold, uint64_t chunk_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || st.st_size < 0 || static_cast<uint64_t>(st.st_size) < threshold ||
      chunk_bytes == 0) {
    if (plan_out) plan_out->chunks = 1;
    LineScanner scanner;
    return scanner.scan(
        path, [&](const LineBlock& block) { return fn(0, block); }, 0, UINT64_MAX, 1, cancel);
  }
  FileHandle file(path);
  ScanStats total;
  if (file.fd < 0) {
    total.error = "cannot open " + path + ": " + std::strerror(errno);
    return total;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  std::vector<uint64_t> starts = chunk_starts(file.fd, size, chunk_bytes);
  const size_t chunks = starts.size();
  if (plan_out) plan_out->chunks = chunks;
  std::vector<uint64_t> ends(chunks);
  for (size_t i = 0; i < chunks; ++i)
    ends[i] = i + 1 < chunks ? starts[i + 1] : size;

  // Pass 1: newlines per chunk; an exclusive prefix sum gives each chunk's first line.
  std::vector<uint64_t> newlines(chunks);
  tbb::parallel_for(size_t{0}, chunks,
                    [&](size_t i) { newlines[i] = count_range_newlines(file.fd, starts[i], ends[i]); });
  std::vector<uint64_t> first_line(chunks, 1);
  for (size_t i = 1; i < chunks; ++i)
    first_line[i] = first_line[i - 1] + newlines[i - 1];

  // Pass 2: scan the chunks; any callback asking to stop stops every chunk.
  std::vector<ScanStats> per_chunk(chunks);
  std::atomic<bool> stop{false};
  tbb::parallel_for(size_t{0}, chunks, [&](size_t i) {
    LineScanner scanner;
    auto on_block = [&](const LineBlock& block) {
      if (stop.load(std::memory_order_relaxed)) return false;
      if (!fn(i, block)) {
        stop.store(true, std::memory_order_relaxed);
        return false;
      }
      return true;
    };
    per_chunk[i] = scanner.scan(path, on_block, starts[i], ends[i], first_line[i], cancel);
  });
  for (const ScanStats& s : per_chunk) {
    total.bytes += s.bytes;
    total.lines += s.lines;
    total.stopped = total.stopped || s.stopped;
    if (total.error.empty() && !s.error.empty()) total.error = s.error;
  }
  const ScanStats& last = per_chunk.back();
  total.torn_tail = last.torn_tail;
  total.torn_tail_line = last.torn_tail_line;
  total.torn_tail_offset = last.torn_tail_offset;
  total.torn_tail_bytes = last.torn_tail_bytes;
  if (stop.load() || (cancel && cancel->is_cancelled())) total.stopped = true;
  return total;
}

}  // namespace csift
