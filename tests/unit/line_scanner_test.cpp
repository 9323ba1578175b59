// LineScanner: exact line numbers, carries across tiny buffers, torn tails, long lines, CRLF, the parallel
// scan's equality with the sequential one, and the backward scan's order and floor.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>

#include "core/scan/line_scanner.h"

namespace line_scanner_unit {

namespace fs = std::filesystem;
using namespace csift;

namespace {

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& content) {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("csift-scan-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".jsonl");
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() { fs::remove(path); }
};

struct Seen {
  uint64_t line;
  uint64_t offset;
  std::string bytes;
  bool operator==(const Seen&) const = default;
};

std::vector<Seen> forward(const std::string& path, size_t buffer, ScanStats* stats = nullptr) {
  std::vector<Seen> out;
  LineScanner scanner(buffer);
  ScanStats s = scanner.scan_lines(path, [&](const LineView& v) {
    out.push_back({v.line, v.offset, std::string(v.bytes)});
    return true;
  });
  if (stats) *stats = s;
  return out;
}

std::string generated(size_t lines, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s;
  for (size_t i = 0; i < lines; ++i) {
    size_t len = rng() % 7 == 0 ? 0 : rng() % 300;
    s += "{\"n\":" + std::to_string(i) + ",\"pad\":\"" + std::string(len, 'x') + "\"}\n";
  }
  return s;
}

}  // namespace

TEST_CASE("count_newlines agrees with a plain count at every alignment") {
  std::string s = generated(200, 1);
  for (size_t start = 0; start < 70; ++start) {
    uint64_t expected = 0;
    for (size_t i = start; i < s.size(); ++i)
      expected += s[i] == '\n';
    CHECK(count_newlines(s.data() + start, s.size() - start) == expected);
  }
  CHECK(count_newlines("", 0) == 0);
}

TEST_CASE("line numbers count blank lines and CRLF is trimmed") {
  TempFile f("{\"a\":1}\n\n{\"b\":2}\r\n\r\n{\"c\":3}\n");
  ScanStats stats;
  auto lines = forward(f.path.string(), 1 << 20, &stats);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == Seen{1, 0, "{\"a\":1}"});
  CHECK(lines[1] == Seen{2, 8, ""});
  CHECK(lines[2] == Seen{3, 9, "{\"b\":2}"});
  CHECK(lines[3] == Seen{4, 18, ""});
  CHECK(lines[4] == Seen{5, 20, "{\"c\":3}"});
  CHECK(stats.lines == 5);
  CHECK_FALSE(stats.torn_tail);
}

TEST_CASE("a torn final line is held back and reported") {
  TempFile f("{\"a\":1}\n{\"b\":");
  ScanStats stats;
  auto lines = forward(f.path.string(), 1 << 20, &stats);
  REQUIRE(lines.size() == 1);
  CHECK(stats.torn_tail);
  CHECK(stats.torn_tail_line == 2);
  CHECK(stats.torn_tail_offset == 8);
  CHECK(stats.torn_tail_bytes == 5);
}

TEST_CASE("tiny buffers force carries and growth yet give identical lines") {
  std::string content = generated(500, 2);
  TempFile f(content);
  auto reference = forward(f.path.string(), 1 << 20);
  for (size_t buffer : {16, 17, 33, 100, 4096}) {
    CAPTURE(buffer);
    CHECK(forward(f.path.string(), buffer) == reference);
  }
  CHECK(reference.size() == 500);
}

TEST_CASE("a 10 MB line scans whole") {
  std::string big(10 * 1024 * 1024, 'z');
  TempFile f("{\"x\":1}\n" + big + "\n{\"y\":2}\n");
  auto lines = forward(f.path.string(), 1 << 16);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1].bytes.size() == big.size());
  CHECK(lines[2] == Seen{3, 8 + big.size() + 1, "{\"y\":2}"});
}

