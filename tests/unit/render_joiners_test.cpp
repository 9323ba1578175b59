// The joiners listed for each synthesized-text render (core/harness/claude_code/render_joiners.h) against the
// renders themselves: every record of the fixtures and the corpus whose line holds a listed marker is
// classified, and each run of needle-safe bytes in each of its units' texts is cut into every needle of 3 to
// 10 bytes. A needle the render's joiners confine must be in the record's own bytes or, for a piece copied
// from its tool partner (a rejection's plan path), in its file: else search, which drops the marker for such
// a needle, would miss the unit. A joiner missing from a list shows here as a confined needle that straddles
// it.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/harness/claude_code/fixed_texts.h"
#include "core/harness/claude_code/render_joiners.h"
#include "core/regex/needles.h"
#include "core/store/classified_transcript.h"
#include "tests/unit/corpus_root.h"
#include "tests/unit/temp_store.h"

namespace render_joiners_unit {

using namespace csift;
namespace fs = std::filesystem;
namespace cc = claude_code_text;

namespace {

constexpr size_t kShortest = 3, kLongest = 10;

std::vector<std::string_view> listed_markers() {
  std::vector<std::string_view> out = {cc::kCommandTagPrefix, cc::kTaskNotificationOpen, cc::kRejectionHead,
                                       cc::kCompactBoundarySubtype, cc::kAgentsStoppedTail};
  for (const std::string_view m : cc::kAuqAnswerMarkers)
    out.push_back(m);
  return out;
}

// Every substring of `line` of kShortest..kLongest bytes.
std::unordered_set<std::string_view> grams_of(std::string_view line) {
  std::unordered_set<std::string_view> out;
  for (size_t at = 0; at < line.size(); ++at)
    for (size_t n = kShortest; n <= kLongest && at + n <= line.size(); ++n)
      out.insert(line.substr(at, n));
  return out;
}

// A unit under a gated leaf that search reaches only with a marker of its own, one every such record's line
// holds and no needle drops (synthesized_markers: "\"subtype\"" for every system subtype, "turn_duration",
// …): a line holding one of ours as well is parsed for it whatever ours confine.
bool searched_under_own_marker(const Unit& u) {
  return std::all_of(u.labels.begin(), u.labels.end(), [](Label l) {
    return l == Label::harness_meta_system || l == Label::harness_meta_turn_duration ||
           l == Label::harness_meta_stop_hooks || l == Label::harness_meta_snapshot ||
           l == Label::harness_meta_away_summary;
  });
}

struct Tally {
  uint64_t records = 0, needles = 0, from_partner = 0;
  uint64_t written = 0;  // needles the joiners do not confine and the line lacks: text the render wrote
};

// Checks each confined needle of `text` (a unit of a record on `line`, in the file `file`).
void check_text(std::string_view text, const RenderJoiners& joiners, std::string_view line,
                const std::unordered_set<std::string_view>& grams, std::string_view file, Tally& tally) {
  for (size_t at = 0; at < text.size();) {
    if (!needle_safe_byte(static_cast<unsigned char>(text[at]))) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < text.size() && needle_safe_byte(static_cast<unsigned char>(text[end])))
      ++end;
    for (size_t i = at; i < end; ++i) {
      for (size_t n = kShortest; n <= kLongest && i + n <= end; ++n) {
        const std::string_view needle = text.substr(i, n);
        if (!needle_confined(needle, false, joiners)) {
          tally.written += grams.count(needle) == 0;
          continue;
        }
        ++tally.needles;
        if (grams.count(needle)) continue;
        ++tally.from_partner;
        CAPTURE(std::string(needle));
        CAPTURE(std::string(text.substr(0, 300)));
        CAPTURE(std::string(line.substr(0, 300)));
        CHECK(file.find(needle) != std::string_view::npos);
      }
    }
    at = end;
  }
}

// Classifies the log at `path` and checks each unit of each line holding a listed marker.
void check_log(const fs::path& path, std::map<std::string_view, Tally>& tallies) {
  const std::string bytes = csift_test::file_bytes_of(path);
  const std::vector<std::string_view> markers = listed_markers();
  if (std::none_of(markers.begin(), markers.end(),
                   [&](std::string_view m) { return bytes.find(m) != std::string::npos; }))
    return;
  CAPTURE(path.string());
  const ClassifiedTranscript ct = load_classified_transcript(csift_test::transcript_of(path), false, nullptr);
  for (const ClassifiedEntry& e : ct.entries) {
    const size_t begin = e.record->offset, nl = bytes.find('\n', begin);
    const std::string_view line =
        std::string_view(bytes).substr(begin, nl == std::string::npos ? nl : nl - begin);
    std::optional<std::unordered_set<std::string_view>> grams;
    for (const std::string_view m : markers) {
      if (line.find(m) == std::string_view::npos) continue;
      if (!grams) grams = grams_of(line);
      Tally& tally = tallies[m];
      ++tally.records;
      CAPTURE(e.record->line);
      for (const Unit& u : e.units)
        if (!searched_under_own_marker(u))
          check_text(u.text, *cc::render_joiners_of(m), line, *grams, bytes, tally);
    }
  }
}

void report(std::string_view m, const Tally& t) {
  MESSAGE(std::string(m) << ": " << t.records << " records, " << t.needles << " confined needles ("
                         << t.from_partner << " found beyond the line), " << t.written << " written");
}

}  // namespace

