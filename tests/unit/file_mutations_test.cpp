// scan_file_mutations: structured edits joined to their results by tool_use_id (errors excluded, integrity
// errors become boundaries, a call with no result is unconfirmed), Bash rows flagged when the command erred,
// turns numbered over the whole transcript — on a transcript written to a temp store.
#include <doctest/doctest.h>

#include "core/mutations/content_events.h"
#include "core/mutations/file_mutations.h"
#include "core/store/spawn_index.h"
#include "core/store/store.h"
#include "temp_store.h"

namespace file_mutations_unit {

using namespace csift;
using csift_test::TempStore;

namespace {

const std::string kSid = "12345678-1234-4234-8234-123456789abc";

std::string prompt(const std::string& text, const std::string& ts) {
  return R"({"type":"user","sessionId":")" + kSid + R"(","uuid":"u)" + ts + R"(","timestamp":")" + ts +
         R"(","message":{"role":"user","content":")" + text + "\"}}\n";
}

std::string call(const std::string& id, const std::string& name, const std::string& input,
                 const std::string& ts) {
  return R"({"type":"assistant","sessionId":")" + kSid + R"(","cwd":"/proj","uuid":"a)" + id +
         R"(","timestamp":")" + ts +
         R"(","message":{"role":"assistant","content":[{"type":"tool_use","id":")" + id + R"(","name":")" +
         name + R"(","input":)" + input + "}]}}\n";
}

std::string result(const std::string& id, bool error, const std::string& text, const std::string& tur,
                   const std::string& ts) {
  return R"({"type":"user","sessionId":")" + kSid + R"(","uuid":"r)" + id + R"(","timestamp":")" + ts +
         R"(","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":")" + id +
         R"(","is_error":)" + (error ? "true" : "false") + R"(,"content":")" + text + "\"}]}" +
         (tur.empty() ? "" : ",\"toolUseResult\":" + tur) + "}\n";
}

}  // namespace

TEST_CASE("structured edits count only when their result landed; integrity errors are boundaries") {
  TempStore store;
  std::string lines;
  lines += prompt("write the files", "2026-01-01T00:00:00Z");  // 1
  lines +=
      call("t1", "Write", R"({"file_path":"/proj/new.txt","content":"x"})", "2026-01-01T00:00:01Z");  // 2
  lines +=
      result("t1", false, "ok", R"({"type":"create","filePath":"/proj/new.txt"})", "2026-01-01T00:00:02Z");
  lines += call("t2", "Edit", R"({"file_path":"/proj/a.py","old_string":"a","new_string":"b"})",
                "2026-01-01T00:00:03Z");  // 4
  lines += result("t2", true, "File has been modified since read, either by the user or by a linter.", "",
                  "2026-01-01T00:00:04Z");           // 5
  lines += prompt("again", "2026-01-01T00:01:00Z");  // 6
  lines += call("t3", "Edit", R"({"file_path":"/proj/a.py","old_string":"a","new_string":"b"})",
                "2026-01-01T00:01:01Z");  // 7
  lines +=
      result("t3", false, "ok", R"({"filePath":"/proj/a.py","originalFile":"a"})", "2026-01-01T00:01:02Z");
  lines += call("t4", "Edit", R"({"file_path":"/proj/c.py","old_string":"x","new_string":"y"})",
                "2026-01-01T00:01:03Z");  // 9
  lines += result("t4", true, "String to replace not found in file.", "", "2026-01-01T00:01:04Z");
  lines += call("t5", "Bash", R"({"command":"cd sub && rm old.txt"})", "2026-01-01T00:01:05Z");  // 11
  lines += result("t5", true, "rm: cannot remove", "", "2026-01-01T00:01:06Z");
  lines += call("t6", "NotebookEdit", R"({"notebook_path":"/proj/n.ipynb"})", "2026-01-01T00:01:07Z");  // 13
  const std::string path = store.write("-proj/" + kSid + ".jsonl", lines);

  const auto t = transcript_for_file(path);
  REQUIRE(t);
  const TranscriptMutations m = scan_file_mutations(*t, nullptr);
  REQUIRE(m.mutations.size() == 3);
  CHECK(m.mutations[0].path == "/proj/new.txt");
  CHECK(m.mutations[0].op == "write");
  CHECK(m.mutations[0].is_create);
  CHECK(m.mutations[0].line == 2);
  CHECK(m.mutations[0].turn == 0);
  CHECK(m.mutations[1].path == "/proj/a.py");
  CHECK(m.mutations[1].op == "edit");
  CHECK_FALSE(m.mutations[1].is_create);
  CHECK(m.mutations[1].turn == 1);
  CHECK(m.mutations[2].path == "/proj/sub/old.txt");
  CHECK(m.mutations[2].heuristic);
  CHECK(m.mutations[2].command_errored);
  CHECK(m.mutations[2].resolution == PathResolution::cd_tracked);
  REQUIRE(m.boundaries.size() == 1);
  CHECK(m.boundaries[0].path == "/proj/a.py");
  CHECK(m.boundaries[0].cause == "modified-since-read");
  CHECK(m.boundaries[0].line == 5);
  CHECK(m.boundaries[0].turn == 0);
  CHECK(m.failed == 2);
  CHECK(m.unconfirmed == 1);
  CHECK(m.turns == 2);
}

