// OpenCode 1 and 2 readers: databases built at test time by fixtures/opencode/make_opencode_db.sh with the
// sqlite3 tool, checked against values the test reads back independently with sqlite3 queries (and, for the
// corpus session, with its export file parsed as JSON).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include "tests/unit/corpus_root.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/base/timefmt.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/opencode/opencode_fields.h"
#include "core/harness/opencode/opencode_reader.h"
#include "core/harness/opencode/opencode_store.h"
#include "tests/unit/temp_store.h"

namespace opencode_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

const std::string kGenerator = std::string(CSIFT_SOURCE_DIR) + "/fixtures/opencode/make_opencode_db.sh";

std::string oc_shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the generator; the database lands at `db`.
void oc_make(const std::string& kind, const std::string& db, const std::string& extra = "") {
  fs::create_directories(fs::path(db).parent_path());
  const std::string cmd = oc_shell_quote(kGenerator) + " " + kind + " " + oc_shell_quote(db) +
                          (extra.empty() ? "" : " " + oc_shell_quote(extra));
  REQUIRE(std::system(cmd.c_str()) == 0);
}

// One column of a query run by the sqlite3 tool (independent of the reader under test), one row a line.
std::vector<std::string> oc_sql(const std::string& db, const std::string& sql) {
  const std::string cmd = "sqlite3 -readonly " + oc_shell_quote(db) + " " + oc_shell_quote(sql);
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  REQUIRE(::pclose(p) == 0);
  std::vector<std::string> rows;
  size_t start = 0;
  while (start < out.size()) {
    const size_t nl = out.find('\n', start);
    rows.push_back(out.substr(start, nl - start));
    start = nl == std::string::npos ? out.size() : nl + 1;
  }
  return rows;
}
int64_t oc_num(const std::string& db, const std::string& sql) {
  return std::stoll(oc_sql(db, sql).at(0));
}

struct OcCollect final : RecordSink {
  std::vector<Record> records;
  std::vector<SkippedLine> skips;
  bool record(Record&& r) override {
    records.push_back(std::move(r));
    return true;
  }
  void skipped(SkippedLine&& s) override { skips.push_back(std::move(s)); }
};

const DbSession* oc_find(const OpenCodeStore& store, const std::string& id) {
  for (const DbSession& s : store.sessions)
    if (s.session_id == id) return &s;
  return nullptr;
}

std::vector<std::string> oc_prompts(const std::vector<Record>& records) {
  std::vector<std::string> out;
  for (const Record& r : records) {
    if (!opencode_opens_turn(r)) continue;
    for (const Block& b : r.message.blocks)
      if (b.kind == BlockKind::text) out.push_back(b.text);
  }
  return out;
}

std::map<std::string, OpenCodeToolOutcome> oc_outcomes(const std::vector<Record>& records) {
  std::map<std::string, OpenCodeToolOutcome> out;
  for (const Record& r : records)
    if (const OpenCodeFields* f = opencode_fields(r))
      for (const OpenCodeToolOutcome& t : f->tools)
        out[t.call_id] = t;
  return out;
}

const Record& oc_by_uuid(const std::vector<Record>& records, const std::string& uuid) {
  for (const Record& r : records)
    if (r.uuid == uuid) return r;
  FAIL("no record " << uuid);
  return records.front();
}

}  // namespace

