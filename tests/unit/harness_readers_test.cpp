// The Codex, Gemini CLI and Copilot CLI readers over the real logs in ../shared/corpus (read in place,
// through a temp store of symlinks laid out as each harness lays out its store) and over fixtures/harnesses:
// the sessions each store lists, working directories, prompts, tool calls with their statuses and token
// figures, each checked against values this test reads from the raw files itself.
#include <doctest/doctest.h>

#include <unistd.h>
#include "tests/unit/corpus_root.h"
#include "tests/unit/temp_store.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/base/error.h"
#include "core/harness/claude_code/classify.h"
#include "core/harness/copilot/copilot_shell_trailer.h"
#include "core/harness/gemini_cli/gemini_cli_text.h"
#include "core/harness/harness_entry.h"
#include "core/harness/read_probe.h"
#include "core/record/transcript_reader.h"
#include "core/store/targets.h"

namespace harness_readers_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(CSIFT_SOURCE_DIR) / "fixtures" / "harnesses";

// A temp HOME (no ~/.claude in it) holding harness stores made of symlinks to files read in place.
struct LinkStore : csift_test::TempDir {
  LinkStore() : TempDir("csift-hstore") {}
  void link(const fs::path& target, const std::string& rel) const {
    fs::create_directories((root / rel).parent_path());
    fs::create_symlink(fs::canonical(target), root / rel);
  }
  Environment env(std::map<std::string, std::string> vars) const {
    Environment e;
    e.vars = std::move(vars);
    e.vars["HOME"] = root.string();
    e.cwd = "/";
    return e;
  }
};

