// list: the head/tail identity probe on temp files (anchors, disjoint windows, clone detection), the cap
// ranking, and the clone origin join.
#include <doctest/doctest.h>

#include "core/base/envelope.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/clone_lineage.h"
#include "temp_store.h"
#include "tools/common/scope_args.h"
#include "tools/list/list_row.h"

namespace list_unit {

using namespace csift;

namespace {

std::string user(const std::string& text, const std::string& ts, const std::string& extra = "",
                 const std::string& version = "2.1.1", const std::string& branch = "main") {
  return R"({"type":"user",)" + extra + R"("uuid":"u-)" + ts + R"(","timestamp":")" + ts +
         R"(","cwd":"/work/app","version":")" + version + R"(","gitBranch":")" + branch +
         R"(","message":{"role":"user","content":")" + text + "\"}}\n";
}

std::string agent(const std::string& text, const std::string& ts, const std::string& version = "2.1.1",
                  const std::string& branch = "main") {
  return R"({"type":"assistant","uuid":"a-)" + ts + R"(","timestamp":")" + ts +
         R"(","cwd":"/work/app/sub","version":")" + version + R"(","gitBranch":")" + branch +
         R"(","message":{"role":"assistant","content":[{"type":"text","text":")" + text + "\"}]}}\n";
}

std::string tool_result(const std::string& ts) {
  return R"({"type":"user","uuid":"r-)" + ts + R"(","timestamp":")" + ts +
         R"(","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}})"
         "\n";
}

std::string boundary(const std::string& uuid, const std::string& ts) {
  return R"({"type":"system","subtype":"compact_boundary","uuid":")" + uuid + R"(","timestamp":")" + ts +
         R"(","content":"Conversation compacted"})"
         "\n";
}

}  // namespace

// A probe keeps an anchor's first kProbeAnchorChars characters, folded to one line, and the whole text's
// count; the row shows what the whole text would have given: the same excerpt and the same count.
TEST_CASE("probe: an anchor keeps the one-line excerpt's characters and the whole text's count") {
  std::string long_text = "ask\\n\\n  about\\t";
  std::string whole = "ask\n\n  about\t";
  for (int i = 0; i < 300; ++i) {
    long_text += "\xC3\xA9 ";  // é and a space: two characters, one of them two bytes
    whole += "\xC3\xA9 ";
  }
  csift_test::TempStore store;
  const std::string path = store.write(
      "-p/s.jsonl", user(long_text, "2026-03-01T09:00:00Z") + agent("short", "2026-03-01T09:00:01Z"));
  const SessionProbe p = probe_session(path);
  REQUIRE(p.error.empty());
  const std::string flat = one_line(whole);
  CHECK(utf8_length(p.first_user.text) == kProbeAnchorChars);
  CHECK(p.first_user.text == std::string(utf8_prefix(flat, kProbeAnchorChars)));
  CHECK(p.first_user.text.rfind("ask about \xC3\xA9 ", 0) == 0);
  CHECK(p.first_user.chars == utf8_length(flat));
  CHECK(p.first_user.chars == 10 + 600 - 1);  // "ask about " and 300 "é ", the last space trimmed
  CHECK(p.last_agent.text == "short");
  CHECK(p.last_agent.chars == 5);

  Transcript t;
  t.path = path;
  t.id = "s";
  ListEntry entry;
  entry.transcript = &t;
  entry.probe = std::make_shared<const SessionProbe>(p);
  const json row = list_row(entry);
  CHECK(row["first_user"]["text"] == excerpt(flat, kProbeAnchorChars));
  CHECK(row["first_user"]["text"].get<std::string>().find("\xE2\x80\xA6 (+409 chars)") != std::string::npos);
  CHECK(row["first_user"]["chars"] == utf8_length(flat));
  CHECK(row["last_agent"]["text"] == "short");
}

