// The block screen (block_screen.h), whose validator finds each line's end itself, against the definition it
// must keep — the needle predicate over the whole block, then, when it refuses, memchr per line and
// json_object_well_formed on each — on hand-made blocks of every kind of line, on the real logs of
// ../shared/corpus (whole and with damaged lines), and through ClaudeCodeReader::skim and skim_from on files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/harness/claude_code/block_screen.h"
#include "core/harness/claude_code/claude_code_reader.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/scan/line_scanner.h"
#include "core/scan/substring_finder.h"
#include "tests/unit/corpus_root.h"
#include "tests/unit/temp_store.h"

namespace block_screen_unit {

using namespace csift;

// The definition, written out independently of the screen (it finds every line's end with memchr).
BlockScreen two_pass_screen(std::string_view block, const SubstringFinder& needles) {
  BlockScreen screen;
  if (needles.contains(block)) {
    screen.may_match = true;
    return screen;
  }
  size_t at = 0;
  while (at < block.size()) {
    const void* nl = std::memchr(block.data() + at, '\n', block.size() - at);
    const size_t stop = nl ? static_cast<size_t>(static_cast<const char*>(nl) - block.data()) : block.size();
    std::string_view line = block.substr(at, stop - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t out_of_range = 0;
    const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (!blank && (line.size() > kMaxRecordLineBytes || !json_object_well_formed(line, &out_of_range)))
      ++screen.malformed;
    screen.out_of_range += out_of_range;
    at = stop + 1;
  }
  return screen;
}

// Compares the screen, and the count alone, with the definition.
void check_block(std::string_view block, const SubstringFinder& needles) {
  const BlockScreen want = two_pass_screen(block, needles);
  const BlockScreen got = screen_block(block, [&](std::string_view s) { return needles.contains(s); });
  CHECK(got.may_match == want.may_match);
  CHECK(got.malformed == want.malformed);
  CHECK(got.out_of_range == want.out_of_range);
  const BlockScreen counted = count_malformed_lines(block);
  const BlockScreen all_lines = two_pass_screen(block, SubstringFinder({"\x01\x02"}, false));
  CHECK(counted.malformed == all_lines.malformed);
  CHECK(counted.out_of_range == all_lines.out_of_range);
}

// json_object_line_end at each line start of a block: the line's '\n' exactly when json_object_well_formed
// accepts the line, with the same out-of-range count. Returns the lines checked.
size_t check_line_ends(std::string_view block) {
  size_t lines = 0;
  for (size_t at = 0; at < block.size(); ++lines) {
    const size_t nl = std::min(block.find('\n', at), block.size());
    const std::string_view line = block.substr(at, nl - at);
    size_t want_range = 0, got_range = 0;
    const bool well_formed = json_object_well_formed(line, &want_range);
    const char* end = json_object_line_end(line.data(), block.data() + block.size(), &got_range);
    CHECK_MESSAGE((end != nullptr) == well_formed, std::string(line.substr(0, 200)));
    if (end) CHECK(end == block.data() + nl);
    CHECK(got_range == want_range);
    at = nl + 1;
  }
  return lines;
}

const SubstringFinder& absent_needle() {
  static const SubstringFinder f({"xylophonezebraquartz"}, false);
  return f;
}

const std::string kGood = R"({"type":"user","message":{"role":"user","content":"hi"}})";

TEST_CASE("block screen: hand-made lines, counted as the two passes count them") {
  const std::string block = kGood + "\n" +       // well formed
                            "{\"a\":\n" +        // truncated
                            "\n" +               // blank: not a line to skip
                            "   \t\n" +          // blank with spaces
                            kGood + "\r\n" +     // CRLF
                            "{\"a\":1}\r\r\n" +  // two CRs: the first is inside the line
                            "[1,2]\n" +          // not an object
                            "{\"n\":1e400}\n" +  // out of range, still well formed
                            "{\"n\":[-2e999,1e-999,1.7e308]}\n" +
                            "{\"n\":1e400,}\n" +         // out of range, malformed
                            "{\"s\":\"tab\there\"}\n" +  // raw control character
                            "not json at all\n" +
                            // Tokens cut by a newline: every piece is a malformed line of its own.
                            "{\"a\":\"x\n\"}\n" + "{\"a\":\"\\\n\"}\n" + "{\"a\":tr\nue}\n" +
                            "{\"a\":1\n2}\n" + "{\n}\n" + "{\"a\":1} \t\r\n" + "{\"a\":1}x\n" + kGood + "\n";
  const BlockScreen want = two_pass_screen(block, absent_needle());
  CHECK(want.malformed == 16);
  CHECK(want.out_of_range == 2);
  check_block(block, absent_needle());
  CHECK(check_line_ends(block) == 25);
  // As the scanner never delivers it, but the screen must not read past: no newline after the last line.
  check_block(std::string_view(block).substr(0, block.size() - 1), absent_needle());
  check_block(block + "{\"a\":", absent_needle());
  check_block("", absent_needle());
  check_block("\n\n\n", absent_needle());
}

TEST_CASE("block screen: a line over the record limit is malformed without being validated") {
  std::string huge = "{\"s\":\"";
  huge.append(kMaxRecordLineBytes, 'x');
  huge += "\"}\n";
  const std::string block = kGood + "\n" + huge + kGood + "\n";
  const BlockScreen got = screen_block(block, [](std::string_view) { return false; });
  CHECK(got.malformed == 1);
  CHECK(two_pass_screen(block, absent_needle()).malformed == 1);
}

TEST_CASE("block screen: a needle in the first, a middle or the last line") {
  const SubstringFinder needle({"NEEDLE"}, false);
  std::vector<std::string> lines(200, kGood + "\n");
  lines[50] = "{\"broken\n";
  for (size_t where : {size_t{0}, size_t{1}, size_t{99}, size_t{198}, size_t{199}}) {
    std::vector<std::string> with = lines;
    with[where] = R"({"text":"a NEEDLE here"})"
                  "\n";
    std::string block;
    for (const std::string& l : with)
      block += l;
    CHECK(two_pass_screen(block, needle).may_match);
    check_block(block, needle);
    const BlockScreen got = screen_block(block, [&](std::string_view s) { return needle.contains(s); });
    CHECK(got.may_match);
    CHECK(got.malformed == 0);  // a block with a needle reports no counts: the full read validates it
  }
  // The needle as the last bytes of the block, before and without its newline.
  const std::string tail = kGood + "\n" +
                           R"({"x":"ends in NEEDLE"})"
                           "\n";
  check_block(tail, needle);
  check_block(tail.substr(0, tail.size() - 1) + "NEEDLE", needle);
}

// Lines of a real log with every seventh one cut short (damage to count).
std::string damaged(const std::string& bytes) {
  return csift_test::with_cut_lines(bytes, 7, 3);
}

std::vector<std::filesystem::path> corpus_logs() {
  return csift_test::small_corpus_logs(4u << 20);
}

std::string read_all(const std::filesystem::path& p) {
  return csift_test::file_bytes_of(p);
}

TEST_CASE("block screen: every corpus log, whole and damaged, absent and present needles") {
  const std::vector<std::filesystem::path> files = corpus_logs();
  REQUIRE(files.size() > 20);
  const SubstringFinder common({"\"type\":\"assistant\""}, false);
  const SubstringFinder several({"xylophonezebraquartz", "ENOSPC", "<command-"}, false);
  uint64_t malformed = 0;
  size_t checked_lines = 0;
  for (const auto& path : files) {
    const std::string bytes = read_all(path);
    const size_t whole_lines = bytes.rfind('\n') == std::string::npos ? 0 : bytes.rfind('\n') + 1;
    const std::string_view lines = std::string_view(bytes).substr(0, whole_lines);
    INFO(path.string());
    check_block(lines, absent_needle());
    check_block(lines, common);
    check_block(lines, several);
    const std::string broken = damaged(std::string(lines));
    check_block(broken, absent_needle());
    checked_lines += check_line_ends(broken);
    malformed += two_pass_screen(broken, absent_needle()).malformed;
  }
  CHECK(malformed > 1000);  // the damage was counted, so the comparison above compared something
  CHECK(checked_lines > 10000);
}

// ClaudeCodeReader::skim and skim_from against the two passes over the blocks the scanner delivers.
TEST_CASE("block screen: the reader's skim counts what the two passes count, file by file") {
  csift_test::TempStore store;
  std::vector<std::filesystem::path> files = corpus_logs();
  REQUIRE(files.size() > 20);
  files.resize(std::min<size_t>(files.size(), 40));
  const SubstringFinder& none = absent_needle();
  const auto refuses = [&](std::string_view s) { return none.contains(s); };
  const auto no_share = [](std::string_view) { return 0.0; };
  size_t n = 0;
  for (const auto& path : files) {
    const std::string bytes = damaged(read_all(path)) + "{\"torn\":";
    Transcript t;
    t.path = store.write("p/" + std::to_string(n++) + ".jsonl", bytes);
    BlockScreen want;
    LineScanner scanner;
    scanner.scan(t.path, [&](const LineBlock& block) {
      const BlockScreen b = two_pass_screen(block.data, none);
      want.malformed += b.malformed;
      want.out_of_range += b.out_of_range;
      return true;
    });
    INFO(path.string());
    const SkimResult whole = claude_code_reader().skim(t, refuses, no_share, nullptr);
    CHECK_FALSE(whole.may_match);
    CHECK(whole.torn_tail);
    CHECK(whole.skipped_lines == want.malformed + 1);
    CHECK(whole.values_out_of_range == want.out_of_range);
    const SkimResult from_start = claude_code_reader().skim_from(t, 0, refuses, no_share, nullptr);
    CHECK(from_start.skipped_lines == whole.skipped_lines);
    const SubstringFinder present({"\"type\""}, false);
    const SkimResult hit = claude_code_reader().skim(
        t, [&](std::string_view s) { return present.contains(s); }, no_share, nullptr);
    CHECK(hit.may_match);
  }
}

}  // namespace block_screen_unit
