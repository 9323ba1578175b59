// Codex's compressed rollouts and its excerpt rule: the zstd line stream (lines, offsets, a torn last line,
// several frames, a frame that does not decode or is cut short) and the digest's skipping of the header Codex
// writes before `Output:`. The readers over the fixtures: tests/cli/test_codex_fidelity.py.
#include <doctest/doctest.h>
#include <unistd.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/scan/zstd_lines.h"
#include "core/triage/codex_excerpt.h"

namespace codex_fidelity_unit {

using namespace csift;
namespace fs = std::filesystem;

std::string frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3));
  return out;
}

struct Scanned {
  std::vector<std::string> lines;
  std::vector<uint64_t> offsets, numbers;
  ZstdScanStats stats;
};

Scanned scan(const std::string& bytes) {
  const fs::path p = fs::temp_directory_path() / ("csift-zstd-" + std::to_string(::getpid()) + ".jsonl.zst");
  std::ofstream(p, std::ios::binary) << bytes;
  Scanned s;
  s.stats = scan_zstd_lines(p.string(), [&](const LineBlock& b) {
    return for_each_line(b, [&](const LineView& lv) {
      s.lines.emplace_back(lv.bytes);
      s.offsets.push_back(lv.offset);
      s.numbers.push_back(lv.line);
      return true;
    });
  });
  fs::remove(p);
  return s;
}

TEST_CASE("zstd lines: the decompressed stream's lines, offsets and torn tail, over several frames") {
  const Scanned s = scan(frame("{\"a\":1}\n{\"b\":2}\n") + frame("{\"c\":3}\n{\"d\""));
  CHECK(s.lines == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"});
  CHECK(s.offsets == std::vector<uint64_t>{0, 8, 16});
  CHECK(s.numbers == std::vector<uint64_t>{1, 2, 3});
  CHECK(s.stats.torn_tail);
  CHECK(s.stats.torn_tail_line == 4);
  CHECK(s.stats.torn_tail_offset == 24);
  CHECK(s.stats.torn_tail_text == "{\"d\"");
  CHECK(s.stats.broken.empty());
  CHECK(s.stats.error.empty());
  CHECK(is_zstd_path("a/rollout-x.jsonl.zst"));
  CHECK(!is_zstd_path("a/rollout-x.jsonl"));
}

TEST_CASE("zstd lines: a frame that does not decode, or is cut short, is named after the lines before it") {
  const std::string first = frame("{\"a\":1}\n");
  const Scanned garbage = scan(first + "not zstd at all\n");
  CHECK(garbage.lines == std::vector<std::string>{"{\"a\":1}"});
  CHECK(garbage.stats.broken.starts_with("corrupt zstd frame: "));
  CHECK(garbage.stats.broken_line == 2);
  CHECK(garbage.stats.broken_offset == 8);
  const std::string second = frame("{\"b\":2}\n{\"c\":3}\n");
  const Scanned cut = scan(first + second.substr(0, second.size() / 2));
  CHECK(cut.lines.front() == "{\"a\":1}");
  CHECK(cut.stats.broken.starts_with("truncated zstd frame"));
  CHECK(!cut.stats.torn_tail);
  CHECK(scan("").lines.empty());
}

TEST_CASE("codex excerpt: the exec output header is skipped, anything else kept") {
  const std::string out =
      "Chunk ID: 3f9a1c\nWall time: 0.2104 seconds\nProcess exited with code 127\nOriginal token count: 9\n"
      "Output:\nzsh:1: command not found: pnpm\n";
  CHECK(codex_excerpt_body(out) == "zsh:1: command not found: pnpm\n");
  CHECK(codex_excerpt_body("Exit code: 1\nWall time: 0.4 seconds\nOutput:\nboom\n") == "boom\n");
  // A line Codex does not write there: the text is the command's own, kept whole.
  const std::string own = "Note: x\nOutput:\ny\n";
  CHECK(codex_excerpt_body(own) == own);
  // Nothing after the header: the header is all there is to show.
  const std::string empty = "Chunk ID: 1\nProcess exited with code 1\nOutput:\n";
  CHECK(codex_excerpt_body(empty) == empty);
  CHECK(codex_excerpt_body("plain text") == "plain text");
}

}  // namespace codex_fidelity_unit