// The entries of a log's newline-terminated lines; a final line without its newline is a torn tail, which no
// reader reads (it is counted in `torn`).
std::vector<nlohmann::json> raw_entries(const fs::path& file, bool* torn = nullptr) {
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (torn) *torn = !text.empty() && text.back() != '\n';
  std::vector<nlohmann::json> out;
  size_t at = 0;
  for (size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string line = text.substr(at, nl - at);
    if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

Scope scope_of(const Environment& env, std::vector<std::string> harnesses,
               std::vector<std::string> targets = {}) {
  TargetRequest req;
  req.harnesses = std::move(harnesses);
  req.targets = std::move(targets);
  return TargetResolver(env, std::nullopt).resolve(req);
}

// What the reader made of one transcript, counted from its records.
struct Mapped {
  std::vector<std::string> prompts;
  std::map<std::string, std::string> tool_names;  // call id -> name
  std::map<std::string, std::string> markers;     // call id -> status marker of its result
  std::map<std::string, std::string> inputs;      // call id -> input json
  int64_t input = 0, cached = 0, output = 0;
  uint64_t skipped = 0, records = 0;
  std::string cwd;
};

Mapped read_mapped(const Transcript& t) {
  Mapped m;
  ReadResult read = read_transcript(t, ReadOptions{});
  m.skipped = read.skipped_lines;
  m.records = read.records.size();
  std::set<std::string> usage_ids;
  for (const Record& r : read.records) {
    if (m.cwd.empty()) m.cwd = r.cwd;
    if (is_genuine_user(r)) m.prompts.push_back(user_text(r));
    for (const Block& b : r.message.blocks) {
      if (b.kind == BlockKind::tool_use) {
        m.tool_names[b.id] = b.name;
        m.inputs[b.id] = b.input_json;
      }
      if (b.kind == BlockKind::tool_result && !m.markers.count(b.tool_use_id))
        m.markers[b.tool_use_id] = csift::status_marker_of(b);
    }
    const Usage& u = r.message.usage;
    if (u.present && (r.message.id.empty() || usage_ids.insert(r.message.id).second)) {
      m.input += u.input_tokens;
      m.cached += u.cache_read_input_tokens;
      m.output += u.output_tokens;
    }
  }
  return m;
}

// The exit code Codex's own header (the lines before `Output:`) records, if any.
std::optional<int64_t> raw_codex_exit(const std::string& output) {
  static const std::regex code(R"((?:^|\n)(?:Process exited with code |Exit code: )(-?\d+)\n)");
  const std::string header = output.substr(0, output.find("\nOutput:\n") + 1);
  std::smatch m;
  if (std::regex_search(header, m, code)) return std::stoll(m[1]);
  return std::nullopt;
}

}  // namespace

TEST_CASE("codex: the corpus rollouts read in place, checked against their raw entries") {
  LinkStore store;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(csift_test::corpus_root() / "localpush"))
    if (e.path().extension() == ".jsonl") files.push_back(e.path());
  for (const char* dir : {"01/da544acf74", "10/196f206d8a", "1f/b1fe555aea", "6c/fb81c05ca9"})
    files.push_back(csift_test::corpus_root() / "skills" / dir / "0" / "full.jsonl");
  std::map<std::string, fs::path> by_ref;
  for (const fs::path& f : files) {
    const nlohmann::json meta = raw_entries(f).front();
    REQUIRE(meta["type"] == "session_meta");
    const std::string id = meta["payload"]["id"];
    store.link(f, "codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-" + id + ".jsonl");
    by_ref["codex:" + id] = f;
  }
  // Not zstd at all: listed and read, its one line a counted skip naming libzstd's reason.
  store.write(
      "codex/archived_sessions/rollout-2026-01-02T00-00-00-0199ffff-0000-7000-8000-000000000009.jsonl.zst",
      "x");
  const Scope scope = scope_of(store.env({{"CODEX_HOME", (store.root / "codex").string()}}), {"codex"});
  REQUIRE(scope.stores.size() == 1);
  CHECK(scope.stores[0].found);
  CHECK(scope.stores[0].sessions == files.size() + 1);
  REQUIRE(scope.transcripts.size() == files.size() + 1);
  CHECK(scope.problems.empty());
  CHECK(!scope.claude_store_read);

  int64_t failed_calls = 0;
  for (const Transcript& t : scope.transcripts) {
    CAPTURE(t.path);
    if (t.path.ends_with(".zst")) {
      const Mapped m = read_mapped(t);
      CHECK(m.records == 0);
      CHECK(m.skipped == 1);
      continue;
    }
    REQUIRE(by_ref.count(t.id));
    bool torn = false;
    const std::vector<nlohmann::json> raw = raw_entries(by_ref[t.id], &torn);
    const Mapped m = read_mapped(t);
    CHECK(m.skipped == (torn ? 1u : 0u));
    CHECK(m.records == raw.size());
    CHECK(probe_by_reading(t).cwd == raw.front()["payload"]["cwd"].get<std::string>());
    std::vector<std::string> prompts;
    std::set<std::string> calls;
    std::map<std::string, int64_t> exits;
    nlohmann::json last_total;
    for (const nlohmann::json& e : raw) {
      const nlohmann::json& p = e.value("payload", nlohmann::json::object());
      const std::string type = p.is_object() ? p.value("type", "") : "";
      if (e["type"] == "event_msg" && type == "user_message") prompts.push_back(p["message"]);
      if (e["type"] == "response_item" && (type == "function_call" || type == "custom_tool_call"))
        calls.insert(p["call_id"]);
      if (e["type"] == "response_item" && type == "function_call_output" && p["output"].is_string() &&
          !exits.count(p["call_id"]))
        if (auto code = raw_codex_exit(p["output"])) exits[p["call_id"]] = *code;
      if (type == "token_count" && p["info"].is_object()) last_total = p["info"]["total_token_usage"];
    }
    CHECK(m.prompts == prompts);
    CHECK(m.tool_names.size() == calls.size());
    for (const auto& exit : exits) {
      const auto& [id, code] = exit;
      CAPTURE(exit.first);
      CHECK(m.markers.at(id) ==
            (code == 0 ? "[exit 0]" : "[error \xC2\xB7 exit " + std::to_string(code) + "]"));
      failed_calls += code != 0;
    }
    if (last_total.is_object()) {
      const int64_t cached = last_total["cached_input_tokens"];
      CHECK(m.cached == cached);
      CHECK(m.input == last_total["input_tokens"].get<int64_t>() - cached);
      CHECK(m.output == last_total["output_tokens"].get<int64_t>());
    }
  }
  CHECK(failed_calls > 0);  // the corpus holds failing commands: the check above saw some
}

