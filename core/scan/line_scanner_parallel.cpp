// Within-file parallelism (SPEC.md §7): a single large transcript is split at newline-aligned offsets and the
// chunks are scanned concurrently; each chunk's line count, known when it is done, fixes the next one's first
// line number after the scan (ChunkPlan::first_line), so every byte is read once.
#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

#include "core/base/atomic_lower.h"
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

// How a file splits into chunks: `starts` empty when it is read as one chunk (below the threshold, or it
// cannot be stat'ed: the one-chunk scan then reports why); `error` set when it cannot be opened.
struct ChunkLayout {
  std::vector<uint64_t> starts;
  uint64_t size = 0;
};

ChunkLayout lay_out_chunks(const std::string& path, uint64_t threshold, uint64_t chunk_bytes,
                           std::string& error) {
  ChunkLayout layout;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || st.st_size < 0 || static_cast<uint64_t>(st.st_size) < threshold ||
      chunk_bytes == 0)
    return layout;
  const FileHandle file(path);
  if (file.fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return layout;
  }
  layout.size = static_cast<uint64_t>(st.st_size);
  layout.starts = chunk_starts(file.fd, layout.size, chunk_bytes);
  return layout;
}

}  // namespace

ScanStats scan_parallel(const std::string& path,
                        const std::function<bool(size_t chunk, const LineBlock&)>& fn, ChunkPlan* plan_out,
                        const CancelToken* cancel, uint64_t threshold, uint64_t chunk_bytes) {
  ScanStats total;
  ChunkLayout layout = lay_out_chunks(path, threshold, chunk_bytes, total.error);
  if (!total.error.empty()) return total;
  if (layout.starts.empty()) {
    if (plan_out) {
      plan_out->chunks = 1;
      plan_out->first_line.assign(1, 1);
    }
    LineScanner scanner;
    return scanner.scan(
        path, [&](const LineBlock& block) { return fn(0, block); }, 0, UINT64_MAX, 1, cancel);
  }
  const uint64_t size = layout.size;
  const std::vector<uint64_t> starts = std::move(layout.starts);
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

namespace {

// One chunk travelling through the ordered pipeline: where it lies, its consumer and what its scan saw.
struct OrderedChunk {
  size_t index = 0;
  std::unique_ptr<ChunkConsumer> consumer;
  ScanStats scan;
  bool stopped = false;  // its consumer asked to stop while scanning
};

// Folds one delivered chunk's scan into the whole file's: line numbers of the torn tail become file numbers.
void add_chunk_scan(ScanStats& total, const ScanStats& s, uint64_t first_line) {
  total.bytes += s.bytes;
  total.lines += s.lines;
  total.stopped = total.stopped || s.stopped;
  if (total.error.empty() && !s.error.empty()) total.error = s.error;
  if (s.torn_tail) {
    total.torn_tail = true;
    total.torn_tail_line = s.torn_tail_line + first_line - 1;
    total.torn_tail_offset = s.torn_tail_offset;
    total.torn_tail_bytes = s.torn_tail_bytes;
  }
}

}  // namespace

ScanStats scan_parallel_ordered(const std::string& path, const ChunkConsumerFactory& make,
                                const CancelToken* cancel, uint64_t threshold, uint64_t chunk_bytes,
                                size_t max_live_chunks) {
  ScanStats total;
  ChunkLayout layout = lay_out_chunks(path, threshold, chunk_bytes, total.error);
  if (!total.error.empty()) return total;
  if (layout.starts.empty()) {
    std::unique_ptr<ChunkConsumer> only = make(0);
    bool stopped = false;
    LineScanner scanner;
    ScanStats stats = scanner.scan(
        path, [&](const LineBlock& block) { return !(stopped = !only->block(block)); }, 0, UINT64_MAX, 1,
        cancel);
    if (!only->deliver(1)) stats.stopped = true;
    return stats;
  }
  const uint64_t size = layout.size;
  const std::vector<uint64_t> starts = std::move(layout.starts);
  const size_t chunks = starts.size();
  if (max_live_chunks == 0)
    max_live_chunks = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  // The lowest chunk whose consumer asked to stop: chunks before it run to their end, none after it start.
  std::atomic<size_t> stop_at{SIZE_MAX};
  const auto stopped_before = [&](size_t i) { return stop_at.load(std::memory_order_relaxed) < i; };
  size_t next = 0;
  uint64_t first_line = 1;
  bool delivered_all = true;
  tbb::parallel_pipeline(
      max_live_chunks,
      tbb::make_filter<void, size_t>(tbb::filter_mode::serial_in_order,
                                     [&](tbb::flow_control& fc) -> size_t {
                                       if (next == chunks || stopped_before(next) ||
                                           (cancel && cancel->is_cancelled())) {
                                         fc.stop();
                                         return 0;
                                       }
                                       return next++;
                                     }) &
          tbb::make_filter<size_t, std::shared_ptr<OrderedChunk>>(tbb::filter_mode::parallel,
                                                                  [&](size_t i) {
                                                                    auto c = std::make_shared<OrderedChunk>();
                                                                    c->index = i;
                                                                    if (stopped_before(i)) return c;
                                                                    c->consumer = make(i);
                                                                    LineScanner scanner;
                                                                    const uint64_t end =
                                                                        i + 1 < chunks ? starts[i + 1] : size;
                                                                    c->scan = scanner.scan(
                                                                        path,
                                                                        [&](const LineBlock& block) {
                                                                          if (stopped_before(i)) return false;
                                                                          if (c->consumer->block(block))
                                                                            return true;
                                                                          c->stopped = true;
                                                                          lower_to(stop_at, i);
                                                                          return false;
                                                                        },
                                                                        starts[i], end, 1, cancel);
                                                                    return c;
                                                                  }) &
          tbb::make_filter<std::shared_ptr<OrderedChunk>, void>(
              tbb::filter_mode::serial_in_order, [&](std::shared_ptr<OrderedChunk> c) {
                if (!delivered_all || !c->consumer) {
                  delivered_all = false;
                  return;
                }
                add_chunk_scan(total, c->scan, first_line);
                // A chunk that stopped while scanning is still delivered: its consumer accounts for what it
                // read.
                const bool go_on = c->consumer->deliver(first_line) && !c->stopped;
                first_line += c->scan.lines;
                if (!go_on) {
                  delivered_all = false;
                  lower_to(stop_at, c->index);
                }
                c->consumer.reset();  // its buffered output is released as soon as it is delivered
              }));
  if (!delivered_all || (cancel && cancel->is_cancelled())) total.stopped = true;
  return total;
}

}  // namespace csift