TEST_CASE("opencode v1: discovery lists top-level sessions with their directory and times") {
  csift_test::TempStore home;
  const std::string data = (home.root / "data").string();
  const std::string db = data + "/opencode/opencode.db";
  oc_make("v1", db);
  Environment env = home.env();
  env.vars["XDG_DATA_HOME"] = data;
  const OpenCodeStore store = list_opencode_sessions(env);
  CHECK(store.problems.empty());
  REQUIRE(store.databases == std::vector<std::string>{db});
  std::vector<std::string> ids;
  for (const DbSession& s : store.sessions) {
    ids.push_back(s.session_id);
    CHECK(s.transcript.harness == HarnessId::opencode_v1);
    CHECK(s.transcript.id == "opencode-v1:" + s.session_id);  // the session's ref
    CHECK(s.transcript.path == db);
  }
  CHECK(ids == oc_sql(db, "SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created, id"));
  CHECK(store.child_sessions ==
        static_cast<uint64_t>(oc_num(db, "SELECT count(*) FROM session WHERE parent_id IS NOT NULL")));
  const DbSession* build = oc_find(store, "ses_fx1_build");
  REQUIRE(build);
  CHECK(build->cwd == oc_sql(db, "SELECT directory FROM session WHERE id = 'ses_fx1_build'").at(0));
  CHECK(build->updated_ms == oc_num(db, "SELECT time_updated FROM session WHERE id = 'ses_fx1_build'"));
  CHECK(build->transcript.mtime_ns == build->updated_ms * 1000000);
  CHECK(build->transcript.size ==
        static_cast<uint64_t>(
            oc_num(db,
                   "SELECT (SELECT sum(length(CAST(data AS BLOB))) FROM message WHERE session_id = "
                   "'ses_fx1_build') + (SELECT sum(length(CAST(data AS BLOB))) FROM part WHERE session_id "
                   "= 'ses_fx1_build')")));
  // A recorded directory that is not absolute is ignored, as if not recorded.
  const DbSession* other = oc_find(store, "ses_fx1_other");
  REQUIRE(other);
  CHECK(oc_sql(db, "SELECT directory FROM session WHERE id = 'ses_fx1_other'").at(0) == "relative/dir");
  CHECK(other->cwd.empty());
}

