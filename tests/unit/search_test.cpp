// search's pipeline pieces over the fixture store: request parsing and conflicts, the byte prefilter and
// whole-file gate, the scan (spans, surviving labels, turn/time windows), exchange completion and the cap.
#include <doctest/doctest.h>

#include "core/harness/claude_code/claude_code_reader.h"

#include <set>

#include "core/base/error.h"
#include "core/search/search_prefilter.h"
#include "tools/search/search.h"
#include "tools/search/search_exchange.h"
#include "tools/search/search_types.h"

namespace search_unit {

using namespace csift;

namespace {

const std::string kBasics = "11111111-1111-4111-8111-000000000001";
const std::string kDamaged = "77777777-7777-4777-8777-000000000007";

json args_for(const std::string& pattern, const std::string& target) {
  json a = json::object();
  a["pattern"] = pattern;
  a["targets"] = json::array({"@" + target});
  a["claude_home"] = std::string(CSIFT_SOURCE_DIR) + "/fixtures/home";
  return a;
}

SearchScan scan_of(const json& args) {
  ToolContext ctx;
  ctx.env = Environment::from_process();
  const SearchRequest req = parse_search_request(args);
  const Scope scope = resolve_span_scope(args, ctx);
  return run_search_scan(req, scope, ctx);
}

}  // namespace

TEST_CASE("search request: modes, signed max_count and conflicts") {
  json a = args_for("x", kBasics);
  a["max_count"] = -3;
  a["count_only"] = true;
  const SearchRequest req = parse_search_request(a);
  CHECK(req.mode == SearchMode::count_only);
  CHECK(req.max_count == -3);
  a["sessions_with_matches"] = true;
  CHECK_THROWS_AS(parse_search_request(a), ToolError);
  json b = args_for("(\\w)\\1", kBasics);
  CHECK_THROWS_AS(parse_search_request(b), ToolError);
  json c = args_for("@abc", kBasics);
  CHECK_THROWS_AS(parse_search_request(c), ToolError);
  json d = args_for("x", kBasics);
  d["count_by"] = "attachment";
  CHECK(parse_search_request(d).attachments);
  CHECK(std::string(count_axis_name(CountAxis::result)) == "result");
}

TEST_CASE("search prefilter: needles, markers and label gates") {
  const SearchRequest req = parse_search_request(args_for("srcx", kBasics));
  const SearchPrefilter pf(req, false);
  CHECK(pf.gates_files());
  CHECK(pf.may_match(R"({"type":"user","text":"ls srcx"})"));
  // A word the notification render cannot write drops its marker; one it writes ("[task 7 completed]") keeps
  // it.
  CHECK_FALSE(pf.may_match(R"({"type":"user","text":"<task-notification>"})"));
  const SearchPrefilter written(parse_search_request(args_for("completed", kBasics)), false);
  CHECK(written.may_match(R"({"type":"user","text":"<task-notification>"})"));
  CHECK_FALSE(pf.may_match(R"({"type":"user","text":"nothing"})"));
  CHECK_FALSE(
      pf.label_candidate(R"({"type":"attachment","attachment":{}})", *claude_code_reader().raw_probes()));
  CHECK_FALSE(pf.label_candidate(R"({"type":"queue-operation","operation":"enqueue"})",
                                 *claude_code_reader().raw_probes()));
  CHECK(pf.label_candidate(R"({"type":"assistant","message":{"role":"assistant"}})",
                           *claude_code_reader().raw_probes()));
  const SearchRequest empty = parse_search_request(args_for("", kBasics));
  CHECK_FALSE(SearchPrefilter(empty, false).gates_files());
}

TEST_CASE("search scan: spans, labels and the gate's exact skipped lines") {
  const SearchScan scan = scan_of(args_for("srcx", kBasics));
  REQUIRE(scan.transcripts.size() == 1);
  const TranscriptHits& th = scan.transcripts[0];
  bool found = false;
  for (const auto& rh : th.hits) {
    for (const auto& uh : rh.units) {
      const std::string& text = th.ct.entries[rh.entry_index].units[uh.unit_index].text;
      CHECK(text.substr(uh.match_begin, uh.match_end - uh.match_begin) == "srcx");
      found = found || th.ct.entries[rh.entry_index].record->line == 9;
    }
  }
  CHECK(found);
  // 3 malformed + the torn tail; line 8 (a raw 0xFF byte) is parsed from a repaired copy, so it is a record
  CHECK(scan_of(args_for("zzqqxxnothere", kDamaged)).skipped_lines == 4);
  CHECK(scan_of(args_for("", kDamaged)).skipped_lines == 4);
  const SearchScan repaired = scan_of(args_for("byte here", kDamaged));
  REQUIRE(repaired.matched_records == 1);
  CHECK(repaired.transcripts[0].ct.entries[repaired.transcripts[0].hits[0].entry_index].record->line == 8);
}

TEST_CASE("search scan: -t keeps only surviving labels; the probe tallies the excluded") {
  json a = args_for("ls srcx", kBasics);
  a["label"] = json::array({"user.message"});
  CHECK(scan_of(a).matched_records == 0);
  ToolContext ctx;
  ctx.env = Environment::from_process();
  const SearchRequest req = parse_search_request(a);
  const SearchScan probe = run_search_scan(req, resolve_span_scope(a, ctx), ctx, true);
  CHECK(probe.excluded_records == 1);
  CHECK(probe.excluded_by_label.at(Label::agent_tool_use) == 1);
}

TEST_CASE("search exchanges: tool_use brings its result; the cap keeps either end") {
  const SearchScan scan = scan_of(args_for("ls srcx", kBasics));
  REQUIRE(scan.transcripts.size() == 1);
  const std::vector<Exchange> xs = transcript_exchanges(scan.transcripts[0]);
  REQUIRE(xs.size() == 1);
  std::set<uint64_t> lines;
  for (const auto& u : xs[0].units)
    lines.insert(scan.transcripts[0].ct.entries[u.entry_index].record->line);
  CHECK(lines.count(9) == 1);
  CHECK(lines.count(10) == 1);

  const SearchScan many = scan_of(args_for("verbose", kBasics));
  // The timeline gets the exchanges in an order a worker pool might produce (reversed); the result is the
  // chronological one all the same.
  auto timeline_of = [&](int64_t max_count) {
    ExchangeTimeline t(max_count);
    const std::vector<Exchange> xs = transcript_exchanges(many.transcripts[0]);
    for (size_t i = xs.size(); i-- > 0;)
      t.offer(ExchangeTimeline::key_of(xs[i].started, 0, i), xs[i].started, json(xs[i].turn_index));
    return t.finish();
  };
  const ExchangeList all = timeline_of(0);
  REQUIRE(all.kept.size() > 2);
  const ExchangeList first = timeline_of(2), last = timeline_of(-2);
  CHECK(first.dropped_side == "later");
  CHECK(last.dropped_side == "earlier");
  CHECK(first.matched == all.kept.size());
  CHECK(first.dropped_by_cap == all.kept.size() - 2);
  CHECK(first.kept[0].row == all.kept[0].row);
  CHECK(first.kept[1].row == all.kept[1].row);
  CHECK(last.kept[1].row == all.kept.back().row);
  for (size_t i = 1; i < all.kept.size(); ++i)
    CHECK(*all.kept[i - 1].started <= *all.kept[i].started);
}

TEST_CASE("search progress: bytes of the scope, strictly increasing, ending at the total") {
  json a = args_for("verbose", kBasics);
  a.erase("targets");  // the whole fixture store: many transcripts finishing on several workers
  ToolContext ctx;
  ctx.env = Environment::from_process();
  std::vector<std::pair<double, double>> reports;
  ctx.progress = [&](double done, double total, const std::string&) { reports.emplace_back(done, total); };
  const SearchRequest req = parse_search_request(a);
  const Scope scope = resolve_span_scope(a, ctx);
  run_search_scan(req, scope, ctx);
  REQUIRE(reports.size() == scope.transcripts.size());
  uint64_t bytes = 0;
  for (const Transcript& t : scope.transcripts)
    bytes += std::max<uint64_t>(t.size, 1);
  for (size_t i = 1; i < reports.size(); ++i)
    CHECK(reports[i - 1].first < reports[i].first);
  CHECK(reports.back().first == static_cast<double>(bytes));
  CHECK(reports.back().second == static_cast<double>(bytes));
}

TEST_CASE("search cancellation: a cancelled scan stops and is never an answer") {
  json a = args_for("verbose", kBasics);
  a.erase("targets");
  ToolContext ctx;
  ctx.env = Environment::from_process();
  CancelToken cancel;
  ctx.cancel = &cancel;
  size_t reports = 0;
  ctx.progress = [&](double, double, const std::string&) {
    ++reports;
    cancel.cancelled.store(true);  // cancel as soon as the first transcript is done
  };
  const SearchRequest req = parse_search_request(a);
  const Scope scope = resolve_span_scope(a, ctx);
  const SearchScan scan = run_search_scan(req, scope, ctx);
  CHECK(scan.cancelled);
  CHECK(reports < scope.transcripts.size());
  CHECK_THROWS_AS(run_search(a, ctx), ToolError);  // a cancelled search fails instead of a partial result
}

}  // namespace search_unit
