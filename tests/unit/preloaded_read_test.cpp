// A file read once (file_bytes.h): the byte screen reads a small file whole, and a read given those bytes
// (ReadOptions::preloaded), and fetch_lines over them, must answer exactly as reading the file again would —
// the same records, skipped lines with their reasons, declined lines and counts — on the corpus logs, whole
// and damaged, with a torn tail. The skim's counts must be read()'s on both of its paths: a file read whole
// and a file too large for that, screened as a stream.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/harness/claude_code/claude_code_reader.h"
#include "core/record/transcript_reader.h"
#include "core/scan/file_bytes.h"
#include "core/scan/line_fetch.h"
#include "core/scan/substring_finder.h"
#include "tests/unit/corpus_root.h"
#include "tests/unit/temp_store.h"

namespace preloaded_read_unit {

using namespace csift;

namespace {

constexpr uint64_t kWholeBelow = uint64_t{8} << 20;  // the reader's kSkimWholeBelow

// Every fifth line cut short (malformed), one number out of range, a CRLF line, and a torn tail.
std::string damaged(const std::string& bytes) {
  return csift_test::with_cut_lines(bytes, 5, 2) +
         "{\"type\":\"user\",\"n\":1e400}\r\n{\"type\":\"user\",\"message\":";
}

std::vector<std::filesystem::path> corpus_logs(size_t most) {
  std::vector<std::filesystem::path> files = csift_test::small_corpus_logs(2u << 20);
  if (files.size() > most) files.resize(most);
  return files;
}

// A read, written out for comparison.
std::string described(const ReadResult& r) {
  std::ostringstream s;
  s << "lines " << r.lines << " blank " << r.blank_lines << " declined " << r.non_candidate_lines
    << " skipped " << r.skipped_lines << " out-of-range " << r.values_out_of_range << " torn " << r.torn_tail
    << "@" << r.torn_tail_offset << " bytes " << r.bytes << " error '" << r.error << "'\n";
  for (const Record& rec : r.records)
    s << "R " << rec.line << " " << rec.offset << " " << rec.length << " " << rec.type << " " << rec.uuid
      << " " << rec.message.blocks.size() << "\n";
  for (const SkippedLine& k : r.skipped)
    s << "S " << k.line << " " << k.reason << "\n";
  for (const LineRef& d : r.declined)
    s << "D " << d.line << " " << d.offset << " " << d.length << "\n";
  for (const auto& [type, n] : r.line_types)
    s << "T " << type << " " << n << "\n";
  return s.str();
}

}  // namespace

TEST_CASE("a read from the bytes the screen read equals a read of the file") {
  csift_test::TempStore store;
  const std::vector<std::filesystem::path> files = corpus_logs(30);
  REQUIRE(files.size() >= 20);
  size_t n = 0, records = 0, skipped = 0, declined = 0;
  for (const auto& path : files) {
    INFO(path.string());
    const std::string content = damaged(csift_test::file_bytes_of(path));
    Transcript t;
    t.path = store.write("p/" + std::to_string(n++) + ".jsonl", content);
    const auto bytes = read_small_file(t.path, kWholeBelow);
    REQUIRE(bytes);
    CHECK(bytes->view() == content);
    for (const bool filtered : {false, true}) {
      ReadOptions from_file;
      from_file.keep_declined = true;
      from_file.census_types = true;
      if (filtered)
        from_file.want = [](std::string_view line) {
          return line.find("\"assistant\"") != std::string::npos;
        };
      ReadOptions from_bytes = from_file;
      from_bytes.preloaded = bytes;
      const ReadResult want = read_transcript(t, from_file);
      const ReadResult got = read_transcript(t, from_bytes);
      CHECK(described(got) == described(want));
      records += want.records.size();
      skipped += want.skipped.size();
      declined += want.declined.size();
      if (!filtered || want.declined.empty()) continue;
      // Declined lines fetched from the bytes are the file's lines.
      std::string a, b;
      const auto into = [](std::string& out) {
        return [&out](const LineRef& ref, std::string_view line) {
          out += std::to_string(ref.line) + ":" + std::string(line) + "\n";
        };
      };
      CHECK(fetch_lines(t.path, want.declined, into(a)).empty());
      CHECK(fetch_lines(*bytes, t.path, want.declined, into(b)).empty());
      CHECK(a == b);
    }
  }
  // The comparison saw every kind of line.
  CHECK(records > 1000);
  CHECK(skipped > 100);
  CHECK(declined > 1000);
}

TEST_CASE("fetch_lines over bytes refuses a line that is not where the ref says") {
  const std::string content = "{\"a\":1}\n{\"b\":2}\n";
  FileBytes bytes;
  bytes.size = content.size();
  bytes.data = std::make_unique<char[]>(bytes.size);
  std::copy(content.begin(), content.end(), bytes.data.get());
  std::string seen;
  const auto keep = [&](const LineRef&, std::string_view line) { seen += std::string(line) + "|"; };
  CHECK(fetch_lines(bytes, "f.jsonl", {{1, 0, 7}, {2, 8, 7}}, keep).empty());
  CHECK(seen == "{\"a\":1}|{\"b\":2}|");
  CHECK(fetch_lines(bytes, "f.jsonl", {{2, 8, 5}}, keep) ==
        "f.jsonl changed while it was read: line 2 is no longer at byte 8");
  CHECK(fetch_lines(bytes, "f.jsonl", {{3, 16, 7}}, keep) ==
        "f.jsonl changed while it was read: line 3 is no longer at byte 16");
}

TEST_CASE("read_small_file: only a regular file below the bound") {
  csift_test::TempDir dir;
  const std::string small = dir.write("a.jsonl", "{\"a\":1}\n");
  CHECK(read_small_file(small, 9) != nullptr);
  CHECK(read_small_file(small, 8) == nullptr);  // 8 bytes is not below 8
  CHECK(read_small_file((dir.root / "missing.jsonl").string(), kWholeBelow) == nullptr);
  CHECK(read_small_file(dir.root.string(), kWholeBelow) == nullptr);  // a directory
  const std::string empty = dir.write("e.jsonl", "");
  const auto none = read_small_file(empty, kWholeBelow);
  REQUIRE(none);
  CHECK(none->size == 0);
}

// The skim's two paths — a file read whole, and one of kWholeBelow bytes or more screened as a stream —
// count the lines read() skips, and only the first hands its bytes on with a hit.
TEST_CASE("the skim counts what read() skips, whole or streamed, and hands on the bytes it read") {
  csift_test::TempStore store;
  std::string small_content, large_content;
  for (const auto& path : corpus_logs(200)) {
    const std::string d = damaged(csift_test::file_bytes_of(path));
    const std::string whole_lines = d.substr(0, d.rfind('\n') + 1);  // without the torn tail
    if (small_content.size() < (1u << 20)) small_content += whole_lines;
    large_content += whole_lines;
    if (large_content.size() > kWholeBelow + (1u << 20)) break;
  }
  REQUIRE(large_content.size() > kWholeBelow);
  const SubstringFinder absent({"xylophonezebraquartz"}, false);
  const SubstringFinder present({"\"type\""}, false);
  const auto no_share = [](std::string_view) { return 0.5; };
  for (const std::string& content : {small_content + "{\"torn\":", large_content + "{\"torn\":"}) {
    const bool whole = content.size() < kWholeBelow;
    CAPTURE(whole);
    Transcript t;
    t.path = store.write(std::string("p/") + (whole ? "small" : "large") + ".jsonl", content);
    const ReadResult read = read_transcript(t, ReadOptions{});
    REQUIRE(read.skipped_lines > 10);
    const SkimResult none = claude_code_reader().skim(
        t, [&](std::string_view s) { return absent.contains(s); }, no_share, nullptr);
    CHECK_FALSE(none.may_match);
    CHECK(none.skipped_lines == read.skipped_lines);
    CHECK(none.values_out_of_range == read.values_out_of_range);
    CHECK(none.torn_tail);
    CHECK(none.torn_tail_offset == read.torn_tail_offset);
    CHECK(none.bytes == nullptr);
    const SkimResult uncounted = claude_code_reader().skim(
        t, [&](std::string_view s) { return absent.contains(s); }, no_share, nullptr,
        /*count_malformed=*/false);
    CHECK(uncounted.skipped_lines == 1);  // the torn tail alone
    const SkimResult hit = claude_code_reader().skim(
        t, [&](std::string_view s) { return present.contains(s); }, no_share, nullptr);
    CHECK(hit.may_match);
    CHECK(hit.needle_line_share == 0.5);
    CHECK((hit.bytes != nullptr) == whole);
    if (hit.bytes) CHECK(hit.bytes->view() == content);
  }
}

}  // namespace preloaded_read_unit