TEST_CASE("opencode v1: prompts, tool statuses, tokens and working directories") {
  csift_test::TempStore home;
  const std::string db = (home.root / "opencode.db").string();
  oc_make("v1", db);
  Transcript t;
  t.harness = HarnessId::opencode_v1;
  t.path = db;
  t.id = "opencode:ses_fx1_build";  // the input alias names the same session
  OcCollect sink;
  const ReadStats stats = opencode_v1_reader().read(t, ReadOptions{}, sink);
  REQUIRE(stats.error.empty());
  CHECK(sink.skips.empty());
  CHECK(stats.lines ==
        static_cast<uint64_t>(oc_num(db, "SELECT count(*) FROM message WHERE session_id = 'ses_fx1_build'")));
  REQUIRE(sink.records.size() == stats.lines);

  // Prompts: the human's text parts; synthetic ones are the harness's.
  CHECK(oc_prompts(sink.records) ==
        oc_sql(db,
               "SELECT json_extract(p.data, '$.text') FROM part p JOIN message m ON p.message_id = m.id "
               "WHERE m.session_id = 'ses_fx1_build' AND json_extract(m.data, '$.role') = 'user' "
               "AND json_extract(p.data, '$.type') = 'text' AND json_extract(p.data, '$.synthetic') IS NULL "
               "ORDER BY m.time_created, p.id"));
  const Record& synthetic_only = oc_by_uuid(sink.records, "msg_fx1_05");
  CHECK(synthetic_only.type == "system");
  CHECK_FALSE(opencode_opens_turn(synthetic_only));

  // Tool statuses, as the generator spells each call.
  const auto outcomes = oc_outcomes(sink.records);
  CHECK(outcomes.size() ==
        static_cast<size_t>(oc_num(db,
                                   "SELECT count(*) FROM part WHERE session_id = 'ses_fx1_build' AND "
                                   "json_extract(data, '$.type') = 'tool'")));
  const std::map<std::string, std::pair<std::optional<CallStatus>, std::optional<int64_t>>> want = {
      {"call_ok", {CallStatus::ok, 0}},
      {"call_exit1", {CallStatus::error, 1}},
      {"call_abort", {CallStatus::interrupted, std::nullopt}},
      {"call_denied", {CallStatus::denied, std::nullopt}},
      {"call_stopped", {CallStatus::interrupted, std::nullopt}},
      {"call_failed", {CallStatus::error, std::nullopt}},
      {"call_running", {std::nullopt, std::nullopt}},  // pending
  };
  for (const auto& entry : want) {
    const auto& [id, expect] = entry;
    CAPTURE(entry.first);
    REQUIRE(outcomes.count(id));
    CHECK(outcomes.at(id).status == expect.first);
    CHECK(outcomes.at(id).exit_code == expect.second);
  }
  // A finished call carries its result (is_error unless ok); a running one has none yet.
  const Record& calls = oc_by_uuid(sink.records, "msg_fx1_02");
  size_t results = 0, errors = 0;
  for (const Block& b : calls.message.blocks) {
    if (b.kind != BlockKind::tool_result) continue;
    ++results;
    errors += b.is_error;
  }
  CHECK(results == 6);
  CHECK(errors == 5);

  // Tokens: OpenCode's figures; output includes reasoning (billed as output).
  const std::string tok = "SELECT json_extract(data, '$.tokens.%s') FROM message WHERE id = 'msg_fx1_02'";
  const auto tokens = [&](const char* key) {
    char sql[256];
    std::snprintf(sql, sizeof sql, tok.c_str(), key);
    return oc_num(db, sql);
  };
  CHECK(calls.message.usage.present);
  CHECK(calls.message.usage.input_tokens == tokens("input"));
  CHECK(calls.message.usage.output_tokens == tokens("output") + tokens("reasoning"));
  CHECK(calls.message.usage.cache_read_input_tokens == tokens("cache.read"));
  CHECK(calls.message.usage.cache_creation_input_tokens == tokens("cache.write"));
  CHECK(calls.message.model ==
        oc_sql(db, "SELECT json_extract(data, '$.modelID') FROM message WHERE id = 'msg_fx1_02'").at(0));
  CHECK(calls.timestamp ==
        format_utc(
            oc_num(db, "SELECT json_extract(data, '$.time.created') FROM message WHERE id = 'msg_fx1_02'")));

  // Working directory: an assistant message's path.cwd; a user message has the session's directory.
  const Record& aborted = oc_by_uuid(sink.records, "msg_fx1_04");
  CHECK(aborted.cwd ==
        oc_sql(db, "SELECT json_extract(data, '$.path.cwd') FROM message WHERE id = 'msg_fx1_04'").at(0));
  CHECK(sink.records.front().cwd ==
        oc_sql(db, "SELECT directory FROM session WHERE id = 'ses_fx1_build'").at(0));
  REQUIRE(opencode_fields(aborted));
  CHECK(opencode_fields(aborted)->ended == "interrupted");

  // The raw lines are the records' lines: decoding one gives the same record.
  std::vector<std::string> raw;
  opencode_v1_reader().read_raw_lines(
      t,
      [&](const RawLine& l) {
        raw.emplace_back(l.bytes);
        return true;
      },
      nullptr);
  REQUIRE(raw.size() == sink.records.size());
  // An inline file keeps its head and size only.
  const std::string& pasted = raw.at(oc_by_uuid(sink.records, "msg_fx1_03").line - 1);
  CHECK(pasted.find("AAAAAAAAAAAAAAAA") == std::string::npos);
  CHECK(
      pasted.find(
          "data:image/png;base64,[" +
          oc_sql(db, "SELECT length(json_extract(data, '$.url')) FROM part WHERE id = 'prt_fx1_03b'").at(0) +
          " bytes of inline data not kept]") != std::string::npos);
  Record again;
  std::string error;
  REQUIRE(opencode_v1_reader().decode(raw[1], again, error));
  CHECK(again.uuid == "msg_fx1_02");
  CHECK(oc_outcomes({again}).size() == outcomes.size());
}

