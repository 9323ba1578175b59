// LineIndex against a plain count of the file's lines: fresh, extended over appends (a torn final line
// completed or not), across stride boundaries, and refused when the indexed part was rewritten; then the
// result memo extending a remembered index instead of recounting.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "core/cache/result_memo.h"
#include "core/scan/line_index.h"
#include "temp_store.h"

namespace line_index_unit {

using csift::LineIndex;

// Every line start by a byte walk: the reference.
std::vector<uint64_t> line_index_reference_starts(const std::string& bytes) {
  std::vector<uint64_t> starts;
  if (!bytes.empty()) starts.push_back(0);
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == '\n' && i + 1 < bytes.size()) starts.push_back(i + 1);
  return starts;
}

void line_index_matches(const LineIndex& index, const std::string& bytes) {
  const auto starts = line_index_reference_starts(bytes);
  CHECK(index.error.empty());
  CHECK(index.size == bytes.size());
  CHECK(index.lines() == starts.size());
  for (uint64_t line = 1; line <= starts.size(); ++line) {
    const LineIndex::Start s = index.start_at_or_before(line);
    REQUIRE(s.line >= 1);
    CHECK(s.line <= line);
    CHECK(line - s.line < index.stride);  // never further back than one stride
    CHECK(s.offset == starts[s.line - 1]);
  }
}

std::string line_index_lines(int from, int to) {
  std::string out;
  for (int i = from; i < to; ++i)
    out += "{\"n\":" + std::to_string(i) + "}\n";
  return out;
}

TEST_CASE("line index: counts and line starts, fresh and extended over appends") {
  csift_test::TempStore store;
  std::string bytes = line_index_lines(0, 23) + "{\"torn\":";  // ends in a torn line
  const std::string path = store.write("p/s.jsonl", bytes);
  const LineIndex fresh = csift::index_lines(path, nullptr, /*stride=*/5);
  line_index_matches(fresh, bytes);
  CHECK(fresh.lines() == 24);
  CHECK(fresh.starts.size() == 5);  // lines 1, 6, 11, 16, 21

  // The torn line completed, and more lines: the extension equals a fresh index of the grown file.
  std::ofstream(path, std::ios::app) << "1}\n" << line_index_lines(23, 40);
  bytes += "1}\n" + line_index_lines(23, 40);
  const LineIndex extended = csift::extend_line_index(path, fresh, nullptr);
  line_index_matches(extended, bytes);
  const LineIndex again = csift::index_lines(path, nullptr, 5);
  CHECK(extended.starts == again.starts);
  CHECK(extended.lines() == again.lines());

  // An empty file, and a file of one newline-less line.
  line_index_matches(csift::index_lines(store.write("p/e.jsonl", ""), nullptr, 5), "");
  line_index_matches(csift::index_lines(store.write("p/t.jsonl", "{}"), nullptr, 5), "{}");

  // The indexed part rewritten (its last newline gone): refused, never extended from the wrong bytes.
  store.write("p/s.jsonl", std::string(bytes.size() + 10, 'x'));
  CHECK_FALSE(csift::extend_line_index(path, extended, nullptr).error.empty());
}

TEST_CASE("line index: the result memo extends a remembered index over an append instead of recounting") {
  csift_test::TempStore store;
  const std::string path = store.write("p/s.jsonl", line_index_lines(0, 3));
  csift::ResultMemo memo(size_t{1} << 20);
  csift::ResultMemoUse use;
  constexpr csift::ResultKind<LineIndex> kind{"line-index-test"};
  int fresh = 0, extended = 0;
  const auto recall = [&] {
    return csift::recall_extend_or_compute(
        &memo, use, kind, path, "", std::nullopt,
        [&] {
          ++fresh;
          return csift::index_lines(path, nullptr);
        },
        [&](const LineIndex& was, const csift::FileStamp&) {
          ++extended;
          return std::optional<LineIndex>(csift::extend_line_index(path, was, nullptr));
        },
        [](const LineIndex& i) { return i.error.empty(); }, [](const LineIndex&) { return size_t{0}; });
  };
  CHECK(recall()->lines() == 3);
  CHECK(recall()->lines() == 3);
  std::ofstream(path, std::ios::app) << line_index_lines(3, 5);
  CHECK(recall()->lines() == 5);
  CHECK(recall()->lines() == 5);
  CHECK(fresh == 1);
  CHECK(extended == 1);
  CHECK(use.hits == 2);
  CHECK(use.extended == 1);
  CHECK(use.misses == 1);
  // Rewritten shorter: not a grown file, counted afresh.
  store.write("p/s.jsonl", line_index_lines(0, 1));
  CHECK(recall()->lines() == 1);
  CHECK(fresh == 2);
}

}  // namespace line_index_unit
