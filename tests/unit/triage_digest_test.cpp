// The session digest over the labelled corpus of fixtures/triage (fixtures/triage/README.md): every session
// of every reader is digested, each label must show as SPEC.md §13.3's table says, and every tool_call event
// must carry a label; then the incremental and capped digests, and the planted secrets.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/harness/harness_entry.h"
#include "core/scrub/scrubber.h"
#include "core/store/harness_stores.h"
#include "core/triage/call_facts.h"
#include "core/triage/digest_text.h"
#include "core/triage/session_digest.h"
#include "core/triage/watermark.h"

namespace triage_digest_unit {

using csift::SessionDigestInput;
using csift::SessionDigestResult;
using csift::Transcript;
namespace fs = std::filesystem;

namespace {

const fs::path kTriageDir = fs::path(CSIFT_SOURCE_DIR) / "fixtures" / "triage";

nlohmann::json triage_read_json(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// A temp data dir holding the two OpenCode databases the corpus uses, removed on destruction.
struct TriageOpenCodeData {
  fs::path root;
  TriageOpenCodeData() {
    root = fs::temp_directory_path() / ("csift-triage-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "opencode");
    const std::string gen = std::string(CSIFT_SOURCE_DIR) + "/fixtures/opencode/make_opencode_db.sh";
    const std::string one = gen + " export '" + (root / "opencode" / "opencode.db").string() + "' '" +
                            (kTriageDir / "opencode-session.json").string() + "'";
    const std::string two = gen + " v2 '" + (root / "opencode" / "opencode-two.db").string() + "'";
    REQUIRE(std::system(one.c_str()) == 0);
    REQUIRE(std::system(two.c_str()) == 0);
  }
  ~TriageOpenCodeData() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

// Every session of the corpus, by ref: Claude Code's by path, the others as their stores list them.
std::map<std::string, Transcript> triage_sessions(const TriageOpenCodeData& data) {
  std::map<std::string, Transcript> out;
  csift::Environment env;
  env.vars["HOME"] = (kTriageDir / "home").string();
  env.vars["XDG_DATA_HOME"] = data.root.string();
  for (const csift::HarnessEntry& h : csift::registered_harnesses()) {
    if (!h.list) continue;
    csift::StoreListing listing;
    csift::list_harness_store(h, env, listing);
    for (Transcript& t : listing.transcripts)
      if (!t.is_subagent) out[t.id] = std::move(t);
  }
  const fs::path cc = kTriageDir / "home/.claude/projects/-home-dev-projects-triage-demo";
  for (const auto& f : fs::directory_iterator(cc)) {
    Transcript t;
    t.path = f.path().string();
    t.project_dir = cc.string();
    t.id = f.path().stem().string();
    t.session_id = t.id;
    t.size = fs::file_size(f.path());
    out["claude-code:" + t.id] = t;
  }
  return out;
}

// Built once per run (the databases take a few tenths of a second), removed when the run ends.
const std::map<std::string, Transcript>& triage_corpus() {
  static const TriageOpenCodeData data;
  static const std::map<std::string, Transcript> sessions = triage_sessions(data);
  return sessions;
}

SessionDigestResult triage_digest(const Transcript& t, uint64_t from = 0, size_t session_cap = 64 * 1024) {
  SessionDigestInput in;
  in.transcript = &t;
  in.from_offset = from;
  const csift::WatermarkRead now = csift::transcript_watermark(t);
  REQUIRE(now.error.empty());
  in.complete_size = now.mark.size;
  in.caps.session_bytes = session_cap;
  return csift::digest_session(in);
}

bool triage_has(const nlohmann::ordered_json& list, const std::string& span,
                const std::string& key = "span") {
  for (const auto& e : list)
    if ((e.is_string() && e == span) || (e.is_object() && e.value(key, "") == span)) return true;
  return false;
}

// Does the digest show `label` as the class's row of the table says?
bool triage_shows(const nlohmann::ordered_json& s, const nlohmann::json& label) {
  const std::string cls = label["class"], span = label["span"];
  const std::string tool = label.value("tool", "");
  if (cls == "repeat") return triage_has(s["retries"], span);
  if (cls == "flagged") return triage_has(s["flagged"], span);
  for (const auto& e : s["events"]) {
    if (e["type"] != "tool_call" || e["span"] != span || (!tool.empty() && e["tool"] != tool)) continue;
    if ((cls == "friction" || cls == "expected") && e["status"] == "error") return true;
    if (cls == "cancellation" && e["status"] == "interrupted") return true;
    if (cls == "denial" && e["status"] == "denied" && triage_has(s["denials"], span)) return true;
    if (cls == "self" && e["self"] == true) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("triage corpus: every label shows in the digest, every failed call is labelled") {
  const auto& sessions = triage_corpus();
  const nlohmann::json labels = triage_read_json(kTriageDir / "labels.json");
  std::map<std::string, std::vector<nlohmann::json>> by_session;
  for (const auto& l : labels)
    by_session[l["session"]].push_back(l);
  std::set<std::string> harnesses;
  for (const auto& session : by_session) {
    const auto& [ref, ls] = session;
    CAPTURE(session.first);
    REQUIRE_MESSAGE(sessions.count(ref), "a labelled session the stores do not list");
    const Transcript& t = sessions.at(ref);
    const SessionDigestResult d = triage_digest(t);
    REQUIRE(d.error.empty());
    harnesses.insert(std::string(harness_name(t.harness)));
    const auto& s = d.session;
    CAPTURE(s.dump(1));
    CHECK(s["ref"] == ref);
    CHECK(s["truncated"] == false);
    CHECK(d.covered_size == csift::transcript_watermark(t).mark.size);
    // Cursor's log records no working directory; the OpenCode 2 session is the generator's, in /srv/app.
    const std::string project = t.harness == HarnessId::cursor        ? ""
                                : t.harness == HarnessId::opencode_v2 ? "/srv/app"
                                                                      : "/home/dev/projects/triage-demo";
    CHECK(d.project == project);
    for (const auto& l : ls) {
      CAPTURE(l.dump());
      CHECK(triage_shows(s, l));
    }
    for (const auto& e : s["events"]) {
      if (e["type"] != "tool_call") continue;
      CAPTURE(e.dump());
      bool labelled = false, self_labelled = false;
      for (const auto& l : ls) {
        if (l["span"] != nlohmann::json(e["span"]) ||
            (l.contains("tool") && l["tool"] != nlohmann::json(e["tool"])))
          continue;
        labelled |= l["class"] != "repeat" && l["class"] != "flagged";
        self_labelled |= l["class"] == "self";
      }
      CHECK_MESSAGE(labelled, "a tool_call event without a label");
      CHECK(e["self"] == self_labelled);
      CHECK(e["ref"] == ref + "#" + e["span"].get<std::string>());
      CHECK((e["error_class"] == "exit") ==
            (e["status"] == "error" && e["exit_code"].is_number() && e["exit_code"] != 0));
    }
  }
  // Every reader is in the corpus.
  CHECK(harnesses == std::set<std::string>{"claude-code", "codex", "copilot", "cursor", "gemini-cli",
                                           "opencode-v1", "opencode-v2"});
}

TEST_CASE("triage digest: counts, exit codes and the excerpt cut of the Claude Code session") {
  const auto& sessions = triage_corpus();
  const Transcript& t = sessions.at("claude-code:7a1a0000-0000-4000-8000-00000000cc01");
  SessionDigestInput in;
  in.transcript = &t;
  in.complete_size = t.size;
  in.caps.excerpt_bytes = 12;
  const auto s = csift::digest_session(in).session;
  CHECK(s["counts"]["entries"] == 21);
  CHECK(s["counts"]["prompts"] == 3);  // cc-13 is the interrupt, not a prompt
  CHECK(s["counts"]["tool_calls"] == 8);
  CHECK(s["counts"]["tool_errors"] == 5);
  CHECK(s["counts"]["denials"] == 1);
  CHECK(s["counts"]["interrupts"] == 1);  // the result and the text entry after it are one interrupt
  CHECK(s["model"] == "claude-sonnet-4-5");
  CHECK(s["start"] == "2026-04-01T09:00:01.000Z");
  const auto& first = s["events"][1];
  CHECK(first["span"] == "cc-02");
  CHECK(first["exit_code"] == 2);
  CHECK(first["error_class"] == "exit");
  CHECK(first["excerpt"] == "Exit code 2\n");
  CHECK(first["excerpt_full_bytes"] ==
        std::string("Exit code 2\nFAIL test_login: expected 200, got 500").size());
  CHECK(s["final_excerpt"] == "The login te");
}

TEST_CASE("triage digest: an incremental digest reports a call made before from_offset") {
  const auto& sessions = triage_corpus();
  const Transcript& t = sessions.at("claude-code:7a1a0000-0000-4000-8000-00000000cc01");
  // Start at the line of cc-03, the result of the call on line 2.
  std::ifstream in(t.path);
  std::string line;
  uint64_t offset = 0;
  for (int i = 0; i < 2 && std::getline(in, line); ++i)
    offset += line.size() + 1;
  const auto s = triage_digest(t, offset).session;
  CHECK(s["from_offset"] == offset);
  REQUIRE(!s["events"].empty());
  CHECK(s["events"][0]["span"] == "cc-02");
  CHECK(s["counts"]["prompts"] == 2);
  CHECK(s["counts"]["tool_calls"] == 7);
  CHECK(s["counts"]["entries"] == 19);
}

TEST_CASE("triage digest: the session cap keeps what completed first and the watermark resumes there") {
  const auto& sessions = triage_corpus();
  const Transcript& t = sessions.at("codex:0199bbbb-0000-7000-8000-00000000cd01");
  const auto whole = triage_digest(t);
  const size_t all_events = whole.session["events"].size() + whole.session["retries"].size();
  const auto cut = triage_digest(t, 0, whole.session.dump().size() - 400);
  CHECK(cut.session["truncated"] == true);
  CHECK(cut.covered_size < t.size);
  CHECK(cut.session.dump().size() <= whole.session.dump().size() - 400);
  const auto rest = triage_digest(t, cut.covered_size);
  CHECK(rest.session["truncated"] == false);
  const size_t seen = cut.session["events"].size() + cut.session["retries"].size() +
                      rest.session["events"].size() + rest.session["retries"].size();
  CHECK(seen == all_events);  // nothing lost, nothing reported twice
}

TEST_CASE("triage digest: no planted secret survives in any digest, and bad input is named") {
  const auto& sessions = triage_corpus();
  const nlohmann::json secrets = triage_read_json(kTriageDir / "secrets.json");
  for (const auto& session : sessions) {
    const auto& [ref, t] = session;
    const std::string text = triage_digest(t).session.dump();
    for (const auto& s : secrets) {
      CAPTURE(session.first);
      CAPTURE(s.dump());
      CHECK(text.find(s["value"].get<std::string>()) == std::string::npos);
    }
  }
  const Transcript& t = sessions.at("claude-code:7a1a0000-0000-4000-8000-00000000cc01");
  SessionDigestInput in;
  in.transcript = &t;
  in.from_offset = t.size + 10;
  in.complete_size = t.size;
  CHECK(csift::digest_session(in).error.find("past the session's complete lines") != std::string::npos);
  CHECK(!csift::digest_session(SessionDigestInput{}).error.empty());
}

TEST_CASE("triage digest: the self rule and the flag phrases") {
  using csift::command_runs_csift;
  CHECK(command_runs_csift("csift-mcp --cli list"));
  CHECK(command_runs_csift("cd /x && FOO=1 sudo -E env csift-mcp --cli list"));
  CHECK(command_runs_csift("time /usr/local/bin/csift-mcp --cli stats; echo done"));
  CHECK_FALSE(command_runs_csift("echo csift-mcp"));
  CHECK_FALSE(command_runs_csift("grep csift-mcp README.md"));
  CHECK(csift::is_self_call("mcp__csift-mcp__search", "{}"));
  CHECK(csift::is_self_call("shell", R"({"command":["bash","-lc","csift-mcp --cli whoami"]})"));
  CHECK_FALSE(csift::is_self_call("shell", R"({"command":["bash","-lc","make csift"]})"));
  CHECK(csift::is_self_call("shell", R"({"command":["/bin/dash","-cl","x; csift-mcp --cli list"]})"));
  // Anything but a shell, a -c flag and one script is an argv, not a script: its first word is the shell.
  CHECK_FALSE(csift::is_self_call("shell", R"({"command":["bash","-lc","csift-mcp --cli list","extra"]})"));
  CHECK(csift::args_digest(R"({"command":"make test","description":"a"})") ==
        csift::args_digest(R"({"command":"make test","description":"b"})"));
  // Without a command the input's JSON is hashed as the log wrote it, only the space between tokens left out.
  CHECK(csift::args_digest(R"({"a": 2, "b":"x  y"})") == csift::args_digest(R"({"a":2,"b":"x  y"})"));
  CHECK(csift::args_digest(R"({"a":2,"b":"x  y"})") != csift::args_digest(R"({"a":2,"b":"x y"})"));
  CHECK(csift::flagged_phrase("Try AGAIN please") == "again");
  CHECK(csift::flagged_phrase("it doesn\xE2\x80\x99t work") == "doesn't work");
  CHECK(csift::flagged_phrase("guard against regressions") == "");
  CHECK(csift::flagged_phrase("the wrongdoer") == "");
  bool cut = false;
  CHECK(csift::cut_utf8("h\xC3\xA9llo", 2, cut) == "h");
  CHECK(cut);
}

TEST_CASE("triage digest: the args digest is the reference's, SHA-256 of the normalised command") {
  // FIPS 180-4 test vectors of the SHA-256 the digest takes its first 12 hex digits from (libcrypto's).
  CHECK(csift::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(csift::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(csift::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(csift::normalize_command_space("  make \t test\n\n -j2 ") == "make test -j2");
  CHECK(csift::normalize_command_space("a\xC2\xA0"
                                       "b\xE3\x80\x80"
                                       "c") == "a b c");                  // NBSP, ideographic space
  CHECK(csift::normalize_command_space("caf\xC3\xA9") == "caf\xC3\xA9");  // not a space
  // The reference's digest of `npm test` (Go: hex(sha256.Sum256([]byte("npm test")))[:12]).
  CHECK(csift::args_digest(R"({"command":"npm test"})") == "328e123c6385");
  CHECK(csift::args_digest(R"({"command":"npm   test\n"})") ==
        csift::args_digest(R"({"command":"npm test"})"));
  CHECK(csift::args_digest(R"({"command":["bash","-lc","npm  test"]})") ==
        csift::args_digest(R"({"cmd":"npm test"})"));
  CHECK(csift::args_digest(R"({"command":"npm test"})").size() == 12);
  CHECK(csift::args_digest(R"({"path": "/a"})") == csift::sha256_hex(R"({"path":"/a"})").substr(0, 12));
}

TEST_CASE("triage digest: a retry differing from the failed call only in white space is a repeat") {
  const fs::path path =
      fs::temp_directory_path() / ("csift-triage-ws-" + std::to_string(::getpid()) + ".jsonl");
  const auto line = [](const std::string& uuid, const std::string& type, const std::string& content) {
    return R"({"type":")" + type + R"(","uuid":")" + uuid +
           R"(","cwd":"/home/dev/p","timestamp":"2026-04-01T09:00:01.000Z","message":{"role":")" + type +
           R"(","content":)" + content + "}}\n";
  };
  const auto use = [](const std::string& id, const std::string& command) {
    return R"([{"type":"tool_use","id":")" + id + R"(","name":"Bash","input":{"command":")" + command +
           R"("}}])";
  };
  const auto result = [](const std::string& id) {
    return R"([{"type":"tool_result","tool_use_id":")" + id +
           R"(","content":"Exit code 1\nboom","is_error":true}])";
  };
  {
    std::ofstream out(path);
    out << line("u1", "user", R"("run it")") << line("a1", "assistant", use("t1", "make  test"))
        << line("u2", "user", result("t1")) << line("a2", "assistant", use("t2", "make test\\n"))
        << line("u3", "user", result("t2"));
  }
  Transcript t;
  t.path = path.string();
  t.id = t.session_id = "ws";
  t.size = fs::file_size(path);
  const SessionDigestResult r = triage_digest(t);
  fs::remove(path);
  REQUIRE(r.error.empty());
  REQUIRE(r.session["retries"].size() == 1);
  CHECK(r.session["retries"][0]["span"] == "a2");
  CHECK(r.session["retries"][0]["of_span"] == "a1");
  CHECK(r.session["retries"][0]["args_digest"] == csift::sha256_hex("make test").substr(0, 12));
}

