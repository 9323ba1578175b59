// A label census extended over appended lines (extend_label_census) is the census a read of the whole grown
// file takes: entry by entry the same labels, turn and draft and lane flags, and the same skipped-line and
// out-of-range counts. Over every Claude Code log of the fixtures and the corpus, grown in steps: at a line
// boundary, then in the middle of a line (the first read ends on a torn line), and a line before each resend
// that supersedes an earlier opener (an appended opener turns a remembered one into a draft, and the record
// appended before it moves to the turn before).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cache/file_stamp.h"
#include "tests/unit/corpus_root.h"
#include "tools/search/search_label_census.h"

namespace label_census_extend_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

struct EntryFacts {
  uint64_t labels;
  int32_t turn;
  bool draft, foreign;
  bool operator==(const EntryFacts&) const = default;
};

std::vector<EntryFacts> expand(const LabelCensus& c) {
  std::vector<EntryFacts> out;
  for (const LabelCensus::Run& r : c.runs)
    out.insert(out.end(), r.entries, EntryFacts{r.labels, r.turn, r.draft, r.foreign});
  return out;
}

// The census a counted search takes of `t` (every line parsed sparsely, no sidecar).
LabelCensus census_of(const Transcript& t) {
  LabelCensusBuilder builder;
  ClassifyContext context;
  const std::optional<uint64_t> head = head_hash_of(t.path);
  const ClassifiedTranscript ct = load_classified_transcript(
      t, false, nullptr, {}, [&](const ClassifiedTranscript&, ClassifiedEntry& e, size_t) { builder.add(e); },
      ReadOptions::Payloads::skip, &context);
  return builder.take(ct, context, head);
}

void write_bytes(const fs::path& path, std::string_view bytes, bool append) {
  std::ofstream out(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void check_same(const LabelCensus& got, const LabelCensus& want) {
  CHECK(got.skipped_lines == want.skipped_lines);
  CHECK(got.values_out_of_range == want.values_out_of_range);
  const std::vector<EntryFacts> a = expand(got), b = expand(want);
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CHECK(a[i].labels == b[i].labels);
    CHECK(a[i].turn == b[i].turn);
    CHECK(a[i].draft == b[i].draft);
    CHECK(a[i].foreign == b[i].foreign);
  }
}

// The byte offsets of each line's start.
std::vector<size_t> line_starts(const std::string& bytes) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == '\n' && i + 1 < bytes.size()) starts.push_back(i + 1);
  return starts;
}

// The lines (0-based) at which a resend supersedes an earlier opener: the opener after a draft that shares
// its parent.
std::vector<size_t> resend_lines(const Transcript& t) {
  const ClassifiedTranscript ct = load_classified_transcript(t, false, nullptr);
  std::vector<size_t> out;
  for (size_t i = 0; i < ct.entries.size(); ++i) {
    if (!ct.entries[i].superseded_draft) continue;
    const std::string& parent = ct.entries[i].record->parent_uuid;
    for (const size_t opener : ct.turns.opener_index) {
      if (opener > i && ct.read.records[opener].parent_uuid == parent) {
        out.push_back(static_cast<size_t>(ct.read.records[opener].line - 1));
        break;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a census extended over appended lines is the census of the whole grown file") {
  const std::vector<fs::path> files = csift_test::claude_code_logs();
  REQUIRE(files.size() > 40);
  const fs::path grown = fs::temp_directory_path() / "csift-census-extend.jsonl";
  size_t extensions = 0, torn_resumes = 0, supersessions = 0, entries = 0;
  for (const fs::path& path : files) {
    CAPTURE(path.string());
    std::ostringstream all;
    all << std::ifstream(path, std::ios::binary).rdbuf();
    const std::string bytes = all.str();
    const std::vector<size_t> starts = line_starts(bytes);
    if (starts.size() < 3) continue;
    Transcript t = csift_test::transcript_of(path);
    const std::vector<size_t> resends = resend_lines(t);
    t.path = grown.string();
    // Growth points (byte offsets, ascending): a third in at a line start, the middle of a line further on,
    // and the start of the line before each resend.
    std::vector<size_t> cuts{starts[starts.size() / 3]};
    const size_t mid_line = starts[2 * starts.size() / 3];
    cuts.push_back(mid_line + (starts.size() > 2 * starts.size() / 3 + 1
                                   ? (starts[2 * starts.size() / 3 + 1] - mid_line) / 2
                                   : (bytes.size() - mid_line) / 2));
    for (const size_t line : resends)
      cuts.push_back(starts[line > 0 ? line - 1 : 0]);  // the resend is appended after another record
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    cuts.erase(
        std::remove_if(cuts.begin(), cuts.end(), [&](size_t c) { return c == 0 || c >= bytes.size(); }),
        cuts.end());
    write_bytes(grown, std::string_view(bytes).substr(0, cuts.front()), false);
    LabelCensus census = census_of(t);
    size_t at = cuts.front();
    for (size_t k = 1; k <= cuts.size(); ++k) {
      const size_t to = k < cuts.size() ? cuts[k] : bytes.size();
      CAPTURE(to);
      REQUIRE(census.resume != nullptr);
      const bool torn = census.resume->torn;
      const size_t old_entries = expand(census).size();
      write_bytes(grown, std::string_view(bytes).substr(at, to - at), true);
      ReadOptions options;
      options.payloads = ReadOptions::Payloads::skip;
      std::optional<LabelCensus> extended = extend_label_census(t, census, options);
      REQUIRE(extended.has_value());
      const LabelCensus whole = census_of(t);
      check_same(*extended, whole);
      ++extensions;
      torn_resumes += torn;
      size_t old_drafts = 0;
      const std::vector<EntryFacts> was = expand(census), now = expand(*extended);
      for (size_t i = 0; i < old_entries && i < now.size(); ++i)
        old_drafts += now[i].draft && !was[i].draft;
      supersessions += old_drafts;
      census = std::move(*extended);
      at = to;
    }
    entries += expand(census).size();
  }
  fs::remove(grown);
  CHECK(entries > 10000);
  CHECK(extensions > files.size());
  // The growth points above reach both kinds of resumption: after a torn line, and a remembered opener
  // superseded by an appended resend.
  CHECK(torn_resumes > 20);
  CHECK(supersessions > 0);
  MESSAGE("extensions " << extensions << ", after a torn line " << torn_resumes << ", supersessions "
                        << supersessions);
}

TEST_CASE("a census is not extended over a file rewritten in place") {
  const fs::path path = fs::temp_directory_path() / "csift-census-rewritten.jsonl";
  const std::string line =
      R"({"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00.000Z",)"
      R"("message":{"role":"user","content":"hello"}})"
      "\n";
  write_bytes(path, line, false);
  Transcript t = csift_test::transcript_of(path);
  const LabelCensus census = census_of(t);
  REQUIRE(census.resume != nullptr);
  std::string other = line;
  other.replace(other.find("hello"), 5, "howdy");
  write_bytes(path, other + line, false);
  CHECK_FALSE(extend_label_census(t, census, ReadOptions{}).has_value());
  fs::remove(path);
}

}  // namespace label_census_extend_unit