TEST_CASE("opencode v2: a migrated database is read as OpenCode 2 only, with its statuses and moves") {
  csift_test::TempStore home;
  const std::string data = (home.root / "data").string();
  const std::string db = data + "/opencode/opencode.db";
  oc_make("v2", db);
  Environment env = home.env();
  env.vars["XDG_DATA_HOME"] = data;
  const OpenCodeStore store = list_opencode_sessions(env);
  CHECK(store.problems.empty());
  std::vector<std::string> ids;
  for (const DbSession& s : store.sessions) {
    ids.push_back(s.session_id);
    CHECK(s.transcript.harness == HarnessId::opencode_v2);  // never also listed as opencode-v1
  }
  // Each harness listed on its own: OpenCode 1 finds nothing here, OpenCode 2 the same sessions.
  const OpenCodeLocation where = locate_opencode_store(env);
  CHECK(where.path == data + "/opencode");
  std::vector<Transcript> v1, v2;
  std::vector<StoreProblem> problems;
  list_opencode_v1_store(where.path, v1, problems);
  list_opencode_v2_store(where.path, v2, problems);
  CHECK(v1.empty());
  CHECK(v2.size() == store.sessions.size());
  CHECK(problems.empty());
  list_opencode_v2_store(db, v2, problems);  // a database file as the root: $OPENCODE_DB's case
  CHECK(v2.size() == 2 * store.sessions.size());
  CHECK(ids == oc_sql(db, "SELECT id FROM session_v2 WHERE parent_id IS NULL ORDER BY time_created, id"));
  CHECK(oc_num(db, "SELECT count(*) FROM session WHERE id = 'ses_fx2_migrated'") == 1);  // its V1 copy exists

  const DbSession* native = oc_find(store, "ses_fx2_native");
  REQUIRE(native);
  OcCollect sink;
  const ReadStats stats = opencode_v2_reader().read(native->transcript, ReadOptions{}, sink);
  REQUIRE(stats.error.empty());
  CHECK(sink.records.size() ==
        static_cast<size_t>(
            oc_num(db, "SELECT count(*) FROM session_message WHERE session_id = 'ses_fx2_native'")));
  CHECK(oc_prompts(sink.records) ==
        oc_sql(db,
               "SELECT json_extract(data, '$.text') FROM session_message WHERE session_id = 'ses_fx2_native' "
               "AND type = 'user' ORDER BY seq"));
  const auto outcomes = oc_outcomes(sink.records);
  REQUIRE(outcomes.size() == 3);
  CHECK(outcomes.at("call_v2_ok").status == CallStatus::ok);
  CHECK(outcomes.at("call_v2_exit").status == CallStatus::error);
  CHECK(outcomes.at("call_v2_exit").exit_code ==
        oc_num(db,
               "SELECT json_extract(c.value, '$.state.metadata.exit') FROM session_message m, "
               "json_each(m.data, '$.content') c WHERE json_extract(c.value, '$.id') = 'call_v2_exit'"));
  CHECK(outcomes.at("call_v2_err").status == CallStatus::error);

  const Record& call = oc_by_uuid(sink.records, "msg_fx2_n2");
  CHECK(call.message.model == "gpt-5");
  CHECK(
      call.message.usage.input_tokens ==
      oc_num(db, "SELECT json_extract(data, '$.tokens.input') FROM session_message WHERE id = 'msg_fx2_n2'"));
  CHECK(call.message.usage.output_tokens ==
        oc_num(db,
               "SELECT json_extract(data, '$.tokens.output') + json_extract(data, '$.tokens.reasoning') "
               "FROM session_message WHERE id = 'msg_fx2_n2'"));
  // The session's directory, then the one a location-switched row moved it to.
  CHECK(call.cwd == oc_sql(db, "SELECT directory FROM session_v2 WHERE id = 'ses_fx2_native'").at(0));
  CHECK(
      oc_by_uuid(sink.records, "msg_fx2_n4").cwd ==
      oc_sql(db,
             "SELECT json_extract(data, '$.location.directory') FROM session_message WHERE id = 'msg_fx2_n3'")
          .at(0));
  REQUIRE(opencode_fields(oc_by_uuid(sink.records, "msg_fx2_n5")));
  CHECK(opencode_fields(oc_by_uuid(sink.records, "msg_fx2_n5"))->ended == "interrupted");
  CHECK(opencode_fields(oc_by_uuid(sink.records, "msg_fx2_n6"))->ended == "interrupted");
}