TEST_CASE("a callback returning false stops the scan; a cancelled token stops it too") {
  TempFile f(generated(100, 3));
  LineScanner scanner(64);
  int seen = 0;
  ScanStats stats = scanner.scan_lines(f.path.string(), [&](const LineView&) { return ++seen < 5; });
  CHECK(seen == 5);
  CHECK(stats.stopped);
  CancelToken cancel;
  cancel.cancelled = true;
  seen = 0;
  stats = scanner.scan_lines(
      f.path.string(), [&](const LineView&) { return ++seen > 0; }, &cancel);
  CHECK(seen == 0);
  CHECK(stats.stopped);
}

TEST_CASE("a missing file reports an error") {
  LineScanner scanner;
  ScanStats stats = scanner.scan_lines("/nonexistent/csift/x.jsonl", [](const LineView&) { return true; });
  CHECK_FALSE(stats.error.empty());
}

// scan_bytes (from memory) against LineScanner::scan (from the file): the same lines, numbers and offsets,
// the same torn tail, and blocks that hold whole lines.
std::vector<Seen> from_memory(const std::string& bytes, size_t window, ScanStats* stats = nullptr) {
  std::vector<Seen> out;
  ScanStats s = scan_bytes(
      bytes,
      [&](const LineBlock& block) {
        CHECK(block.data.back() == '\n');
        return for_each_line(block, [&](const LineView& v) {
          out.push_back({v.line, v.offset, std::string(v.bytes)});
          return true;
        });
      },
      nullptr, true, window);
  if (stats) *stats = s;
  return out;
}

TEST_CASE("scan_bytes delivers what the file scan delivers") {
  const std::string crlf = "{\"a\":1}\r\n\r\n{\"b\":2}\n";
  const std::string long_line = "{\"x\":1}\n" + std::string(5000, 'z') + "\n{\"y\":2}\n";
  for (const std::string& content : {generated(500, 4), generated(500, 5) + "{\"torn\":", crlf, long_line,
                                     std::string(), std::string("no newline at all"), std::string("\n\n")}) {
    TempFile f(content);
    ScanStats want_stats;
    const auto want = forward(f.path.string(), 1 << 20, &want_stats);
    for (size_t window : {size_t{16}, size_t{1000}, size_t{1} << 20}) {
      CAPTURE(window);
      ScanStats got_stats;
      CHECK(from_memory(content, window, &got_stats) == want);
      CHECK(got_stats.lines == want_stats.lines);
      CHECK(got_stats.bytes == content.size());
      CHECK(got_stats.torn_tail == want_stats.torn_tail);
      CHECK(got_stats.torn_tail_line == want_stats.torn_tail_line);
      CHECK(got_stats.torn_tail_offset == want_stats.torn_tail_offset);
      CHECK(got_stats.torn_tail_bytes == want_stats.torn_tail_bytes);
    }
  }
}

TEST_CASE("scan_bytes unnumbered, stopped and cancelled") {
  const std::string content = generated(300, 6);
  std::string seen;
  const ScanStats unnumbered = scan_bytes(
      content,
      [&](const LineBlock& block) {
        CHECK(block.first_line == 0);
        seen += block.data;
        return true;
      },
      nullptr, /*numbered=*/false, 512);
  CHECK(seen == content);  // every byte once, in order
  CHECK(unnumbered.lines == 0);
  int blocks = 0;
  CHECK(scan_bytes(
            content, [&](const LineBlock&) { return ++blocks < 2; }, nullptr, true, 512)
            .stopped);
  CHECK(blocks == 2);
  CancelToken cancel;
  cancel.cancelled = true;
  blocks = 0;
  CHECK(scan_bytes(
            content, [&](const LineBlock&) { return ++blocks > 0; }, &cancel)
            .stopped);
  CHECK(blocks == 0);
}