TEST_CASE("probe: first and last human are genuine users, never traps") {
  csift_test::TempStore store;
  const std::string path = store.write(
      "-p/s.jsonl", R"({"type":"permission-mode","permissionMode":"default"})"
                    "\n" +
                        user("<command-name>/clear</command-name>", "2026-03-01T09:00:00Z") +
                        user("meta injected", "2026-03-01T09:00:01Z", R"("isMeta":true,)") +
                        user("first ask", "2026-03-01T09:00:02Z") + agent("working", "2026-03-01T09:00:03Z") +
                        tool_result("2026-03-01T09:00:04Z") + user("last ask", "2026-03-01T09:00:05Z") +
                        agent("final answer", "2026-03-01T09:00:06Z", "2.1.2", "dev") +
                        user("[Request interrupted by user]", "2026-03-01T09:00:07Z", "", "2.1.2", "dev") +
                        tool_result("2026-03-01T09:00:08Z"));
  const SessionProbe p = probe_session(path);
  REQUIRE(p.error.empty());
  CHECK(p.first_user.text == "first ask");
  CHECK(p.first_user.line == 4);
  CHECK(p.last_user.text == "last ask");
  CHECK(p.last_user.line == 7);  // numbered through the small gap between the windows
  CHECK(p.last_agent.line == 8);
  CHECK(p.last_agent.text == "final answer");
  CHECK(p.cwd == "/work/app");  // first seen, never the later subdir
  CHECK(p.version_first == "2.1.1");
  CHECK(p.version_last == "2.1.2");
  CHECK(p.git_branch_first == "main");
  CHECK(p.git_branch_last == "dev");
  CHECK(p.first_timestamp == "2026-03-01T09:00:00Z");
  CHECK(p.last_timestamp == "2026-03-01T09:00:08Z");
  CHECK_FALSE(p.is_clone);
  CHECK_FALSE(p.read_whole_file);
  CHECK(p.skipped_lines == 0);
}

TEST_CASE("probe: the head stops at the first genuine user and the tail never reads below it") {
  csift_test::TempStore store;
  std::string middle;
  while (middle.size() < (3u << 20) / 2)
    middle += tool_result("2026-03-01T09:10:00Z");
  const std::string head = user("opening", "2026-03-01T09:00:00Z");
  const std::string path =
      store.write("-p/s.jsonl", head + "{broken\n" + middle + user("closing", "2026-03-01T10:00:00Z") +
                                    agent("bye", "2026-03-01T10:00:01Z"));
  const SessionProbe p = probe_session(path);
  CHECK(p.head_end == head.size());
  CHECK(p.first_user.text == "opening");
  CHECK(p.last_user.text == "closing");
  CHECK(p.last_agent.text == "bye");
  CHECK(p.skipped_lines == 0);   // the broken line sits between the windows: outside list's census
  CHECK(p.last_user.line == 0);  // numbering it would mean reading the 1.5 MB middle
  CHECK(p.bytes_read < 16 * 1024 + 64 * 1024 + head.size());
}

TEST_CASE("probe: malformed lines are counted once when the anchors force a whole-file read") {
  csift_test::TempStore store;
  const std::string path =
      store.write("-p/s.jsonl", tool_result("2026-03-01T09:00:00Z") + "{broken\n" + "not json at all\n" +
                                    tool_result("2026-03-01T09:00:01Z") + "{\"torn\":");
  const SessionProbe p = probe_session(path);
  CHECK(p.read_whole_file);
  CHECK_FALSE(p.first_user.found);
  CHECK_FALSE(p.last_user.found);
  CHECK(p.skipped_lines == 3);  // two malformed lines and the torn tail, each once
}

TEST_CASE(
    "probe: a long prefix before the first human keeps exact line numbers across the head's read sizes") {
  csift_test::TempStore store;
  std::string prefix;
  uint64_t lines = 0;
  while (prefix.size() < 600 * 1024) {
    prefix += tool_result("2026-03-01T09:00:00Z");
    ++lines;
  }
  const std::string path =
      store.write("-p/s.jsonl", prefix + "{broken\n" + user("finally", "2026-03-01T09:10:00Z") +
                                    tool_result("2026-03-01T09:11:00Z"));
  const SessionProbe p = probe_session(path);
  CHECK(p.first_user.text == "finally");
  CHECK(p.first_user.line == lines + 2);
  CHECK(p.last_user.text == "finally");
  CHECK(p.skipped_lines == 1);
  CHECK_FALSE(p.read_whole_file);
}

TEST_CASE("probe: only one genuine user makes it both first and last; head agent text is the fallback") {
  csift_test::TempStore store;
  const std::string path = store.write("-p/s.jsonl", agent("before anything", "2026-03-01T08:59:00Z") +
                                                         user("only ask", "2026-03-01T09:00:00Z"));
  const SessionProbe p = probe_session(path);
  CHECK(p.first_user.text == "only ask");
  CHECK(p.last_user.text == "only ask");
  CHECK(p.last_agent.text == "before anything");
}