TEST_CASE("opencode: a database without the expected tables, or not a database, is a reported problem") {
  csift_test::TempStore home;
  const std::string data = (home.root / "data").string();
  oc_make("no-message", data + "/opencode/opencode.db");
  std::ofstream(data + "/opencode/opencode-junk.db") << "not a database\n";
  Environment env = home.env();
  env.vars["XDG_DATA_HOME"] = data;
  const OpenCodeStore store = list_opencode_sessions(env);
  CHECK(store.sessions.empty());
  REQUIRE(store.problems.size() == 2);
  CHECK(store.problems[0].path == data + "/opencode/opencode.db");
  CHECK(store.problems[0].reason.find("`message`") != std::string::npos);
  CHECK(store.problems[1].path == data + "/opencode/opencode-junk.db");
  CHECK(store.problems[1].reason.find("cannot open as an SQLite database") != std::string::npos);

  // Listed per harness, a database neither schema reads is reported once, by OpenCode 1.
  CHECK(list_opencode_location(locate_opencode_store(env), OpenCodeSchema::v1).problems.size() == 2);
  CHECK(list_opencode_location(locate_opencode_store(env), OpenCodeSchema::v2).problems.empty());

  // $OPENCODE_DB replaces the default set; a relative one is under the data dir, a missing one is a problem.
  env.vars["OPENCODE_DB"] = "elsewhere.db";
  const OpenCodeLocation named = locate_opencode_store(env);
  CHECK(named.source == "$OPENCODE_DB");
  CHECK(named.path == data + "/opencode/elsewhere.db");
  std::vector<StoreProblem> problems;
  CHECK(opencode_database_paths(named, problems).empty());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == named.path);
  env.vars["OPENCODE_DB"] = data + "/opencode/opencode.db";  // an absolute one is taken as it is
  CHECK(opencode_database_paths(locate_opencode_store(env), problems) ==
        std::vector<std::string>{data + "/opencode/opencode.db"});
}

TEST_CASE("opencode: reading never writes beside the database (immutable, read-only)") {
  csift_test::TempStore home;
  const fs::path dir = home.root / "ro";
  const std::string db = (dir / "opencode.db").string();
  oc_make("v1", db);
  struct stat before {};
  REQUIRE(::stat(db.c_str(), &before) == 0);
  ::chmod(db.c_str(), 0444);
  ::chmod(dir.c_str(), 0555);
  OpenCodeStore store;
  list_opencode_database(db, store);
  REQUIRE(store.sessions.size() == 2);
  OcCollect sink;
  CHECK(opencode_v1_reader().read(store.sessions[0].transcript, ReadOptions{}, sink).error.empty());
  ::chmod(dir.c_str(), 0755);
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir))
    entries += e.path().filename() == "opencode.db" ? 0 : 1;
  CHECK(entries == 0);  // no -wal, -shm or -journal
  struct stat after {};
  REQUIRE(::stat(db.c_str(), &after) == 0);
  CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
}

TEST_CASE("opencode corpus: the devtoolbox session, loaded from its export into an OpenCode 1 database") {
  REQUIRE(fs::exists((csift_test::corpus_root() / "devtoolbox/96/0b22501128/0/full.jsonl").string()));
  csift_test::TempStore home;
  const std::string db = (home.root / "opencode.db").string();
  oc_make("export", db, (csift_test::corpus_root() / "devtoolbox/96/0b22501128/0/full.jsonl").string());
  const nlohmann::json ex = nlohmann::json::parse(
      std::ifstream((csift_test::corpus_root() / "devtoolbox/96/0b22501128/0/full.jsonl").string()));
  OpenCodeStore store;
  list_opencode_database(db, store);
  REQUIRE(store.sessions.size() == 1);
  const DbSession& s = store.sessions[0];
  CHECK(s.session_id == ex["info"]["id"].get<std::string>());
  CHECK(s.cwd == ex["info"]["directory"].get<std::string>());
  OcCollect sink;
  REQUIRE(opencode_v1_reader().read(s.transcript, ReadOptions{}, sink).error.empty());
  const auto& messages = ex["messages"];
  REQUIRE(sink.records.size() == messages.size());
  std::vector<std::string> prompts;
  size_t tools = 0, ok = 0;
  for (size_t i = 0; i < messages.size(); ++i) {
    const auto& info = messages[i]["info"];
    const Record& r = sink.records[i];
    CAPTURE(i);
    CHECK(r.uuid == info["id"].get<std::string>());
    CHECK(r.timestamp == format_utc(info["time"]["created"].get<int64_t>()));
    for (const auto& p : messages[i]["parts"]) {
      if (p["type"] == "text" && info["role"] == "user" && !p.value("synthetic", false))
        prompts.push_back(p["text"].get<std::string>());
      if (p["type"] != "tool") continue;
      ++tools;
      const auto& st = p["state"];
      ok += st["status"] == "completed" && st["metadata"].value("exit", 0) == 0;
    }
    if (info["role"] != "assistant") continue;
    CHECK(r.cwd == info["path"]["cwd"].get<std::string>());
    CHECK(r.message.model == info["modelID"].get<std::string>());
    CHECK(r.message.usage.input_tokens == info["tokens"]["input"].get<int64_t>());
    CHECK(r.message.usage.output_tokens ==
          info["tokens"]["output"].get<int64_t>() + info["tokens"]["reasoning"].get<int64_t>());
    CHECK(r.message.usage.cache_read_input_tokens == info["tokens"]["cache"]["read"].get<int64_t>());
  }
  CHECK(oc_prompts(sink.records) == prompts);
  const auto outcomes = oc_outcomes(sink.records);
  CHECK(outcomes.size() == tools);
  size_t ok_read = 0;
  for (const auto& [id, o] : outcomes)
    ok_read += o.status == CallStatus::ok;
  CHECK(ok_read == ok);
  CHECK(tools > 0);
}