// The whole digest of each reader's session, against fixtures/triage/golden/<harness>.digest.json. After a
// deliberate change of the digest, rerun with CSIFT_UPDATE_GOLDEN=1 to rewrite them, and review the diff.
TEST_CASE("triage digest: golden digest per harness") {
  const auto& sessions = triage_corpus();
  const nlohmann::json labels = triage_read_json(kTriageDir / "labels.json");
  std::set<std::string> refs;
  for (const auto& l : labels)
    refs.insert(l["session"].get<std::string>());
  const bool update = std::getenv("CSIFT_UPDATE_GOLDEN") != nullptr;
  for (const std::string& ref : refs) {
    CAPTURE(ref);
    const Transcript& t = sessions.at(ref);
    const std::string got = triage_digest(t).session.dump(1) + "\n";
    const fs::path golden = kTriageDir / "golden" / (std::string(harness_name(t.harness)) + ".digest.json");
    if (update) {
      fs::create_directories(golden.parent_path());
      std::ofstream(golden, std::ios::binary) << got;
    }
    std::ifstream in(golden, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "no golden digest for this harness");
    const std::string want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(got == want);
  }
}

TEST_CASE("triage digest: a torn last line is neither counted nor covered") {
  const fs::path dir = fs::temp_directory_path() / ("csift-triage-torn-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string complete =
      R"({"type":"user","uuid":"t-1","timestamp":"2026-04-01T09:00:01Z","message":{"role":"user","content":"go"}})"
      "\n"
      R"({"type":"assistant","uuid":"t-2","message":{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"false"}}]}})"
      "\n"
      R"({"type":"user","uuid":"t-3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","is_error":true,"content":"Exit code 1"}]}})"
      "\n";
  Transcript t;
  t.path = (dir / "5e551011-0000-4000-8000-000000000001.jsonl").string();
  t.id = "5e551011-0000-4000-8000-000000000001";
  std::ofstream(t.path, std::ios::binary) << complete << R"({"type":"user","uuid":"t-4","message":{"ro)";
  t.size = fs::file_size(t.path);
  CHECK(csift::transcript_watermark(t).mark.size == complete.size());
  const SessionDigestResult d = triage_digest(t);
  CHECK(d.covered_size == complete.size());
  CHECK(d.session["counts"]["entries"] == 3);
  CHECK(d.session["counts"]["unparsed"] == 0);
  REQUIRE(d.session["events"].size() == 2);
  CHECK(d.session["events"][1]["exit_code"] == 1);
  fs::remove_all(dir);
}

}  // namespace triage_digest_unit