TEST_CASE(
    "codex fixture: bash -lc read as its script; error, denied and interrupted calls; a repeated total") {
  const Environment env = LinkStore().env({{"CODEX_HOME", (kFixtures / "codex").string()}});
  const Scope scope = scope_of(env, {}, {"codex:0199aaaa"});
  REQUIRE(scope.transcripts.size() == 1);
  const Mapped m = read_mapped(scope.transcripts[0]);
  CHECK(m.cwd == "/home/dev/projects/shop");
  CHECK(m.prompts ==
        std::vector<std::string>{"now run the tests, then the migration", "drop the table and retry"});
  CHECK(nlohmann::json::parse(m.inputs.at("call_c2"))["command"] == "rake db:migrate");
  CHECK(m.markers.at("call_c1") == "[exit 0]");
  CHECK(m.markers.at("call_c2") == "[error \xC2\xB7 exit 1]");
  CHECK(m.markers.at("call_c3") == "[denied]");
  CHECK(m.markers.at("call_c4") == "[interrupted]");
  CHECK(m.input == 2300 - 1700);
  CHECK(m.cached == 1700);
  CHECK(m.output == 80);
  CHECK(scope_of(env, {"codex"}).problems.empty());
  CHECK_THROWS_AS(scope_of(env, {}, {"codex:0199ffff"}), ToolError);
  CHECK_THROWS_AS(scope_of(env, {"codexx"}), ToolError);
}

TEST_CASE("gemini-cli: the corpus session and legacy .json sessions, and the fixture's statuses") {
  LinkStore store;
  const fs::path v040 =
      csift_test::corpus_root() / "agent-sessions/Resources/Fixtures/stage0/agents/gemini/jsonl_v040.jsonl";
  store.link(v040, ".gemini/tmp/p1/chats/session-2026-04-29T21-39-v040.jsonl");
  store.write(".gemini/tmp/p1/.project_root", "/work/demo\n");
  // The cli corpus's Gemini CLI sessions are single-document JSON (releases before v0.39.0; v0.23 here).
  // Three of them are checkpoints of one session (one id): each file is its own transcript.
  std::map<std::string, fs::path> legacy;  // link name -> document
  for (const char* dir :
       {"12/cbfeaa512b/0", "51/3fab7adf0b/0", "9c/53780d06b7/0", "c9/45f262e88d/0", "ab/2b9748b105/0"}) {
    const fs::path doc = csift_test::corpus_root() / "cli" / dir / "full.jsonl";
    const std::string name = "session-legacy-" + std::to_string(legacy.size()) + ".json";
    store.link(doc, ".gemini/tmp/p2/chats/" + name);
    legacy[name] = doc;
  }
  // A scope holds one transcript per ref, and the checkpoints share theirs: one transcript per session id.
  std::set<std::string> legacy_ids;
  for (const auto& [name, doc] : legacy) {
    std::ifstream in(doc);
    legacy_ids.insert(nlohmann::json::parse(in)["sessionId"].get<std::string>());
  }
  const Scope scope = scope_of(store.env({}), {"gemini-cli"});
  REQUIRE(scope.transcripts.size() == 1 + legacy_ids.size());
  CHECK(scope.problems.empty());
  // Each legacy document read as its messages: its prompts and its calls, every one a success (v0.23 writes
  // `Exit Code: 0` and `Signal: 0` on each shell result).
  size_t legacy_read = 0;
  for (const Transcript& lt : scope.transcripts) {
    const std::string name = fs::path(lt.path).filename().string();
    if (!legacy.count(name)) continue;
    ++legacy_read;
    std::ifstream in(legacy.at(name));
    const nlohmann::json doc = nlohmann::json::parse(in);
    CHECK(lt.id == "gemini-cli:" + doc["sessionId"].get<std::string>());
    std::vector<std::string> prompts;
    std::map<std::string, std::string> calls;
    for (const nlohmann::json& msg : doc["messages"]) {
      // the CLI's own continuation after an invalid stream (3fab7adf0b holds one) is no prompt
      if (msg["type"] == "user" && msg["content"] != "System: Please continue.")
        prompts.push_back(msg["content"].get<std::string>());
      for (const nlohmann::json& c : msg.value("toolCalls", nlohmann::json::array()))
        calls[c["id"].get<std::string>()] = c["name"].get<std::string>();
    }
    const Mapped lm = read_mapped(lt);
    CHECK(lm.prompts == prompts);
    CHECK(lm.tool_names == calls);
    CHECK(lm.skipped == 0);
    CHECK(lm.records == doc["messages"].size() + 1);
    for (const auto& entry : lm.markers)
      CHECK_MESSAGE((entry.second.empty() || entry.second == "[exit 0]"), entry.first << " " << entry.second);
  }
  CHECK(legacy_read == legacy_ids.size());
  const std::vector<nlohmann::json> raw = raw_entries(v040);
  const auto current = std::find_if(scope.transcripts.begin(), scope.transcripts.end(),
                                    [](const Transcript& x) { return x.path.ends_with(".jsonl"); });
  REQUIRE(current != scope.transcripts.end());
  const Transcript& t = *current;
  CHECK(t.id == "gemini-cli:" + raw[0]["sessionId"].get<std::string>());
  const Mapped m = read_mapped(t);
  CHECK(m.cwd == "/work/demo");
  int64_t in = 0, cached = 0, out = 0;
  std::vector<std::string> prompts;
  size_t calls = 0;
  for (const nlohmann::json& e : raw) {
    if (e.value("type", "") == "user") prompts.push_back(e["content"][0]["text"]);
    if (!e.contains("tokens")) continue;
    in += e["tokens"]["input"].get<int64_t>();
    cached += e["tokens"]["cached"].get<int64_t>();
    out += e["tokens"]["output"].get<int64_t>() + e["tokens"]["thoughts"].get<int64_t>();
    calls += e.value("toolCalls", nlohmann::json::array()).size();
  }
  CHECK(m.prompts == prompts);
  CHECK(m.tool_names.size() == calls);
  CHECK(m.input == in - cached);
  CHECK(m.cached == cached);
  CHECK(m.output == out);
  CHECK(m.markers.at("run_shell_command_stage0") == "");  // a success without an exit code

  const Scope fixture =
      scope_of(LinkStore().env({{"GEMINI_CLI_HOME", (kFixtures / "gemini").string()}}), {"gemini"});
  // The empty legacy document is a session of its own.
  REQUIRE(fixture.transcripts.size() == 2);
  CHECK(fixture.problems.empty());
  const auto jsonl = std::find_if(fixture.transcripts.begin(), fixture.transcripts.end(),
                                  [](const Transcript& x) { return x.path.ends_with(".jsonl"); });
  REQUIRE(jsonl != fixture.transcripts.end());
  const Mapped f = read_mapped(*jsonl);
  CHECK(f.cwd == "/home/dev/projects/shop");
  CHECK(f.markers.at("run_shell_command_1") == "[error \xC2\xB7 exit 3]");
  CHECK(f.markers.at("run_shell_command_2") == "[denied]");
  CHECK(f.markers.at("run_shell_command_3") == "[interrupted]");
}

