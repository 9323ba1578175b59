// The sub-agent readers' shared pieces (core/harness/harness_agents_walk.h): one store index per `agents`
// call however many sessions ask for it at once, the walk down a tree of child ids, and a compressed Codex
// rollout read through its reader's own lines (its first line and its spawn call), as a plain one is.
#include <doctest/doctest.h>
#include <tbb/parallel_for.h>
#include <unistd.h>
#include <zstd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "core/harness/codex/codex_harness.h"
#include "core/harness/harness_agents_walk.h"
#include "core/harness/harness_listing.h"

namespace harness_agents_unit {

using namespace csift;
namespace fs = std::filesystem;

const fs::path kAgentsCodexDay =
    fs::path(CSIFT_SOURCE_DIR) / "fixtures/fidelity/agents/codex/sessions/2026/03/01";
const std::string kZstParent = "rollout-2026-03-01T12-00-00-019d0000-0000-7000-8000-00000000c001.jsonl.zst";

TEST_CASE("a shared index is made once per call, whichever reader asks first") {
  HarnessAgentsCall call;
  std::atomic<int> made{0};
  tbb::parallel_for(0, 64, [&](int) {
    const int& v = call.shared<int>("codex:/store", [&] {
      ++made;
      return 42;
    });
    CHECK(v == 42);
  });
  CHECK(made == 1);
  CHECK(call.shared<int>("codex:/other", [] { return 7; }) == 7);
}

TEST_CASE("the descendant walk is breadth first and ends where a cycle closes") {
  const std::map<std::string, std::vector<std::string>> kids{
      {"a", {"b", "c"}}, {"b", {"d", "a"}}, {"d", {"b"}}};
  CHECK(descendant_ids("a", kids) == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(descendant_ids("x", kids) == std::vector<std::string>{"x"});
}

TEST_CASE("a compressed rollout's first line and lines are read from its decompressed stream") {
  const std::string path = (kAgentsCodexDay / kZstParent).string();
  const auto first = codex_first_line(path);
  REQUIRE(first.has_value());
  CHECK(first->find("\"session_meta\"") != std::string::npos);
  const Transcript t = harness_transcript(kCodexHarness, path, codex_session_id_of(kZstParent),
                                          kAgentsCodexDay.parent_path().parent_path().parent_path().string());
  uint64_t skipped = 0, lines = 0;
  std::string spawn_call;
  CHECK(walk_log_lines(t, nullptr, skipped, [&](const nlohmann::json& e, uint64_t n) {
    ++lines;
    CHECK(n == lines);
    const nlohmann::json& p = json_object_at(e, "payload");
    if (json_string_at(p, "name") == "spawn_agent") spawn_call = json_string_at(p, "call_id");
    return true;
  }));
  CHECK(skipped == 0);
  CHECK(lines == 5);
  CHECK(spawn_call == "call_z1");
}

// A zstd frame of `plain`.
std::string zstd_frame(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3));
  return out;
}

TEST_CASE("a compressed rollout whose rest does not decode counts that rest as one skipped line") {
  // The reader's own read counts it so (jsonl_entry_reader.cpp: `(corrupt)`); the walk must not pass over it
  // in silence, or `agents` reports a session whose spawn calls were cut off as read whole.
  const fs::path p =
      fs::temp_directory_path() / ("csift-agents-cut-" + std::to_string(::getpid()) + ".jsonl.zst");
  const std::string second = zstd_frame("{\"b\":2}\n{\"c\":3}\n");
  std::ofstream(p, std::ios::binary) << zstd_frame("{\"a\":1}\n") + second.substr(0, second.size() / 2);
  const Transcript t = harness_transcript(kCodexHarness, p.string(), "cut", p.parent_path().string());
  uint64_t skipped = 0, lines = 0;
  CHECK(walk_log_lines(t, nullptr, skipped, [&](const nlohmann::json&, uint64_t) {
    ++lines;
    return true;
  }));
  fs::remove(p);
  CHECK(lines == 1);
  CHECK(skipped == 1);
}

}  // namespace harness_agents_unit
