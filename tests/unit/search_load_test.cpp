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
#include "temp_store.h"
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

// A search for `pattern` over one session (by default the fixture store's peers session), resolved as the
// tool resolves it.
Loaded request_for(const std::string& pattern, const std::string& session = kPeers,
                   const std::string& claude_home = std::string(CSIFT_SOURCE_DIR) + "/fixtures/home") {
  json a = json::object();
  a["pattern"] = pattern;
  a["targets"] = json::array({"@" + session});
  a["claude_home"] = claude_home;
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
      load, [](const Record&) { return true; }, nullptr);
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
  complete_turns(load, {turn}, nullptr);
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

// A needles-only load (searcher.cpp: the gate met a marker and no needle) parses line 1 and the needle and
// marker lines only, never a turn opener without one, and accounts for every other line exactly as the full
// sparse load does: malformed, blank, torn and out-of-range lines counted the same, the rest declined.
TEST_CASE("needles-only load: exact line accounting on malformed, torn and marker lines") {
  csift_test::TempStore store;
  const std::string session = "aaaaaaaa-0000-4000-8000-000000000035";
  auto line = [&](const std::string& type, const std::string& uuid, const std::string& message,
                  const std::string& extra = "") {
    return R"({"type":")" + type + R"(","uuid":")" + uuid + R"(","parentUuid":null,"sessionId":")" + session +
           R"(","timestamp":"2026-01-01T00:00:00.000Z",)" + extra + R"("message":)" + message + "}\n";
  };
  const std::string text =
      line("user", "u1", R"({"role":"user","content":"first line"})") +                             // 1
      line("assistant", "a1", R"({"role":"assistant","content":[{"type":"text","text":"ok"}]})") +  // 2
      R"({"type":"user","message":{"role":"user","content":"broken)"
      "\n" +                                                                  // 3
      "\n" +                                                                  // 4
      line("user", "u2", R"({"role":"user","content":"second question"})") +  // 5
      line(
          "user", "u3",
          R"({"role":"user","content":"<command-name>/review</command-name>\n<command-args>x</command-args>"})") +
      "not json\n" +  // 7
      line("assistant", "a2", R"({"role":"assistant","content":[{"type":"text","text":"no"}]})",
           R"("costUSD":1e999,)") +   // 8
      R"({"type":"user","message")";  // 9: torn
  store.write("-home-dev-cold/" + session + ".jsonl", text);
  auto request = [&](const std::string& pattern) {
    return request_for(pattern, session, store.home().string());
  };
  auto accounted = [](const SearchLoad& load) {
    return load.ct.read.records.size() + load.declined.size() + load.ct.read.skipped_lines +
           load.ct.read.blank_lines;
  };

  // "/zz…" may straddle the "/" a slash command's render writes, so its marker stays (a word that may not
  // drops it: below).
  const Loaded absent = request("/zzqqabsentword");
  const SearchPrefilter pf(absent.req, false);
  SearchLoad full = load_for_search(absent.transcript, false, pf, nullptr);
  SearchLoad only = load_for_search(absent.transcript, false, pf, nullptr, 0, nullptr, nullptr, true);
  REQUIRE(full.sparse);
  REQUIRE(only.sparse);
  CHECK(only.needles_only);
  CHECK(lines_of(full) == std::set<uint64_t>{1, 5, 6});  // line 1, the opener, the marker line
  CHECK(lines_of(only) == std::set<uint64_t>{1, 6});     // no opener without a needle or marker
  for (const SearchLoad* load : {&full, &only}) {
    CHECK(load->ct.read.lines == 9);
    CHECK(load->ct.read.skipped_lines == 3);  // lines 3, 7 and the torn 9
    CHECK(load->ct.read.blank_lines == 1);
    CHECK(load->ct.read.values_out_of_range == 1);
    CHECK(load->ct.read.torn_tail);
    CHECK(accounted(*load) == load->ct.read.lines);
  }
  CHECK(only.declined.size() == full.declined.size() + 1);  // line 5
  complete_tool_partners(
      only, [](const Record&) { return true; }, nullptr);
  CHECK_FALSE(may_hold_match(only.ct, absent.req.compiled));

  // The marker line renders "/review x", which no raw byte holds: the needles-only load parsed it, so the
  // pattern may match and the searcher reads the file again with its turn openers.
  const Loaded rendered = request("review x");
  const SearchPrefilter rpf(rendered.req, false);
  SearchLoad again = load_for_search(rendered.transcript, false, rpf, nullptr, 0, nullptr, nullptr, true);
  REQUIRE(again.sparse);
  CHECK(lines_of(again) == std::set<uint64_t>{1, 6});
  complete_tool_partners(
      again, [](const Record&) { return true; }, nullptr);
  CHECK(may_hold_match(again.ct, rendered.req.compiled));
  CHECK(accounted(again) == again.ct.read.lines);

  // A word the slash render cannot write (confined by its joiners) drops the marker: a needles-only load
  // declines the marker line like any other, with the same counts, and the file's screen finds nothing.
  const Loaded word = request("zzqqabsentword");
  const SearchPrefilter wpf(word.req, false);
  SearchLoad plain = load_for_search(word.transcript, false, wpf, nullptr, 0, nullptr, nullptr, true);
  REQUIRE(plain.sparse);
  CHECK(lines_of(plain) == std::set<uint64_t>{1});
  CHECK(plain.declined.size() == only.declined.size() + 1);  // line 6
  CHECK(plain.ct.read.skipped_lines == 3);
  CHECK(accounted(plain) == plain.ct.read.lines);
  CHECK_FALSE(wpf.skim(word.transcript, nullptr).may_match);
  CHECK(pf.skim(absent.transcript, nullptr).may_match);
}

TEST_CASE("a pattern without needles loads densely") {
  const Loaded l = request_for("");
  const SearchPrefilter pf(l.req, false);
  const SearchLoad load = load_for_search(l.transcript, has_sidecar(l.transcript), pf, nullptr);
  CHECK_FALSE(load.sparse);
  CHECK(load.declined.empty());
}

}  // namespace search_load_unit