TEST_CASE("probe: a first timestamped compact_boundary marks a clone") {
  csift_test::TempStore store;
  const std::string origin =
      store.write("-p/11111111-1111-4111-8111-000000000001.jsonl",
                  user("start", "2026-03-01T09:00:00Z") + boundary("b-uuid", "2026-03-01T09:30:00Z") +
                      user("after", "2026-03-01T09:31:00Z"));
  const std::string clone_path = store.write("-p/99999999-9999-4999-8999-000000000009.jsonl",
                                             R"({"type":"summary","summary":"x"})"
                                             "\n" +
                                                 boundary("b-uuid", "2026-03-01T09:30:00Z") +
                                                 user("in the clone", "2026-03-02T09:00:00Z"));
  const SessionProbe p = probe_session(clone_path);
  CHECK(p.is_clone);
  CHECK(p.clone_boundary_uuid == "b-uuid");
  CHECK_FALSE(probe_session(origin).is_clone);

  Transcript clone;
  clone.path = clone_path;
  clone.project_dir = (store.projects() / "-p").string();
  CHECK(find_clone_origin(clone, "b-uuid") ==
        std::optional<std::string>("11111111-1111-4111-8111-000000000001"));
  CHECK_FALSE(find_clone_origin(clone, "missing-uuid").has_value());
}

TEST_CASE("most recent activity ranks by the anchors; the cap keeps scope order") {
  SessionProbe a, b;
  a.last_agent = ProbedMessage{true, "x", "2026-03-01T10:00:00Z", 0, 0};
  b.first_user = ProbedMessage{true, "y", "2026-03-02T10:00:00Z", 1, 0};
  CHECK(most_recent_activity(b) > most_recent_activity(a));
  SessionProbe none;
  CHECK(most_recent_activity(none) == INT64_MIN);
  CHECK(keep_most_recent({5, 1, 9, 7}, 2) == std::vector<size_t>{2, 3});
  CHECK(keep_most_recent({5, 1}, 3) == std::vector<size_t>{0, 1});
}

TEST_CASE("time window: span intersection") {
  TimeWindow w;
  w.since = 100;
  w.until = 200;
  CHECK(w.intersects(50, 150));
  CHECK(w.intersects(50, 250));  // a straddling session still lists
  CHECK_FALSE(w.intersects(10, 99));
  CHECK_FALSE(w.intersects(201, 300));
  SessionProbe none;
  CHECK_FALSE(probe_span_meets(none, w));
  CHECK(probe_span_meets(none, TimeWindow{}));
}

TEST_CASE("probe: a session file's inline sidechain records are never its first or last human or agent") {
  csift_test::TempStore store;
  const std::string side = R"("isSidechain":true,)";
  const std::string path = store.write(
      "-p/s.jsonl",
      user("build the iso", "2026-03-01T09:00:00Z") + agent("spawning", "2026-03-01T09:00:01Z") +
          user("act as the DIRECTOR agent", "2026-03-01T09:00:02Z", side, "1.0.80") +
          R"({"type":"assistant","isSidechain":true,"version":"1.0.80","uuid":"sa","timestamp":"2026-03-01T09:00:03Z","message":{"role":"assistant","content":[{"type":"text","text":"director report"}]}})"
          "\n" +
          agent("the iso is built", "2026-03-01T09:00:04Z") +
          user("act as the ARCHITECT agent", "2026-03-01T09:00:05Z", side, "1.0.80"));
  const SessionProbe p = probe_session(path);
  REQUIRE(p.error.empty());
  CHECK(p.first_user.text == "build the iso");
  CHECK(p.last_user.text == "build the iso");
  CHECK(p.last_agent.text == "the iso is built");
  // In an agent-<id>.jsonl every record is the agent's own: its prompt is its first message.
  const std::string agent_path = store.write(
      "-p/agent-a1b2c3.jsonl", user("act as the DIRECTOR agent", "2026-03-01T09:00:02Z", side, "1.0.80"));
  CHECK(probe_session(agent_path).first_user.text == "act as the DIRECTOR agent");
}

}  // namespace list_unit