TEST_CASE("gemini-cli: an excerpt starts past the untrusted_context frame and an old shell header") {
  // v0.49+: wrapUntrusted() around the shell's block (tools/shell.ts, utils/textUtils.ts).
  const std::string framed = "<untrusted_context>\nOutput: 2 failing\nExit Code: 1\n</untrusted_context>\n";
  CHECK(gemini_unframed(framed) == "Output: 2 failing\nExit Code: 1");
  CHECK(gemini_excerpt_body("run_shell_command", framed) == "Output: 2 failing\nExit Code: 1");
  // Not framed, or framed only in part: the text as it is.
  CHECK(gemini_unframed("Output: ok") == "Output: ok");
  CHECK(gemini_unframed("<untrusted_context>\nno close") == "<untrusted_context>\nno close");
  // v0.25 and earlier: `Command:` (over several lines) and `Directory:` come before the output.
  const std::string old =
      "Command: printf 'a\nb'\nDirectory: (root)\nOutput: a\nb\nError: (none)\nExit Code: 0";
  CHECK(gemini_excerpt_body("run_shell_command", old) == "Output: a\nb\nError: (none)\nExit Code: 0");
  CHECK(gemini_excerpt_body("read_file", old) == old);  // another tool's text is not a shell block
}

TEST_CASE("copilot: the corpus event logs and the fixture's statuses") {
  LinkStore store;
  const fs::path dir = csift_test::corpus_root() / "agent-sessions/Resources/Fixtures/stage0/agents/copilot";
  const std::map<std::string, fs::path> logs = {
      {"aaaabbbb-1111-2222-3333-ccccddddeeee",
       dir / "subdir_v1/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl"},
      {"copilot_stage0_small", dir / "small.jsonl"},
      {"copilot_stage0_large", dir / "large.jsonl"}};
  for (const auto& [id, path] : logs)
    store.link(path, ".copilot/session-state/" + id + "/events.jsonl");
  const Scope scope = scope_of(store.env({}), {"copilot"});
  REQUIRE(scope.transcripts.size() == logs.size());
  for (const Transcript& t : scope.transcripts) {
    CAPTURE(t.id);
    const std::vector<nlohmann::json> raw = raw_entries(logs.at(t.id.substr(8)));
    const Mapped m = read_mapped(t);
    std::string cwd;
    std::vector<std::string> prompts;
    std::set<std::string> calls;
    int64_t out = 0;
    std::map<std::string, bool> success;
    for (const nlohmann::json& e : raw) {
      const nlohmann::json& d = e["data"];
      // A sub-agent's event (an agentId on it or in its data; parentToolCallId in the older shape) is that
      // agent's: no prompt, call, result or tokens of the session.
      const bool sub = (e.contains("agentId") && !e["agentId"].is_null()) || d.contains("agentId") ||
                       !d.value("parentToolCallId", std::string()).empty();
      if (sub) continue;
      if ((e["type"] == "tool.execution_start" || e["type"] == "tool.user_requested") &&
          !d.value("toolCallId", std::string()).empty())
        calls.insert(d["toolCallId"].get<std::string>());
      if (e["type"] == "session.start" && cwd.empty())
        cwd = d.value("context", nlohmann::json::object()).value("cwd", "");
      if (e["type"] == "user.message" && d.value("source", "user") == "user") prompts.push_back(d["content"]);
      if (e["type"] == "assistant.message") {
        for (const auto& r : d.value("toolRequests", nlohmann::json::array()))
          calls.insert(r["toolCallId"].get<std::string>());
        out += d.value("outputTokens", int64_t{0});
      }
      if (e["type"] == "tool.execution_complete" && !success.count(d["toolCallId"]))
        success[d["toolCallId"]] = d["success"];
    }
    CHECK(m.cwd == cwd);
    CHECK(m.prompts == prompts);
    CHECK(m.tool_names.size() == calls.size());
    CHECK(m.output == out);
    for (const auto& [id, ok] : success)
      CHECK((m.markers.at(id).find("error") != std::string::npos) == !ok);
  }
  const Scope fixture =
      scope_of(LinkStore().env({{"COPILOT_HOME", (kFixtures / "copilot").string()}}), {"copilot"});
  REQUIRE(fixture.transcripts.size() == 1);
  const Mapped f = read_mapped(fixture.transcripts[0]);
  CHECK(f.cwd == "/home/dev/projects/shop");
  CHECK(f.prompts ==
        std::vector<std::string>{"now run the tests, then migrate"});  // the autopilot one is not
  CHECK(f.markers.at("t1") == "[error \xC2\xB7 exit 2]");
  CHECK(f.markers.at("t2") == "[denied]");
  CHECK(f.markers.at("t3") == "[interrupted]");
  CHECK(f.output == 21 + 9 + 8);
}

