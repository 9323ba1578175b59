// The Claude Code reader: exact line accounting over hand-built files in a temp dir.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/harness/claude_code/claude_fields.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/record/transcript_reader.h"

namespace reader_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& bytes) {
    path = fs::temp_directory_path() /
           ("csift-reader-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++) + ".jsonl");
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { fs::remove(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
  Transcript transcript() const {
    Transcript t;
    t.path = path.string();
    return t;
  }
};

void check_invariant(const ReadResult& r) {
  CHECK(r.records.size() + r.skipped_lines + r.blank_lines + r.non_candidate_lines == r.lines);
  CHECK(r.skipped_lines == r.skipped.size());
}

const std::string kUser = R"({"type":"user","message":{"role":"user","content":"hi"}})";
const std::string kAssistant = R"({"type":"assistant","message":{"role":"assistant","content":"yo"}})";
const std::string kAttachment = R"({"type":"attachment","attachment":{"type":"hook_success"}})";

}  // namespace

TEST_CASE("every line accounted for: blank, malformed, torn tail, candidates") {
  std::string bytes = kUser + "\n" + "\n" + "   \n" + R"({"type":"user","uuid":)" + "\n" + kAttachment +
                      "\n" + "garbage line\n" + kAssistant + "\n" + R"({"type":"user","message":)";
  TempFile f(bytes);
  ReadOptions opts;
  opts.census_types = true;
  ReadResult r = read_transcript(f.transcript(), opts);
  CHECK(r.error.empty());
  CHECK(r.lines == 8);
  CHECK(r.blank_lines == 2);
  CHECK(r.records.size() == 3);
  CHECK(r.torn_tail);
  CHECK(r.skipped_lines == 3);
  REQUIRE(r.skipped.size() == 3);
  CHECK(r.skipped[0].line == 4);
  CHECK(r.skipped[0].reason.rfind("malformed JSON", 0) == 0);
  CHECK(r.skipped[1].line == 6);
  CHECK(r.skipped[2].line == 8);
  CHECK(r.skipped[2].reason == "torn final line (no newline)");
  REQUIRE(r.records.size() == 3);
  CHECK(r.records[0].line == 1);
  CHECK(r.records[0].offset == 0);
  CHECK(r.records[1].line == 5);
  CHECK(r.records[2].line == 7);
  CHECK(r.records[2].offset == bytes.find(kAssistant));
  CHECK(r.line_types["user"] == 1);
  CHECK(r.line_types["attachment"] == 1);
  CHECK(r.line_types["(blank)"] == 2);
  CHECK(r.line_types["(malformed)"] == 2);
  CHECK(r.line_types["(torn)"] == 1);
  uint64_t census = 0;
  for (auto& [k, n] : r.line_types)
    census += n;
  CHECK(census == r.lines);
  check_invariant(r);
}

TEST_CASE("want filter: declined lines are still checked, so the malformed count does not depend on it") {
  std::string subtly_bad = R"({"type":"attachment","x":[1,}})";
  std::string bytes =
      kUser + "\n" + kAttachment + "\n" + subtly_bad + "\n" + "not an object\n" + kAssistant + "\n";
  TempFile f(bytes);
  ReadOptions opts;
  opts.want = [](std::string_view line) { return line_has_any_role(line); };
  opts.census_types = true;
  ReadResult r = read_transcript(f.transcript(), opts);
  CHECK(r.records.size() == 2);
  CHECK(r.non_candidate_lines == 1);  // the attachment
  CHECK(r.skipped_lines == 2);        // the subtly bad line and "not an object"
  REQUIRE(r.skipped.size() == 2);
  CHECK(r.skipped[0].line == 3);
  CHECK(r.skipped[0].reason.rfind("malformed JSON: ", 0) == 0);
  CHECK(r.skipped[1].line == 4);
  CHECK(r.line_types["attachment"] == 1);
  check_invariant(r);

  ReadResult all = read_transcript(f.transcript(), ReadOptions{});
  CHECK(all.records.size() == 3);
  CHECK(all.skipped_lines == r.skipped_lines);
  check_invariant(all);
}

TEST_CASE("json.dumps spacing and invalid UTF-8 inside a string") {
  std::string spaced = R"({"type": "user", "message": {"role": "user", "content": "spaced"}})";
  std::string bad = "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"bad \xc3\x28 bytes\"}}";
  TempFile f(spaced + "\n" + bad + "\n");
  ReadOptions opts;
  opts.want = [](std::string_view line) { return line_has_role(line, "user"); };
  ReadResult r = read_transcript(f.transcript(), opts);
  REQUIRE(r.records.size() == 2);
  CHECK(r.records[0].message.content_string == "spaced");
  // The invalid byte does not cost the record: it is read from a repaired copy and marked.
  CHECK(r.records[1].line == 2);
  CHECK(r.records[1].text_repaired);
  CHECK(r.records[1].message.content_string == "bad \xef\xbf\xbd( bytes");
  CHECK(r.skipped_lines == 0);
  check_invariant(r);
}

TEST_CASE("a 10 MB line and a file large enough for parallel chunks") {
  std::string big_text(10u << 20, 'x');
  std::string big = R"({"type":"user","message":{"role":"user","content":")" + big_text + R"("}})";
  std::string bytes;
  const int kLines = 60000;
  for (int i = 0; i < kLines; ++i) {
    bytes += R"({"type":"assistant","uuid":"a)" + std::to_string(i) +
             R"(","message":{"role":"assistant","content":"pad pad pad pad pad"}})" + "\n";
    if (i == 100) bytes += big + "\n";
    if (i % 1000 == 0) bytes += "\n";
  }
  TempFile f(bytes);
  ReadResult r = read_transcript(f.transcript(), ReadOptions{});
  CHECK(r.error.empty());
  CHECK(r.lines == kLines + 1 + 60);
  CHECK(r.blank_lines == 60);
  REQUIRE(r.records.size() == kLines + 1);
  // a0 (line 1), a blank (line 2), a1..a100 (lines 3..102), then the big line.
  CHECK(r.records[101].message.content_string.size() == big_text.size());
  CHECK(r.records[101].line == 103);
  // File order and exact line numbers survive the chunk merge.
  bool ordered = true;
  for (size_t i = 1; i < r.records.size(); ++i)
    ordered = ordered && r.records[i].line > r.records[i - 1].line;
  CHECK(ordered);
  CHECK(r.records.back().uuid == "a" + std::to_string(kLines - 1));
  check_invariant(r);
}

TEST_CASE("cancel stops the read and reports it") {
  TempFile f(kUser + "\n" + kAssistant + "\n");
  CancelToken cancel;
  cancel.cancelled = true;
  ReadOptions opts;
  opts.cancel = &cancel;
  ReadResult r = read_transcript(f.transcript(), opts);
  CHECK(r.cancelled);
}

TEST_CASE("a missing file reports an error") {
  Transcript t;
  t.path = "/nonexistent/csift/none.jsonl";
  ReadResult r = read_transcript(t, ReadOptions{});
  CHECK_FALSE(r.error.empty());
  CHECK(r.records.empty());
}

}  // namespace reader_unit
