// The Claude Code reader's chunked parallel read pushes what each chunk found in file order as it goes: the
// same records, skipped lines and declined refs, with the same line numbers, as a sequential read.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/harness/claude_code/record_parser.h"
#include "core/record/transcript_reader.h"
#include "tests/unit/corpus_root.h"

namespace ordered_read_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

// One line's outcome as a sink saw it: 'r' record, 's' skipped, 'd' declined.
struct OrderedEvent {
  char kind = 0;
  uint64_t line = 0;
  uint64_t offset = 0;
  std::string detail;  // a record's type + uuid, a skipped line's reason
  bool operator==(const OrderedEvent&) const = default;
};

struct OrderedEventSink final : RecordSink {
  std::vector<OrderedEvent> events;
  size_t stop_after = SIZE_MAX;  // records accepted before record() says stop
  size_t records = 0;
  bool record(Record&& r) override {
    events.push_back({'r', r.line, r.offset, r.type + "/" + r.uuid});
    return ++records < stop_after;
  }
  void skipped(SkippedLine&& s) override { events.push_back({'s', s.line, 0, s.reason}); }
  void declined(const LineRef& ref) override { events.push_back({'d', ref.line, ref.offset, ""}); }
};

const std::string kOrderedTornTail = "{\"type\":\"user\",\"message\":";

// A real session with a blank line, a malformed line and a torn tail spliced in.
struct OrderedTempFile {
  fs::path path;
  OrderedTempFile() {
    const fs::path source = csift_test::corpus_root() / "cli/b1/c09a9195f2/0/full.jsonl";
    std::ifstream in(source, std::ios::binary);
    std::stringstream all;
    all << in.rdbuf();
    std::string bytes = all.str();
    REQUIRE(bytes.size() > 200000);
    const size_t mid = bytes.find('\n', bytes.size() / 3) + 1;
    bytes.insert(mid, "\n{\"type\":\"user\",\"x\":[1,}\n");
    bytes += kOrderedTornTail;
    path = fs::temp_directory_path() / ("csift-ordered-" + std::to_string(::getpid()) + ".jsonl");
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~OrderedTempFile() { fs::remove(path); }
  Transcript transcript() const {
    Transcript t;
    t.path = path.string();
    return t;
  }
};

ReadOptions ordered_options(bool sequential) {
  ReadOptions opts;
  opts.want = [](std::string_view line) { return line_has_any_role(line); };
  opts.keep_declined = true;
  opts.census_types = true;
  opts.sequential = sequential;
  opts.parallel_threshold = 1024;
  opts.chunk_bytes = 16 * 1024;
  return opts;
}

}  // namespace

TEST_CASE("a chunked parallel read pushes the sequential read's lines in file order") {
  OrderedTempFile f;
  OrderedEventSink seq, par;
  uint64_t progress = 0;
  ReadOptions par_opts = ordered_options(false);
  par_opts.on_bytes = [&](uint64_t n) { progress = std::max(progress, n); };
  const ReadStats s = reader_for(f.transcript()).read(f.transcript(), ordered_options(true), seq);
  const ReadStats p = reader_for(f.transcript()).read(f.transcript(), par_opts, par);
  REQUIRE(s.error.empty());
  CHECK(par.events == seq.events);
  CHECK(p.lines == s.lines);
  CHECK(p.blank_lines == s.blank_lines);
  CHECK(p.non_candidate_lines == s.non_candidate_lines);
  CHECK(p.skipped_lines == s.skipped_lines);
  CHECK(p.skipped_lines == 2);  // the spliced malformed line and the torn tail
  CHECK(p.line_types == s.line_types);
  CHECK(p.torn_tail);
  CHECK(p.bytes == s.bytes);
  CHECK(progress + kOrderedTornTail.size() == p.bytes);  // progress counts the complete lines handed out
  CHECK_FALSE(p.stopped);
  CHECK(par.records + p.skipped_lines + p.blank_lines + p.non_candidate_lines == p.lines);
  for (size_t i = 1; i < par.events.size(); ++i)
    CHECK(par.events[i - 1].line < par.events[i].line);
}

TEST_CASE("a sink stopping a chunked parallel read sees nothing after its stop") {
  OrderedTempFile f;
  OrderedEventSink all;
  reader_for(f.transcript()).read(f.transcript(), ordered_options(true), all);
  REQUIRE(all.records > 100);
  for (const size_t stop_after : {size_t{2}, all.records / 2}) {
    OrderedEventSink par;
    par.stop_after = stop_after;
    const ReadStats p = reader_for(f.transcript()).read(f.transcript(), ordered_options(false), par);
    CHECK(p.stopped);
    CHECK_FALSE(p.cancelled);
    CHECK(par.records == stop_after);
    REQUIRE(par.events.size() <= all.events.size());
    CHECK(std::equal(par.events.begin(), par.events.end(), all.events.begin()));
    CHECK(par.events.back().kind == 'r');
    CHECK(p.lines < all.events.back().line);  // the counts cover what was read, not the whole file
  }
}

}  // namespace ordered_read_unit
