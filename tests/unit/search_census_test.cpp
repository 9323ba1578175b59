// `search --count-by`: each axis's keys and domain over the fixture sessions (values hand-derived from the
// fixture line inventory, fixtures/README.md), the sort rules, the cap, and the envelope/text forms.
#include <doctest/doctest.h>

#include <map>

#include "fake_scan.h"
#include "tools/search/search_census.h"

namespace search_census_unit {

using namespace csift;
using csift_test::fixture_transcript;
using csift_test::request;
using csift_test::scan_of;

namespace {

const std::string kDemo = "-home-dev-projects-csift-demo";
const std::string kBasics = "11111111-1111-4111-8111-000000000001";
const std::string kTokens = "22222222-2222-4222-8222-000000000002";
const std::string kPeers = "33333333-3333-4333-8333-000000000003";

Census census(SearchRequest req, CountAxis axis, const std::vector<std::string>& ids) {
  req.count_by = axis;
  std::vector<Transcript> ts;
  for (const auto& id : ids)
    ts.push_back(fixture_transcript(kDemo, id));
  return tally_census(req, scan_of(req, ts));
}

std::string rows_of(const Census& c) {
  std::string out;
  for (const auto& r : c.rows)
    out += (out.empty() ? "" : " ") + r.key + "=" + std::to_string(r.records);
  return out;
}

}  // namespace

TEST_CASE("census: model counts assistant records once per model and reports the rest as excluded") {
  const Census c = census(request(), CountAxis::model, {kTokens});
  CHECK(rows_of(c) == "claude-opus-4-6=9 claude-sonnet-4-5-20250929=6");
  CHECK(c.matched_records == 23);
  CHECK(c.excluded_records == 8);  // 6 user records, the compact boundary and its summary
  CHECK(c.distinct_keys == 2);
}

TEST_CASE("census: tool counts RECORDS (use + result carrier), ties sorted by key") {
  const Census c = census(request(), CountAxis::tool, {kTokens});
  CHECK(rows_of(c) == "Bash=2 Grep=2 Read=2");
  CHECK(c.excluded_records == 17);
}

TEST_CASE("census: turn is an ascending histogram; keys carry the transcript id when >1 is in scope") {
  CHECK(rows_of(census(request(), CountAxis::turn, {kTokens})) == "t0=11 t1=10 t2=2");
  const Census two = census(request(), CountAxis::turn, {kTokens, kBasics});
  REQUIRE(two.rows.size() == 13);
  CHECK(two.rows[0].key == kTokens + "\xC2\xB7t0");
  CHECK(two.rows[2].key == kTokens + "\xC2\xB7t2");
  CHECK(two.rows[3].key == kBasics + "\xC2\xB7t0");
  CHECK(two.rows[12].key == kBasics + "\xC2\xB7t9");
}

TEST_CASE("census: session, version and result axes") {
  CHECK(rows_of(census(request(), CountAxis::session, {kTokens})) == kTokens + "=23");
  CHECK(rows_of(census(request(), CountAxis::version, {kTokens})) == "2.1.160=23");
  const Census r = census(request(), CountAxis::result, {kBasics});
  CHECK(rows_of(r) == "ok=6 error=4");  // errors: L10, L20, L44, L46
}

TEST_CASE("census: pairing rides the tool block through comm views; record-text comm is excluded") {
  const Census c = census(request(), CountAxis::pairing, {kPeers});
  // SendMessage x2 and Task (comm views), Bash, Monitor, ScheduleWakeup: six uses + six results.
  CHECK(rows_of(c) == "paired=12");
  // The six relayed peer messages (L6-L11) and the two inbox notifications (L20, L22).
  CHECK(c.excluded_comm_records == 8);
  CHECK(c.excluded_records == c.matched_records - 12);
}

TEST_CASE("census: attachment keys the payload type (the gate opened by the axis)") {
  SearchRequest req = request();
  req.attachments = true;
  const Census c = census(req, CountAxis::attachment, {kBasics});
  CHECK(rows_of(c) == "hook_success=1 plan_mode=1");
}

TEST_CASE("census: label multi-counts, keeps only leaves the -t/-T predicate admits, richest first") {
  const Census user = census(request({"user"}), CountAxis::label, {kBasics});
  CHECK(rows_of(user) == "user.answer=2 user.rejection=1 user.message=9");
  CHECK(user.excluded_records == 0);

  // An AUQ answer carrier is user.answer AND agent.tool.result: with no filter it counts under both.
  const Census all = census(request(), CountAxis::label, {kBasics});
  std::map<std::string, uint64_t> by;
  for (const auto& r : all.rows)
    by[r.key] = r.records;
  CHECK(by["user.answer"] == 2);
  CHECK(by.count("user.unsent") == 1);  // no filter: the draft is in the scan
  CHECK(all.rows.front().key == "user.answer");

  // -T removes a leaf from the keys without touching the other leaves of the same records.
  const Census minus = census(request({"user"}, {"user.message"}), CountAxis::label, {kBasics});
  CHECK(rows_of(minus) == "user.answer=2 user.rejection=1");
}

TEST_CASE("census: --max-count keeps the first N keys, -N the last N, and reports the drop") {
  SearchRequest req = request();
  req.max_count = 2;
  Census c = census(req, CountAxis::tool, {kTokens});
  CHECK(rows_of(c) == "Bash=2 Grep=2");
  CHECK(c.dropped_by_cap == 1);
  CHECK(c.distinct_keys == 3);
  req.max_count = -1;
  c = census(req, CountAxis::tool, {kTokens});
  CHECK(rows_of(c) == "Read=2");
  CHECK(c.dropped_by_cap == 2);
}

TEST_CASE(
    "census envelope: census rows, the summary fields and the accounting notes; text is <count> <key>") {
  SearchRequest req = request();
  req.count_by = CountAxis::model;
  const SearchScan scan = scan_of(req, {fixture_transcript(kDemo, kTokens)});
  const Envelope env = census_envelope(req, Scope{}, scan);
  REQUIRE(env.rows.size() == 2);
  CHECK(env.rows[0]["kind"] == "census");
  CHECK(env.rows[0]["axis"] == "model");
  CHECK(env.rows[0]["key"] == "claude-opus-4-6");
  CHECK(env.rows[0]["records"] == 9);
  CHECK(env.header["command"] == "search");
  CHECK(env.summary["axis"] == "model");
  CHECK(env.summary["matched_records"] == 23);
  CHECK(env.summary["distinct_keys"] == 2);
  CHECK(env.summary["excluded_records"] == 8);
  CHECK(env.summary["dropped_by_cap"] == 0);
  CHECK(env.summary["skipped_lines"] == 0);
  REQUIRE(env.notes.size() >= 2);
  CHECK(env.notes[0].find("23 matched records") != std::string::npos);
  CHECK(env.notes[0].find("2 distinct keys") != std::string::npos);
  CHECK(env.notes[1].find("8 records excluded: outside the model domain") != std::string::npos);
  CHECK(render_census_text(env) == "9 claude-opus-4-6\n6 claude-sonnet-4-5-20250929\n");
}

}  // namespace search_census_unit
