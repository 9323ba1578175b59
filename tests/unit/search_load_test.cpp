// The sparse search load (core/search/search_load.cpp) on fixture session 33333333: it parses only the lines
// a needle points at plus the turn openers and line 1, and its completions read back exactly the partners and
// turns asked for. (tests/cli/test_search_sparse.py compares whole search answers with the dense load.)
#include <doctest/doctest.h>

#include "core/harness/claude_code/claude_code_reader.h"

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/search/search_load.h"
#include "core/search/search_prefilter.h"
#include "core/store/targets.h"
#include "tools/common/scope_args.h"
#include "tools/search/search_types.h"

namespace search_load_unit {

using namespace csift;

namespace {

const std::string kPeers = "33333333-3333-4333-8333-000000000003";

struct Loaded {
  SearchRequest req;
  Transcript transcript;
};

Loaded request_for(const std::string& pattern) {
  json a = json::object();
  a["pattern"] = pattern;
  a["targets"] = json::array({"@" + kPeers});
  a["claude_home"] = std::string(CSIFT_SOURCE_DIR) + "/fixtures/home";
  ToolContext ctx;
  ctx.env = Environment::from_process();
  Loaded out{parse_search_request(a), {}};
  const Scope scope = resolve_span_scope(a, ctx);
  REQUIRE(scope.transcripts.size() == 1);
  out.transcript = scope.transcripts.front();
  return out;
}

std::set<uint64_t> lines_of(const SearchLoad& load) {
  std::set<uint64_t> out;
  for (const Record& r : load.ct.read.records)
    out.insert(r.line);
  return out;
}

}  // namespace

TEST_CASE("sparse load: needle lines, openers and line 1 only; tool partners read back on demand") {
  const Loaded l = request_for("missing header");  // only the Monitor task-notification (line 21) says it
  const SearchPrefilter pf(l.req, false);
  SearchLoad load = load_for_search(l.transcript, has_sidecar(l.transcript), pf, nullptr);
  REQUIRE(load.sparse);
  const std::set<uint64_t> first = lines_of(load);
  CHECK(first.count(1));
  CHECK(first.count(21));
  CHECK_FALSE(first.count(16));  // the Monitor tool_use the notification names
  CHECK_FALSE(first.count(17));  // its result
  CHECK(load.ct.read.records.size() + load.declined.size() + load.ct.read.skipped_lines +
            load.ct.read.blank_lines ==
        load.ct.read.lines);

  complete_tool_partners(
      load, pf, [](const Record&) { return true; }, nullptr);
  const std::set<uint64_t> completed = lines_of(load);
  CHECK(completed.count(16));
  CHECK(completed.count(17));
  // Only partners were read back: the load stays sparse.
  size_t never_read = 0;
  for (bool f : load.fetched)
    never_read += f ? 0 : 1;
  CHECK(never_read > 0);
  CHECK(completed.size() - first.size() == load.declined.size() - never_read);
  // The model was rebuilt in file order over the added records.
  REQUIRE(load.ct.entries.size() == load.ct.read.records.size());
  for (size_t i = 1; i < load.ct.entries.size(); ++i)
    CHECK(load.ct.entries[i - 1].record->line < load.ct.entries[i].record->line);
}

TEST_CASE("sparse load: a whole turn is read back when asked for, and only that turn") {
  const Loaded l = request_for("missing header");
  const SearchPrefilter pf(l.req, false);
  SearchLoad load = load_for_search(l.transcript, has_sidecar(l.transcript), pf, nullptr);
  REQUIRE(load.sparse);
  REQUIRE(load.ct.turns.turn_count >= 2);
  const int turn = load.ct.entries.back().turn_index;
  REQUIRE(turn >= 0);
  complete_turns(load, pf, {turn}, nullptr);
  const size_t opener = load.ct.turns.opener_index[static_cast<size_t>(turn)];
  const uint64_t begin = load.ct.entries[opener].record->line;
  // Every declined line of the turn that the label gates admit is now parsed (the last turn runs to EOF).
  std::vector<std::string> file_lines;
  std::ifstream in(l.transcript.path, std::ios::binary);
  for (std::string line; std::getline(in, line);)
    file_lines.push_back(line);
  size_t in_turn = 0;
  for (size_t i = 0; i < load.declined.size(); ++i) {
    const uint64_t line = load.declined[i].line;
    if (line < begin || !pf.label_candidate(file_lines.at(line - 1), *claude_code_reader().raw_probes()))
      continue;
    ++in_turn;
    CHECK_MESSAGE(load.fetched[i], "line " << line);
  }
  CHECK(in_turn > 0);
}

TEST_CASE("a pattern without needles loads densely") {
  const Loaded l = request_for("");
  const SearchPrefilter pf(l.req, false);
  const SearchLoad load = load_for_search(l.transcript, has_sidecar(l.transcript), pf, nullptr);
  CHECK_FALSE(load.sparse);
  CHECK(load.declined.empty());
}

}  // namespace search_load_unit