TEST_CASE("render joiners: every needle a render's joiners confine is in its record's bytes") {
  const std::vector<fs::path> files = csift_test::claude_code_logs();
  REQUIRE(files.size() > 40);
  std::map<std::string_view, Tally> tallies;
  for (const fs::path& path : files)
    check_log(path, tallies);
  // Each render was met, and each but the slash command's met writing text of its own (needles its line
  // lacks, for which no marker is dropped). The slash names of the fixtures and the corpus carry their "/"
  // already, so that render writes only a space there (the hand-built lines below have one without).
  for (const std::string_view m :
       {cc::kCommandTagPrefix, cc::kTaskNotificationOpen, cc::kRejectionHead, cc::kCompactBoundarySubtype,
        cc::kAuqAnswerMarkers[0], cc::kAgentsStoppedTail}) {
    CAPTURE(std::string(m));
    report(m, tallies[m]);
    CHECK(tallies[m].records > 0);
    CHECK(tallies[m].needles > 0);
    if (m != cc::kCommandTagPrefix) CHECK(tallies[m].written > 0);
  }
}

TEST_CASE("render joiners: the shapes no fixture holds (a slash name without its /, a lone stopped agent)") {
  csift_test::TempStore store;
  const std::string session = "aaaaaaaa-0000-4000-8000-0000000000b5";
  auto line = [&](const std::string& uuid, const std::string& content) {
    return R"({"type":"user","uuid":")" + uuid + R"(","parentUuid":null,"sessionId":")" + session +
           R"(","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":)" + content +
           "}}\n";
  };
  const std::string path = store.write(
      "-home-dev-shapes/" + session + ".jsonl",
      line("u2", R"("<command-name>model</command-name>\n<command-args>opus  4\nfast</command-args>")") +
          line("u3", R"("Background agent \"Audit log calls\" was stopped by the user.")"));
  std::map<std::string_view, Tally> tallies;
  check_log(path, tallies);
  for (const std::string_view m : {cc::kCommandTagPrefix, cc::kAgentsStoppedTail}) {
    CAPTURE(std::string(m));
    report(m, tallies[m]);
    CHECK(tallies[m].records == 1);
    CHECK(tallies[m].needles > 0);
    CHECK(tallies[m].written > 0);  // "/model", "[subagent"
  }
}

}  // namespace render_joiners_unit
