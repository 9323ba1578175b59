// Cursor's storage-only reader over the hand-built store in fixtures/cursor, checked against values the test
// reads independently from the raw files (its own directory walk and JSON parse).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/harness/cursor/cursor_reader.h"
#include "core/harness/cursor/cursor_store.h"

namespace cursor_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

const std::string kCursorHome = std::string(CSIFT_SOURCE_DIR) + "/fixtures/cursor/home";
const std::string kTranscripts =
    kCursorHome + "/.cursor/projects/home-dev-projects-migrate-demo/agent-transcripts";

struct CursorCollect final : RecordSink {
  std::vector<Record> records;
  std::vector<SkippedLine> skips;
  bool record(Record&& r) override {
    records.push_back(std::move(r));
    return true;
  }
  void skipped(SkippedLine&& s) override { skips.push_back(std::move(s)); }
};

// The file's lines parsed on their own: the human's prompts (inside <user_query>), tool calls, failed
// results.
struct CursorTruth {
  std::vector<std::string> prompts;
  size_t tool_calls = 0, failed_results = 0, lines = 0, malformed = 0;
  bool torn = false;
};

CursorTruth cursor_truth(const std::string& path) {
  CursorTruth t;
  std::ifstream in(path, std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  t.torn = !all.empty() && all.back() != '\n';
  std::stringstream ss(all);
  const std::regex query("<user_query>\\s*([\\s\\S]*?)\\s*</user_query>");
  for (std::string line; std::getline(ss, line);) {
    ++t.lines;
    if (t.torn && ss.eof()) break;  // the torn final line: skipped as torn, not parsed
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      ++t.malformed;
      continue;
    }
    for (const auto& c : j["message"]["content"]) {
      if (c["type"] == "tool_use") ++t.tool_calls;
      if (c["type"] == "tool_result" && c.value("is_error", false)) ++t.failed_results;
      std::smatch m;
      const std::string text = c.value("text", "");
      if (j["role"] == "user" && std::regex_search(text, m, query)) t.prompts.push_back(m[1]);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("cursor: discovery lists agent transcripts and names what it does not read") {
  Environment env;
  env.vars["HOME"] = kCursorHome;
  const CursorStore store = list_cursor_sessions(env);
  std::vector<std::string> want;  // <id>.jsonl directly, or <id>/<id>.jsonl
  for (const auto& e : fs::directory_iterator(kTranscripts)) {
    const fs::path p = e.path();
    if (p.extension() == ".jsonl") want.push_back(p.string());
    if (e.is_directory() && fs::exists(p / (p.filename().string() + ".jsonl")))
      want.push_back((p / (p.filename().string() + ".jsonl")).string());
  }
  std::sort(want.begin(), want.end());
  std::vector<std::string> got;
  for (const CursorSession& s : store.sessions) {
    got.push_back(s.transcript.path);
    CHECK(s.transcript.harness == HarnessId::cursor);
    CHECK(s.conversation_id == fs::path(s.transcript.path).stem().string());
    CHECK(s.transcript.id == "cursor:" + s.conversation_id);
    CHECK(s.project_slug == "home-dev-projects-migrate-demo");
    struct stat st {};
    REQUIRE(::stat(s.transcript.path.c_str(), &st) == 0);
    CHECK(s.mtime_ms == static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000);
  }
  CHECK(got == want);
  CHECK(store.subagent_transcripts == 1);
  std::vector<Transcript> listed;
  std::vector<StoreProblem> problems;
  list_cursor_transcripts(locate_cursor_store(env).path, listed, problems);
  CHECK(listed.size() == store.sessions.size());
  CHECK(problems.size() == store.problems.size());
  REQUIRE(store.problems.size() == 2);
  CHECK(store.problems[0].path == kTranscripts + "/legacy-chat.txt");
  CHECK(store.problems[0].reason.rfind("unsupported-format", 0) == 0);
  CHECK(store.problems[1].path == kCursorHome + "/.cursor/chats");
  CHECK(store.problems[1].reason.find("1 store.db") != std::string::npos);
}

TEST_CASE("cursor: records carry prompts, tool calls and results; bad lines are counted, not dropped") {
  Environment env;
  env.vars["HOME"] = kCursorHome;
  const CursorStore store = list_cursor_sessions(env);
  REQUIRE(store.sessions.size() == 2);
  for (const CursorSession& s : store.sessions) {
    CAPTURE(s.transcript.path);
    const CursorTruth truth = cursor_truth(s.transcript.path);
    CursorCollect sink;
    const ReadStats stats = cursor_reader().read(s.transcript, ReadOptions{}, sink);
    REQUIRE(stats.error.empty());
    CHECK(stats.lines == truth.lines);
    CHECK(stats.torn_tail == truth.torn);
    CHECK(stats.skipped_lines == truth.malformed + (truth.torn ? 1 : 0));
    CHECK(sink.records.size() + stats.skipped_lines + stats.blank_lines == stats.lines);
    std::vector<std::string> prompts;
    size_t calls = 0, failed = 0;
    for (const Record& r : sink.records) {
      CHECK(r.timestamp.empty());  // Cursor records none
      CHECK(r.cwd.empty());
      CHECK_FALSE(r.message.usage.present);
      for (const Block& b : r.message.blocks) {
        calls += b.kind == BlockKind::tool_use;
        failed += b.kind == BlockKind::tool_result && b.is_error;
        if (cursor_opens_turn(r) && b.kind == BlockKind::text) prompts.push_back(b.text);
      }
    }
    // The torn final line is skipped, so its prompt is not one.
    std::vector<std::string> want = truth.prompts;
    CHECK(prompts == want);
    CHECK(calls == truth.tool_calls);
    CHECK(failed == truth.failed_results);
  }
}

}  // namespace cursor_unit