TEST_CASE("opencode: records take the shared labels (prompt, tool call, tool result, harness note)") {
  csift_test::TempStore home;
  const std::string db = (home.root / "opencode.db").string();
  oc_make("v1", db);
  OpenCodeStore store;
  list_opencode_database(db, store);
  const DbSession* build = oc_find(store, "ses_fx1_build");
  REQUIRE(build);
  OcCollect sink;
  REQUIRE(opencode_v1_reader().read(build->transcript, ReadOptions{}, sink).error.empty());
  ClassifyContext ctx;
  std::map<Label, size_t> seen;
  for (const Record& r : sink.records)
    for (const Unit& u : classify_record(r, ctx))
      ++seen[u.labels.front()];
  const auto tools = oc_num(db,
                            "SELECT count(*) FROM part WHERE session_id = 'ses_fx1_build' AND "
                            "json_extract(data, '$.type') = 'tool'");
  const auto finished = oc_num(db,
                               "SELECT count(*) FROM part WHERE session_id = 'ses_fx1_build' AND "
                               "json_extract(data, '$.state.status') IN ('completed', 'error')");
  CHECK(seen[Label::user_message] == oc_prompts(sink.records).size());
  CHECK(seen[Label::agent_tool_use] == static_cast<size_t>(tools));
  CHECK(seen[Label::agent_tool_result] == static_cast<size_t>(finished));
  CHECK(seen[Label::agent_thinking] == 1);
  CHECK(seen[Label::harness_meta_system] == 1);  // the synthetic-only message
}

TEST_CASE("opencode: a row with unexpected types decodes without throwing, reading odd values as absent") {
  Record r;
  std::string error;
  CHECK(decode_opencode_line(
      R"({"info":{"role":"user","time":{"created":"x"},"path":7},"parts":[{"type":"text","text":5,"synthetic":null},)"
      R"({"type":"tool","callID":1,"state":{"status":"completed","metadata":{"exit":"x"},"output":[]}},null],"directory":3})",
      r, error));
  CHECK(r.timestamp.empty());
  CHECK(r.cwd.empty());
  REQUIRE(opencode_fields(r));
  REQUIRE(opencode_fields(r)->tools.size() == 1);
  CHECK(opencode_fields(r)->tools[0].status == CallStatus::ok);
  CHECK_FALSE(opencode_fields(r)->tools[0].exit_code);
  Record v2;
  CHECK(decode_opencode_line(R"({"type":"assistant","data":{"content":"x","tokens":[],"error":"y"}})", v2,
                             error));
  CHECK_FALSE(decode_opencode_line(R"({"neither":1})", v2, error));
  CHECK(error.find("neither") != std::string::npos);
}

}  // namespace opencode_unit
