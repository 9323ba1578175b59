// Within-file parallelism (SPEC.md §7): a single large transcript is split at newline-aligned offsets and the
// chunks are scanned concurrently; each chunk's line count, known when it is done, fixes the next one's first
// line number after the scan (ChunkPlan::first_line), so every byte is read once.
#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/scan/file_handle.h"
#include "core/scan/line_scanner.h"

namespace csift {

namespace {

// The offset just past the first '\n' at or after `from`, or `size` when there is none.
uint64_t next_line_start(int fd, uint64_t from, uint64_t size) {
  char probe[64 * 1024];
  uint64_t pos = from;
  while (pos < size) {
    const ssize_t got = pread_upto(fd, probe, sizeof probe, pos);
    if (got <= 0) return size;
    const void* nl = std::memchr(probe, '\n', static_cast<size_t>(got));
    if (nl) return pos + static_cast<uint64_t>(static_cast<const char*>(nl) - probe) + 1;
    pos += static_cast<uint64_t>(got);
  }
  return size;
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
    if (plan_out) {
      plan_out->chunks = 1;
      plan_out->first_line.assign(1, 1);
    }
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
  std::vector<uint64_t> ends(chunks);
  for (size_t i = 0; i < chunks; ++i)
    ends[i] = i + 1 < chunks ? starts[i + 1] : size;

  // Any callback asking to stop stops every chunk.
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
    per_chunk[i] = scanner.scan(path, on_block, starts[i], ends[i], 1, cancel);
  });
  // A chunk's lines are its complete lines; only the last chunk can end in a torn (newline-less) line.
  std::vector<uint64_t> first_line(chunks, 1);
  for (size_t i = 1; i < chunks; ++i)
    first_line[i] = first_line[i - 1] + per_chunk[i - 1].lines;
  for (const ScanStats& s : per_chunk) {
    total.bytes += s.bytes;
    total.lines += s.lines;
    total.stopped = total.stopped || s.stopped;
    if (total.error.empty() && !s.error.empty()) total.error = s.error;
  }
  const ScanStats& last = per_chunk.back();
  total.torn_tail = last.torn_tail;
  total.torn_tail_line = last.torn_tail_line + first_line.back() - 1;
  total.torn_tail_offset = last.torn_tail_offset;
  total.torn_tail_bytes = last.torn_tail_bytes;
  if (stop.load() || (cancel && cancel->is_cancelled())) total.stopped = true;
  if (plan_out) {
    plan_out->chunks = chunks;
    plan_out->first_line = std::move(first_line);
  }
  return total;
}

}  // namespace csift
