// LineScanner: reads transcript files as blocks of complete lines, on the reading path measured fastest on
// this machine (read() into a reused buffer; see SPEC.md "Measured facts"). A final line with no '\n' is a
// torn tail: held back, never delivered, and reported in ScanStats so callers can count it.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/cancel.h"

namespace csift {

struct LineBlock {
  std::string_view data;  // one or more complete lines, each ending in '\n'
  uint64_t first_line;    // 1-based line number of data's first line
  uint64_t offset;        // file byte offset of data[0]
};

struct LineView {
  std::string_view bytes;  // the line without its '\n' (and without a trailing '\r')
  uint64_t line;           // 1-based
  uint64_t offset;         // byte offset of the line start
};

// Where one line of a file is: enough to read it again later without scanning for it.
struct LineRef {
  uint64_t line = 0;    // 1-based
  uint64_t offset = 0;  // byte offset of its first byte
  uint64_t length = 0;  // without the '\n'
};

struct ScanStats {
  uint64_t bytes = 0;      // bytes read
  uint64_t lines = 0;      // complete lines delivered (blank ones included)
  bool torn_tail = false;  // the file ended in a line with no '\n'
  uint64_t torn_tail_line = 0;
  uint64_t torn_tail_offset = 0;
  uint64_t torn_tail_bytes = 0;
  bool stopped = false;  // the callback asked to stop early
  std::string error;     // non-empty when the file could not be opened/read
  // A compressed file's stream that stopped decoding (zstd_lines.h; never a plain file): libzstd's reason
  // ("corrupt zstd frame: …", "truncated zstd frame: …"), after every complete line before it was delivered;
  // the line number and stream offset the unread rest would have started at.
  std::string broken;
  uint64_t broken_line = 0;
  uint64_t broken_offset = 0;
};

// Return false from a callback to stop the scan.
using BlockFn = std::function<bool(const LineBlock&)>;
using LineFn = std::function<bool(const LineView&)>;

// Calls fn for each line in the block, in order.
bool for_each_line(const LineBlock& block, const LineFn& fn);
// Number of '\n' bytes in [p, p+n) (SIMD).
uint64_t count_newlines(const char* p, size_t n);

// The most of one line a scanner holds: one byte over the record limit (json_syntax.h), so a longer line is
// still refused as too large by every reader, while the rest of it up to its newline is read past, never
// buffered (a 2 GB line costs 64 MiB, not 2 GB). The line is still one line, numbered and counted.
inline constexpr size_t kMaxHeldLineBytes = (size_t{64} << 20) + 1;

class LineScanner {
 public:
  explicit LineScanner(size_t buffer_bytes = 1 << 20);
  // Sequential front-to-back read of [begin, end) of the file; `begin` must be a line start whose line number
  // is first_line. Blocks arrive in order. The buffer grows to hold a line longer than it (10 MB lines work),
  // up to kMaxHeldLineBytes: a longer line arrives as a block of its first kMaxHeldLineBytes and a '\n'.
  ScanStats scan(const std::string& path, const BlockFn& fn, uint64_t begin = 0, uint64_t end = UINT64_MAX,
                 uint64_t first_line = 1, const CancelToken* cancel = nullptr);
  // Convenience: per-line callback over the whole file.
  ScanStats scan_lines(const std::string& path, const LineFn& fn, const CancelToken* cancel = nullptr);
  // The bytes of the buffer in use (tests: it stays bounded whatever the line lengths).
  size_t buffer_bytes() const { return cap_; }

 private:
  // Uninitialized storage, borrowed from the thread's spare buffer and returned on destruction: a fresh
  // 1 MiB allocation per file is a fresh mmap whose page faults cost more than reading a small file.
  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  size_t window_ = 0;  // bytes used per read: the requested size (a borrowed buffer may be larger)

 public:
  ~LineScanner();
  LineScanner(const LineScanner&) = delete;
  LineScanner& operator=(const LineScanner&) = delete;
};

// The blocks LineScanner::scan would deliver for a file holding `bytes` (whole lines in windows of
// `window` bytes, a longer line a block of its own; the final line without '\n' held back as a torn tail),
// scanned from memory (file_bytes.h). `bytes` must be shorter than kMaxHeldLineBytes, so no line is overlong.
// Unless `numbered`, the lines are not counted: every block's first_line and the stats' line counts are 0
// (a byte screen that needs no line numbers saves a pass over the bytes).
ScanStats scan_bytes(std::string_view bytes, const BlockFn& fn, const CancelToken* cancel = nullptr,
                     bool numbered = true, size_t window = size_t{1} << 20);

// Splits one file into newline-aligned chunks and scans them on oneTBB workers, each byte read once.
// fn(chunk_index, block) may run concurrently for different chunks; blocks of one chunk arrive in order.
// Line numbers inside chunk i count from 1 at the chunk's start: a chunk cannot know how many lines precede
// it without reading them, and a separate counting pass would read the file twice. The caller turns them
// into file line numbers with plan_out->first_line[i] - 1 once the scan returns (ScanStats' torn-tail line is
// already a file line number). Files below `threshold` run as one chunk, whose numbers are file numbers.
struct ChunkPlan {
  size_t chunks = 0;
  std::vector<uint64_t> first_line;  // per chunk: the file line number of its first line
};
ScanStats scan_parallel(const std::string& path,
                        const std::function<bool(size_t chunk, const LineBlock&)>& fn,
                        ChunkPlan* plan_out = nullptr, const CancelToken* cancel = nullptr,
                        uint64_t threshold = 8u << 20, uint64_t chunk_bytes = 4u << 20);

// One chunk's share of scan_parallel_ordered. block() runs on a worker with the chunk's blocks in order,
// numbered from 1 at the chunk's start; deliver() runs once that chunk and every chunk before it are done,
// in file order and never two at once, with the file line number of the chunk's first line. Either returning
// false stops the scan: no chunk is started after it and no later chunk is delivered.
class ChunkConsumer {
 public:
  virtual ~ChunkConsumer() = default;
  virtual bool block(const LineBlock& block) = 0;
  virtual bool deliver(uint64_t first_line) = 0;
};
using ChunkConsumerFactory = std::function<std::unique_ptr<ChunkConsumer>(size_t chunk)>;
// scan_parallel's chunks (the same newline-aligned boundaries) handed to their consumers as a pipeline: at
// most `max_live_chunks` chunks (0: twice the arena's threads) are made and not yet delivered, so a caller
// that buffers a chunk's output holds a bounded window of the file, never all of it. Chunk 0 starts at line
// 1, so its consumer may pass its lines on directly: nothing precedes it. A file below `threshold` is one
// chunk, scanned on the calling thread.
ScanStats scan_parallel_ordered(const std::string& path, const ChunkConsumerFactory& make,
                                const CancelToken* cancel = nullptr, uint64_t threshold = 8u << 20,
                                uint64_t chunk_bytes = 4u << 20, size_t max_live_chunks = 0);

// Reads complete lines backward from EOF (newest first) in growing chunks, never below `floor_offset`.
// Line numbers are not known on this path (LineView::line is 0). A torn tail is skipped and reported.
ScanStats scan_backward(const std::string& path, const LineFn& fn, uint64_t floor_offset = 0);

}  // namespace csift