TEST_CASE("copilot: the shell's exit-code trailer is its closing line, in Copilot CLI's exact forms") {
  const auto code = [](std::string_view text) {
    const auto t = copilot_shell_trailer(text);
    return t ? std::optional<int64_t>(t->exit_code) : std::nullopt;
  };
  CHECK(code("out\n<exited with exit code 2>") == 2);
  CHECK(code("out\n<exited with exit code -1>\n\n") == -1);
  CHECK(code("<shellId: 3 completed with exit code 0>") == 0);
  CHECK(code("out\n<command with id: build exited with exit code 137>") == 137);
  CHECK(code("out\n<command with shellId: b2 exited with exit code 1>") == 1);
  CHECK(code("out\n<exited with exit code 2> ") == 2);  // blanks after it are not a line
  // Not the closing line, not one of the forms, or not exactly: no trailer.
  CHECK(!code("<exited with exit code 2>\nmore output"));
  CHECK(!code("out\ncompleted with exit code 2"));
  CHECK(!code("out\n<exited with exit code two>"));
  CHECK(!code("out\n <exited with exit code 2>"));
  CHECK(!code("out\n<shellId: completed with exit code 2>"));
  CHECK(!code(""));
  // The excerpt's source: the text before it, the blank lines before it too; a text without one unchanged.
  CHECK(copilot_text_before_trailer("a\nb\n\n<exited with exit code 1>\n") == "a\nb");
  CHECK(copilot_text_before_trailer("<exited with exit code 1>") == "");
  CHECK(copilot_text_before_trailer("a\n<exited with error>") == "a\n<exited with error>");
}