TEST_CASE("a result written before its own call is joined to it by id (a streamed parallel batch)") {
  TempStore store;
  std::string lines;
  lines += prompt("batch", "2026-01-01T00:00:00Z");  // 1
  lines +=
      call("t1", "Write", R"({"file_path":"/proj/a.txt","content":"one\n"})", "2026-01-01T00:00:01Z");  // 2
  lines += result("t1", false, "ok", R"({"type":"create","filePath":"/proj/a.txt","content":"one\n"})",
                  "2026-01-01T00:00:02Z");  // 3
  // the batch: three results before their calls
  lines +=
      result("t2", false, "ok", R"({"filePath":"/proj/a.txt","originalFile":"one\n","structuredPatch":[]})",
             "2026-01-01T00:00:03Z");  // 4
  lines +=
      result("t3", false, "File created successfully at: /proj/new.txt",
             R"({"type":"create","filePath":"/proj/new.txt","content":"x"})", "2026-01-01T00:00:03Z");  // 5
  lines += result("t9", false, "done\\nagentId: abc123", "", "2026-01-01T00:00:03Z");                   // 6
  lines += call("t2", "Edit", R"({"file_path":"/proj/a.txt","old_string":"one","new_string":"two"})",
                "2026-01-01T00:00:04Z");  // 7
  lines +=
      call("t3", "Write", R"({"file_path":"/proj/new.txt","content":"x"})", "2026-01-01T00:00:04Z");  // 8
  lines += call("t9", "Task", R"({"description":"d","prompt":"p"})", "2026-01-01T00:00:04Z");         // 9
  lines +=
      call("t4", "Write", R"({"file_path":"/proj/late.txt","content":"y"})", "2026-01-01T00:00:05Z");  // 10
  const std::string path = store.write("-proj/" + kSid + ".jsonl", lines);
  const auto t = transcript_for_file(path);
  REQUIRE(t);

  const TranscriptMutations m = scan_file_mutations(*t, nullptr);
  REQUIRE(m.mutations.size() == 3);
  CHECK(m.mutations[1].path == "/proj/a.txt");
  CHECK(m.mutations[1].op == "edit");
  CHECK(m.mutations[1].line == 7);
  CHECK(m.mutations[2].path == "/proj/new.txt");
  CHECK(m.mutations[2].is_create);
  CHECK(m.mutations[2].turn == 0);
  CHECK(m.unconfirmed == 1);  // only t4 has no result

  const TranscriptContent c = scan_content_events(*t, {"/proj/a.txt", "/proj/new.txt"}, nullptr);
  REQUIRE(c.events.size() == 3);
  CHECK(c.events[0].kind == ContentEventKind::write);
  CHECK(c.events[1].kind == ContentEventKind::edit);  // its result's line (4) orders it
  CHECK(c.events[1].line == 4);
  CHECK(c.events[1].turn == 0);
  REQUIRE(c.events[1].edits.size() == 1);
  CHECK(c.events[1].edits[0].new_string == "two");
  CHECK(c.events[2].kind == ContentEventKind::write);
  CHECK(c.events[2].target == 1);
  CHECK(c.events[2].content == "x");

  const SessionSpawns s = session_spawns(*t, nullptr);
  REQUIRE(s.calls.size() == 1);
  CHECK(s.calls[0].has_result);
  CHECK(s.calls[0].result_agent_id == "abc123");
}

}  // namespace file_mutations_unit