TEST_CASE("scan_parallel equals the sequential scan") {
  std::string content = generated(3000, 4) + "{\"torn\":";
  TempFile f(content);
  ScanStats seq_stats;
  auto reference = forward(f.path.string(), 1 << 20, &seq_stats);
  std::mutex mu;
  std::map<std::pair<size_t, uint64_t>, Seen> by_line;  // (chunk, chunk-relative line)
  ChunkPlan plan;
  ScanStats stats = scan_parallel(
      f.path.string(),
      [&](size_t chunk, const LineBlock& block) {
        return for_each_line(block, [&](const LineView& v) {
          std::lock_guard lock(mu);
          by_line[{chunk, v.line}] = Seen{v.line, v.offset, std::string(v.bytes)};
          return true;
        });
      },
      &plan, nullptr, /*threshold=*/1024, /*chunk_bytes=*/4096);
  CHECK(plan.chunks > 10);
  REQUIRE(plan.first_line.size() == plan.chunks);
  std::vector<Seen> parallel;
  for (auto& [key, seen] : by_line) {
    seen.line += plan.first_line[key.first] - 1;  // chunk-relative -> file line number
    parallel.push_back(seen);
  }
  CHECK(parallel == reference);
  CHECK(stats.lines == seq_stats.lines);
  CHECK(stats.torn_tail);
  CHECK(stats.torn_tail_line == seq_stats.torn_tail_line);
  CHECK(stats.torn_tail_offset == seq_stats.torn_tail_offset);
}

TEST_CASE("scan_parallel below the threshold runs as one chunk") {
  TempFile f(generated(10, 5));
  ChunkPlan plan;
  uint64_t lines = 0;
  scan_parallel(
      f.path.string(),
      [&](size_t chunk, const LineBlock& block) {
        CHECK(chunk == 0);
        lines += count_newlines(block.data.data(), block.data.size());
        return true;
      },
      &plan);
  CHECK(plan.chunks == 1);
  CHECK(lines == 10);
}

TEST_CASE("scan_backward delivers newest first, skips the torn tail and honours the floor") {
  std::string content = generated(2000, 6);
  TempFile f(content + "{\"torn\":");
  auto reference = forward(f.path.string(), 1 << 20);
  std::vector<Seen> backward;
  ScanStats stats = scan_backward(f.path.string(), [&](const LineView& v) {
    backward.push_back({0, v.offset, std::string(v.bytes)});
    return true;
  });
  REQUIRE(backward.size() == reference.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    const Seen& r = reference[reference.size() - 1 - i];
    CHECK(backward[i].offset == r.offset);
    CHECK(backward[i].bytes == r.bytes);
  }
  CHECK(stats.torn_tail);
  CHECK(stats.torn_tail_bytes == 8);

  uint64_t floor = reference[1500].offset;
  std::vector<uint64_t> offsets;
  scan_backward(
      f.path.string(),
      [&](const LineView& v) {
        offsets.push_back(v.offset);
        return true;
      },
      floor);
  REQUIRE(offsets.size() == 500);
  CHECK(offsets.back() == floor);

  int taken = 0;
  stats = scan_backward(f.path.string(), [&](const LineView&) { return ++taken < 3; });
  CHECK(stats.stopped);
  CHECK(taken == 3);
}

TEST_CASE("scan_backward handles a line longer than every chunk and a file with no newline") {
  std::string big(3 * 1024 * 1024, 'q');
  TempFile f("{\"a\":1}\n" + big + "\n{\"b\":2}\n");
  std::vector<size_t> sizes;
  scan_backward(f.path.string(), [&](const LineView& v) {
    sizes.push_back(v.bytes.size());
    return true;
  });
  CHECK(sizes == std::vector<size_t>{7, big.size(), 7});
  TempFile torn_only("no newline at all");
  int seen = 0;
  ScanStats stats = scan_backward(torn_only.path.string(), [&](const LineView&) { return ++seen > 0; });
  CHECK(seen == 0);
  CHECK(stats.torn_tail);
  CHECK(stats.torn_tail_bytes == 17);
}

}  // namespace line_scanner_unit
