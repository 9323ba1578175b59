// show's sparse load (core/search/addressed_load.cpp, tools/show/show_load.cpp) on fixture session 33333333:
// an address parses what it names, the possible turn openers and line 1, and reads back only the partners
// and turns it needs; a session with an elicitation sidecar is read whole. (tests/mcp/test_show_sparse.py
// compares whole show answers with the full read.)
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/search/addressed_load.h"
#include "core/store/targets.h"
#include "tools/show/show_load.h"

namespace addressed_load_unit {

using namespace csift;

namespace {

const std::string kHome = std::string(CSIFT_SOURCE_DIR) + "/fixtures/home";
const std::string kPeers = "33333333-3333-4333-8333-000000000003";
const std::string kWithSidecar = "44444444-4444-4444-8444-000000000004";

Transcript transcript(const std::string& id) {
  const TargetResolver resolver(Environment::from_process(), kHome);
  return resolver.resolve_one("@" + id);
}

std::set<uint64_t> lines_of(const ClassifiedTranscript& ct) {
  std::set<uint64_t> out;
  for (const Record& r : ct.read.records)
    out.insert(r.line);
  return out;
}

ClassifiedTranscript show_load(const std::string& id, const json& address) {
  json args = address;
  args["targets"] = json::array({"@" + id});
  ResultMemoUse use;
  return load_for_show(parse_show_request(args), transcript(id), nullptr, nullptr, use);
}

}  // namespace

TEST_CASE("addressed load: the named lines, the openers and line 1, with the counts of a full read") {
  const Transcript t = transcript(kPeers);
  const ClassifiedTranscript full = load_classified_transcript(t, false, nullptr);
  AddressedLines address;
  address.lines = {LineSpan{18, 19}};
  auto load = load_addressed(t, address, /*merge_sidecar=*/true, nullptr);
  REQUIRE(load);
  const std::set<uint64_t> parsed = lines_of(load->ct);
  CHECK(parsed.count(1));
  CHECK(parsed.count(18));
  CHECK(parsed.count(19));
  for (size_t opener : full.turns.opener_index)
    CHECK(parsed.count(full.read.records[opener].line));
  CHECK(parsed.size() < full.read.records.size());
  CHECK(load->ct.turns.turn_count == full.turns.turn_count);
  CHECK(load->ct.read.lines == full.read.lines);
  CHECK(load->ct.read.skipped_lines == full.read.skipped_lines);
  CHECK(load->ct.read.records.size() + load->declined.size() + load->ct.read.skipped_lines +
            load->ct.read.blank_lines ==
        full.read.lines);
}

TEST_CASE("addressed load: a uuid address parses the lines holding it") {
  const Transcript t = transcript(kPeers);
  AddressedLines address;
  address.uuids = {"03000019-aaaa-4aaa-8aaa-000003000019"};
  auto load = load_addressed(t, address, true, nullptr);
  REQUIRE(load);
  const std::set<uint64_t> parsed = lines_of(load->ct);
  CHECK(parsed.count(19));  // its own record
  CHECK(parsed.count(20));  // the next record names it as its parent
  const auto subject = addressed_records(address);
  size_t subjects = 0;
  for (const Record& r : load->ct.read.records)
    subjects += subject(r) ? 1 : 0;
  CHECK(subjects == 1);
}

TEST_CASE("show load: a small address is read sparsely, with the addressed records' partners") {
  const size_t full = load_classified_transcript(transcript(kPeers), false, nullptr).read.records.size();
  const ClassifiedTranscript line = show_load(kPeers, json{{"line", json::array({"20"})}});
  // Line 20's notification names the spawn of lines 18 (call) and 19 (result, which names the child).
  CHECK(lines_of(line).count(18));
  CHECK(lines_of(line).count(19));
  CHECK(line.read.records.size() < full);
  const ClassifiedTranscript turn = show_load(kPeers, json{{"turn", "8"}});
  CHECK(lines_of(turn).count(18));  // paired although turn 8 needed no line read back
  CHECK(turn.read.records.size() < full);
  const ClassifiedTranscript uuid =
      show_load(kPeers, json{{"uuid", json::array({"03000017-aaaa-4aaa-8aaa-000003000017"})}});
  CHECK(uuid.read.records.size() < full);
}

TEST_CASE("show load: read whole for most of the file, a missing uuid, and a session with a sidecar") {
  const size_t peers = load_classified_transcript(transcript(kPeers), false, nullptr).read.records.size();
  CHECK(show_load(kPeers, json{{"line", json::array({".."})}}).read.records.size() == peers);
  CHECK(show_load(kPeers, json{{"uuid", json::array({"00000000-0000-4000-8000-00000000dead"})}})
            .read.records.size() == peers);
  const size_t with_sidecar =
      load_classified_transcript(transcript(kWithSidecar), true, nullptr).read.records.size();
  CHECK(show_load(kWithSidecar, json{{"line", json::array({"2"})}}).read.records.size() == with_sidecar);
}

}  // namespace addressed_load_unit
