// Issue 10: honest answers and bounded resources under bad input — the scanners' line cap, numbers beyond a
// finite double, terminal escaping, a row window, irregular store entries, a missing Claude home, and the
// zero-match verdict when something in scope was not decided.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/harness/claude_code/record_parser.h"
#include "core/json/json_syntax.h"
#include "core/json/stored_json.h"
#include "core/record/transcript_reader.h"
#include "core/scan/line_scanner.h"
#include "core/store/targets.h"
#include "server/worker_pool.h"
#include "temp_store.h"
#include "tools/dispatch/row_window.h"
#include "tools/search/search_envelope.h"
#include "tools/search/search_types.h"

namespace honest_bounds_unit {

namespace fs = std::filesystem;
using namespace csift;

namespace {

struct BigFile {
  fs::path path;
  explicit BigFile(const std::string& content) {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("csift-honest-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".jsonl");
    std::ofstream(path, std::ios::binary) << content;
  }
  ~BigFile() { fs::remove(path); }
};

const std::string kHead = "{\"a\":1}\n";
const std::string kTail = "{\"b\":2}\n";
constexpr size_t kOver = kMaxHeldLineBytes + (size_t{5} << 20);  // 5 MiB past what a scanner holds

}  // namespace

TEST_CASE("an overlong line is delivered capped, counted, and the buffer stays bounded") {
  const BigFile f(kHead + std::string(kOver, 'x') + "\n" + kTail);
  std::vector<std::pair<uint64_t, uint64_t>> seen;  // (line, offset)
  std::vector<size_t> lengths;
  LineScanner scanner;
  const ScanStats stats = scanner.scan_lines(f.path.string(), [&](const LineView& v) {
    seen.emplace_back(v.line, v.offset);
    lengths.push_back(v.bytes.size());
    return true;
  });
  CHECK(stats.error.empty());
  CHECK(stats.lines == 3);
  CHECK_FALSE(stats.torn_tail);
  REQUIRE(seen.size() == 3);
  CHECK(lengths[1] == kMaxHeldLineBytes);  // longer than a record may be: refused as too large
  CHECK(lengths[1] > kMaxRecordLineBytes);
  CHECK(seen[2] == std::pair<uint64_t, uint64_t>{3, kHead.size() + kOver + 1});
  CHECK(scanner.buffer_bytes() <= kMaxHeldLineBytes + 1);

  // The backward scan finds the same line starts without holding the line whole.
  std::vector<std::pair<uint64_t, size_t>> back;  // (offset, length)
  const ScanStats b = scan_backward(f.path.string(), [&](const LineView& v) {
    back.emplace_back(v.offset, v.bytes.size());
    return true;
  });
  CHECK(b.error.empty());
  REQUIRE(back.size() == 3);
  CHECK(back[1] == std::pair<uint64_t, size_t>{kHead.size(), kMaxHeldLineBytes});
  CHECK(back[2].first == 0);

  // Every reader counts it as one skipped line and keeps the records around it.
  Transcript t;
  t.path = f.path.string();
  const ReadResult read = read_transcript(t, ReadOptions{});
  CHECK(read.lines == 3);
  CHECK(read.skipped_lines == 1);
  CHECK(read.records.size() == 2);
}

TEST_CASE("an overlong torn tail is reported without being held") {
  const BigFile f(kHead + std::string(kOver, 'y'));
  LineScanner scanner;
  const ScanStats stats = scanner.scan_lines(f.path.string(), [](const LineView&) { return true; });
  CHECK(stats.lines == 1);
  CHECK(stats.torn_tail);
  CHECK(stats.torn_tail_offset == kHead.size());
  CHECK(scanner.buffer_bytes() <= kMaxHeldLineBytes + 1);
  const ScanStats b = scan_backward(f.path.string(), [](const LineView&) { return true; });
  CHECK(b.torn_tail);
  CHECK(b.torn_tail_offset == kHead.size());
  CHECK(b.lines == 1);
}

TEST_CASE("numbers beyond a finite double are found exactly") {
  CHECK(json_number_overflows("1e400"));
  CHECK(json_number_overflows("-1e400"));
  CHECK(json_number_overflows("1.8e308"));
  CHECK(json_number_overflows("123e99999999999999999999999"));
  CHECK(json_number_overflows(std::string(400, '9')));
  CHECK_FALSE(json_number_overflows("1.7e308"));
  CHECK_FALSE(json_number_overflows("1e308"));
  CHECK_FALSE(json_number_overflows("1e-400"));
  CHECK_FALSE(json_number_overflows("0e999"));
  CHECK_FALSE(json_number_overflows("0.0001e310"));
  CHECK_FALSE(json_number_overflows("12345678901234567890123"));
  size_t n = 9;
  CHECK(json_object_well_formed(R"({"a":1e400,"b":[2E+999,3],"c":"1e400","d":1e300})", &n));
  CHECK(n == 2);
  CHECK(json_object_well_formed(R"({"a":1})", &n));
  CHECK(n == 0);
}

TEST_CASE("a record with an out-of-range number is read, the value absent and counted") {
  RecordParser p;
  Record r;
  const std::string line =
      R"({"type":"assistant","uuid":"a1","message":{"role":"assistant","id":"m1","content":[{"type":"text",)"
      R"("text":"hi"}],"usage":{"input_tokens":5,"output_tokens":1e400,"cache_read_input_tokens":1e300}}})";
  REQUIRE(p.parse(line, r) == ParseStatus::ok);
  CHECK(r.message.usage.input_tokens == 5);
  CHECK(r.message.usage.output_tokens == 0);
  CHECK(r.message.usage.cache_read_input_tokens == 0);  // beyond int64: absent too
  CHECK(p.values_out_of_range() == 1);
  CHECK(p.validate(line));
  CHECK(p.values_out_of_range() == 1);

  const auto extra = parse_stored_json(R"({"hookCount":1e400,"s":"1e400","n":[1,-2E999]})");
  REQUIRE(extra.is_object());
  CHECK(extra["hookCount"].is_null());
  CHECK(extra["s"] == "1e400");
  CHECK(extra["n"] == nlohmann::json::parse("[1,null]"));
}

TEST_CASE("control characters are escaped visibly, newline and tab kept") {
  CHECK(escape_terminal_controls("plain \xC3\xA9 text\n\tok") == "plain \xC3\xA9 text\n\tok");
  CHECK(escape_terminal_controls(std::string("\x1b[31mred\x07") + '\0' + "\r\x7f") ==
        "\\x1b[31mred\\x07\\x00\\x0d\\x7f");
  CHECK(escape_terminal_controls("a\xC2\x9B"
                                 "b") == "a\\x9bb");
  CHECK(escape_terminal_controls("\x1b", ControlEscape::json) == "\\u001b");
}

TEST_CASE("a row window cuts the longest text by code points and says what is left") {
  json row = {{"kind", "hit"},
              {"label", "u"},
              {"text",
               "\xC3\xA9"
               "bcdefghij"}};
  const auto field = longest_text_field(row);
  REQUIRE(field);
  CHECK(field->where.to_string() == "/text");
  CHECK(field->chars == 10);
  window_row_field(row, *field, 0, 3);
  CHECK(row["text"] ==
        "\xC3\xA9"
        "bc\xE2\x80\xA6 (+7 chars)");
  CHECK(row["window"]["chars_shown"] == 3);
  json again = {{"kind", "hit"},
                {"label", "u"},
                {"text",
                 "\xC3\xA9"
                 "bcdefghij"}};
  window_row_field(again, *field, 8, 5);
  CHECK(again["text"] == "(\xE2\x80\xA6 8 chars before) ij");
  CHECK(again["window"]["chars_shown"] == 2);
}

TEST_CASE("a worker that throws neither ends the pool nor the process") {
  WorkerPool pool(1, 4);
  std::atomic<int> ran{0};
  REQUIRE(pool.try_submit([] { throw std::runtime_error("boom"); }));
  REQUIRE(pool.try_submit([&] { ++ran; }));
  pool.wait_idle();
  CHECK(ran == 1);
}

TEST_CASE("entries named like transcripts that are not regular files are problems, never opened") {
  csift_test::TempStore store;
  const std::string sid = "aaaaaaaa-aaaa-4aaa-8aaa-00000000000a";
  const std::string dir = (store.projects() / "-p").string();
  store.write("-p/" + sid + ".jsonl", csift_test::user_line(sid));
  const std::string fifo = dir + "/cccccccc-cccc-4ccc-8ccc-00000000000c.jsonl";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  fs::create_directory(dir + "/dddddddd-dddd-4ddd-8ddd-00000000000d.jsonl");
  fs::create_symlink(dir + "/gone", dir + "/eeeeeeee-eeee-4eee-8eee-00000000000e.jsonl");
  fs::create_symlink(dir + "/ffffffff-ffff-4fff-8fff-00000000000f.jsonl",
                     dir + "/ffffffff-ffff-4fff-8fff-00000000000f.jsonl");
  std::vector<StoreProblem> problems;
  CHECK(list_sessions(dir, &problems).size() == 1);
  REQUIRE(problems.size() == 4);
  std::map<std::string, std::string> by_path;
  for (const auto& p : problems)
    by_path[fs::path(p.path).filename().string()] = p.reason;
  CHECK(by_path["cccccccc-cccc-4ccc-8ccc-00000000000c.jsonl"].find("FIFO") != std::string::npos);
  CHECK(by_path["dddddddd-dddd-4ddd-8ddd-00000000000d.jsonl"].find("directory") != std::string::npos);
  CHECK(by_path["eeeeeeee-eeee-4eee-8eee-00000000000e.jsonl"].find("dangling") != std::string::npos);
  CHECK(by_path["ffffffff-ffff-4fff-8fff-00000000000f.jsonl"].find("loop") != std::string::npos);

  TargetResolver resolver(store.env(), store.home().string());
  const Scope all = resolver.resolve(TargetRequest{});
  CHECK(all.transcripts.size() == 1);
  CHECK(all.problems.size() == 4);
  // A project whose only session-named entry is a FIFO is still seen, and reported.
  fs::create_directories(store.projects() / "-q");
  const std::string lone = (store.projects() / "-q" / "cccccccc-cccc-4ccc-8ccc-00000000000c.jsonl").string();
  REQUIRE(::mkfifo(lone.c_str(), 0644) == 0);
  CHECK(resolver.resolve(TargetRequest{}).problems.size() == 5);
}

TEST_CASE("a Claude home that does not exist is an error, not an empty store") {
  csift_test::TempStore store;
  // Refused when the resolver is made (the home is checked once, before any target is read).
  CHECK_THROWS_AS(TargetResolver(store.env(), (store.root / "missing").string()), ToolError);
}

TEST_CASE("a zero-match search is a definitive absence only when everything was read and decided") {
  json args = json::object();
  args["pattern"] = "zzqqxx";
  const SearchRequest req = parse_search_request(args);
  Scope scope;
  ToolContext ctx;
  const auto verdict = [&](const SearchScan& scan) {
    Envelope env = Envelope::make("search");
    diagnose_zero_match(env, req, scope, scan, ctx);
    return env.summary["definitive_absence"].get<bool>();
  };
  CHECK(verdict(SearchScan{}));
  SearchScan complex;
  complex.too_complex_lines = 1;
  CHECK_FALSE(verdict(complex));
  SearchScan unread;
  unread.unread.push_back({"/x.jsonl", "Permission denied"});
  CHECK_FALSE(verdict(unread));
  scope.problems.push_back({"/y.jsonl", "a FIFO"});
  CHECK_FALSE(verdict(SearchScan{}));
}

}  // namespace honest_bounds_unit