TEST_CASE("copilot: fields of an unexpected type read as absent, never throw (the fuzz finds)") {
  Transcript t;
  t.harness = HarnessId::copilot;
  const TranscriptReader& reader = reader_for(t);
  const auto decoded = [&](std::string_view line) {
    Record r;
    std::string error;
    REQUIRE(reader.decode(line, r, error));
    return r;
  };
  // An event's data that is not an object: json::value() on it threw out of the reader.
  CHECK_NOTHROW(decoded(R"({"type":"tool.execution_complete","data":"x"})"));
  CHECK(decoded(R"({"type":"assistant.message","data":[1]})").message.blocks.empty());
  // A tool request written as a string: a call with no arguments.
  const Record request = decoded(R"({"type":"assistant.message","data":{"toolRequests":["x"]}})");
  REQUIRE(request.message.blocks.size() == 1);
  CHECK(request.message.blocks[0].input_json == "{}");
  // `success` that is not a boolean: not a success.
  const Record done = decoded(
      R"({"type":"tool.execution_complete","data":{"toolCallId":"c","success":"yes","result":{"content":"ok"}}})");
  REQUIRE(done.message.blocks.size() == 1);
  CHECK(done.message.blocks[0].is_error);
}

TEST_CASE("codex: a tool output shaped like the oldest form but not it, and a call of an unknown shape") {
  Transcript t;
  t.harness = HarnessId::codex;
  const TranscriptReader& reader = reader_for(t);
  // The codex fuzz find: an output whose text is a JSON object with `output` and a `metadata` that is not an
  // object is a tool's own text, not the oldest result form; metadata.value() threw out of the reader.
  Record r;
  std::string error;
  const std::string output = R"({\"output\":\"x\",\"metadata\":\"s\"})";
  REQUIRE(reader.decode(R"({"type":"response_item","payload":{"type":"function_call_output","call_id":"c1",)"
                        R"("output":")" +
                            output + R"("}})",
                        r, error));
  REQUIRE(r.message.blocks.size() == 1);
  CHECK(r.message.blocks[0].kind == BlockKind::tool_result);
  CHECK(r.message.blocks[0].content_text == R"({"output":"x","metadata":"s"})");
  // A shell call whose action is a string: the line is skipped with its reason, not thrown through (every
  // mapper is behind that net: core/harness/jsonl_entry_reader.cpp).
  Record shell;
  CHECK_FALSE(reader.decode(R"({"type":"response_item","payload":{"type":"local_shell_call","call_id":"c2",)"
                            R"("action":"ls"}})",
                            shell, error));
  CHECK(error.find("a record of an unknown shape") == 0);
}

TEST_CASE("harness selection: all reads every store found and reports the absent ones") {
  LinkStore store;
  const Environment env = store.env(
      {{"CODEX_HOME", (kFixtures / "codex").string()}, {"COPILOT_HOME", (kFixtures / "copilot").string()}});
  const Scope scope = scope_of(env, {"all"});
  CHECK(!scope.claude_store_read);  // no ~/.claude under this HOME: reported in a note, not an error
  CHECK(scope.transcripts.size() == 2);
  std::map<std::string, bool> found;
  for (const StoreReport& r : scope.stores)
    found[r.harness] = r.found;
  CHECK(found.at("codex"));
  CHECK(found.at("copilot"));
  CHECK(!found.at("gemini-cli"));
  // Without the argument, Claude Code stays the default: its store is required.
  CHECK_THROWS_AS(scope_of(env, {}), ToolError);
}

}  // namespace harness_readers_unit
