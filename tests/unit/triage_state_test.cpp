// Triage state: watermarks on complete lines, the state precedence, the collection policy and the state
// database's digest/mark bookkeeping.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/triage/collection_policy.h"
#include "core/triage/session_state.h"
#include "core/triage/state_db.h"
#include "core/triage/watermark.h"

namespace triage_state_unit {

namespace {

namespace triage_fs = std::filesystem;

struct TriageTempDir {
  triage_fs::path dir;
  TriageTempDir() {
    dir = triage_fs::temp_directory_path() / ("csift-triage-" + std::to_string(::getpid()) + "-" +
                                              std::to_string(reinterpret_cast<uintptr_t>(this)));
    triage_fs::create_directories(dir);
  }
  ~TriageTempDir() {
    std::error_code ec;
    triage_fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = dir / name;
    triage_fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

csift::Environment triage_env(const std::string& home) {
  csift::Environment env;
  env.vars["HOME"] = home;
  return env;
}

}  // namespace

TEST_CASE("triage watermark: SHA-256 of a known text") {
  CHECK(csift::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("triage watermark: covers complete lines only and hashes the first line") {
  TriageTempDir t;
  const std::string path = t.write("log.jsonl", "{\"a\":1}\n{\"b\":2}\n{\"c\":");
  const csift::WatermarkRead w = csift::file_watermark(path);
  REQUIRE(w.error.empty());
  CHECK(w.mark.size == 16);
  CHECK(w.mark.first_line_sha256 == csift::sha256_hex("{\"a\":1}"));
  CHECK(w.mark.mtime_ns > 0);
  // A torn first line: nothing is complete, nothing hashed.
  const csift::WatermarkRead torn = csift::file_watermark(t.write("torn.jsonl", "{\"a\":"));
  CHECK(torn.mark.size == 0);
  CHECK(torn.mark.first_line_sha256.empty());
  CHECK_FALSE(csift::file_watermark((t.dir / "missing").string()).error.empty());
}

TEST_CASE("triage state: precedence and the changed reasons") {
  csift::SessionFacts f;
  f.current = {100, "h1", 0, ""};
  CHECK(csift::decide_session_state(f).state == "new");
  f.marked = csift::Watermark{100, "h1", 0, ""};
  CHECK(csift::decide_session_state(f).state == "processed");
  f.current.size = 150;
  auto s = csift::decide_session_state(f);
  CHECK(s.state == "changed");
  CHECK(s.reason == "appended");
  CHECK(s.from_offset == 100);
  f.current.size = 50;
  CHECK(csift::decide_session_state(f).reason == "truncated");
  f.current = {150, "h2", 0, ""};
  s = csift::decide_session_state(f);
  CHECK(s.reason == "rotated");
  CHECK(s.from_offset == 0);
  f.project_known = false;
  CHECK(csift::decide_session_state(f).state == "unknown-project");
  f.unsupported = "no entry parses";
  CHECK(csift::decide_session_state(f).state == "unsupported-format");
  f.read_error = "cannot open";
  CHECK(csift::decide_session_state(f).state == "unreadable");
  f.policy_state = "denied";
  CHECK(csift::decide_session_state(f).state == "denied");
  f.policy_state = "disabled";
  CHECK(csift::decide_session_state(f).state == "disabled");
  csift::SessionFacts gone;
  gone.exists = false;
  CHECK(csift::decide_session_state(gone).state == "absent");
}

TEST_CASE("triage policy: parsing, matching as written and resolved, repository file") {
  TriageTempDir t;
  const csift::Environment env = triage_env(t.dir.string());
  const auto policy =
      csift::parse_collect_policy("[collect]\ndeny_paths = [\"~/secret\", \"/tmp/x/\"]\nopt_in_paths = [\"" +
                                      t.dir.string() + "/work\"]\nopt_in_only = true\n",
                                  "config.toml", env);
  CHECK(policy.deny_paths.at(0) == t.dir.string() + "/secret");
  CHECK(policy.deny_paths.at(1) == "/tmp/x");
  CHECK(csift::path_within("/a/b/c", "/a/b"));
  CHECK_FALSE(csift::path_within("/a/bc", "/a/b"));
  CHECK(csift::path_within("/anything", "/"));
  triage_fs::create_directories(t.dir / "work" / "repo" / ".git");
  triage_fs::create_directories(t.dir / "secret" / "p");
  triage_fs::create_directories(t.dir / "elsewhere");
  CHECK(csift::check_directory(policy, (t.dir / "work" / "repo").string()).allowed());
  CHECK(csift::check_directory(policy, (t.dir / "secret" / "p").string()).state == "denied");
  CHECK(csift::check_directory(policy, (t.dir / "elsewhere").string()).state == "denied");
  // A symlink into a denied directory is denied by its resolved path.
  triage_fs::create_directory_symlink(t.dir / "secret", t.dir / "work" / "alias");
  CHECK(csift::check_directory(policy, (t.dir / "work" / "alias" / "p").string()).state == "denied");
  // The repository's own file switches collection off.
  t.write("work/repo/.csift-mcp.toml", "[collect]\ndisabled = true\n");
  const auto repo = csift::check_directory(policy, (t.dir / "work" / "repo").string());
  CHECK(repo.state == "disabled");
  CHECK(repo.reason.find(".csift-mcp.toml") != std::string::npos);
  // Claude Code's encoded name: exact for deny, and a sibling sharing the prefix is refused too.
  const auto deny_ab = csift::parse_collect_policy("[collect]\ndeny_paths = [\"/a/b\"]\n", "c.toml", env);
  CHECK(csift::check_claude_encoded_dir(deny_ab, "-a-b").state == "denied");
  CHECK(csift::check_claude_encoded_dir(deny_ab, "-a-b-c").state == "denied");
  CHECK(csift::check_claude_encoded_dir(deny_ab, "-a-bc").allowed());
}

TEST_CASE("triage policy: a bad file names the file, the line and what is expected") {
  const csift::Environment env = triage_env("/home/nobody");
  const auto message = [&](const std::string& text) {
    try {
      csift::parse_collect_policy(text, "/cfg/config.toml", env);
    } catch (const csift::ToolError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(message("[collect]\ndisabled = maybe\n").find("/cfg/config.toml line 2: not valid TOML") == 0);
  CHECK(message("[collect]\n\ndisabled = \"yes\"\n") ==
        "/cfg/config.toml line 3: [collect] disabled must be true or false");
  CHECK(message("[collect]\ndeny_paths = [\"relative\"]\n")
            .find("line 2: every entry of [collect] deny_paths "
                  "must be an absolute path") != std::string::npos);
  CHECK(message("[collect]\ndeny = []\n").find("[collect] has no member deny") != std::string::npos);
  // toml++ asserted on a table header holding a comment (found by tests/fuzz): a parse error, not an abort.
  CHECK(message("[# [other]\nx").find("/cfg/config.toml line 1: not valid TOML") == 0);
  // toml++'s whitespace table reaches __builtin_unreachable for most of U+00A1-U+0499 (tests/fuzz,
  // collect_policy: regressions/collect_policy/non-ascii-whitespace-table): refused before toml++ reads it.
  CHECK(
      message("\xEF\xB3\xBFhy_s ct`\n") ==
      "/cfg/config.toml line 1: not valid TOML: a non-ASCII character outside a string or comment (U+FCFF)");
  CHECK(message("[collect]\n\xC3\xA9 = 1\n").find("line 2: not valid TOML: a non-ASCII character") !=
        std::string::npos);
  CHECK(message("[collect]\ndisabled = \"\"\"\\\xC3\xA9\"\"\"\n").find("line 2: not valid TOML: an escape") !=
        std::string::npos);
  CHECK(message("x = \"\xFF\"").find("line 1: not valid TOML: a byte that is not UTF-8 (0xFF)") !=
        std::string::npos);
  // A quote inside a bare value opens no string: toml++ scans the value on to whitespace, asking of the
  // character after it (tests/fuzz, collect_policy: regressions/collect_policy/quote-inside-a-bare-value).
  CHECK(
      message("[collect]\nd = 1u\"\xCD\x93\"\n") ==
      "/cfg/config.toml line 2: not valid TOML: a non-ASCII character outside a string or comment (U+0353)");
  CHECK(
      message("[collect]\nd = 4444['s\xEF\xBB\xBF'\n") ==
      "/cfg/config.toml line 2: not valid TOML: a non-ASCII character outside a string or comment (U+FEFF)");
  CHECK(message("[collect]\nd = b=c\"\xC3\xA9\"\n").find("line 2: not valid TOML: a non-ASCII character") !=
        std::string::npos);
  // Where keys are read, a quote after a dot opens a quoted part: a `#` in it is no comment, and a character
  // after the part is outside a string (tests/fuzz, collect_policy: regressions/collect_policy/
  // quoted-key-part-holding-a-hash). In a value, a dot stays inside its token.
  CHECK(
      message("[a.'#'.\xEF\xBA\xBF]\n") ==
      "/cfg/config.toml line 1: not valid TOML: a non-ASCII character outside a string or comment (U+FEBF)");
  CHECK(message("[collect]\nd = 1.'\xC3\xA9'\n").find("line 2: not valid TOML: a non-ASCII character") !=
        std::string::npos);
  CHECK(message("[collect . \"d\xC3\xA9\"]\n").find("not valid TOML") == std::string::npos);
  // The same characters inside strings and comments are read as they are: a multi-line basic string's reach
  // toml++ as escapes (there the first one after a line-ending backslash hit the same table).
  const auto policy = csift::parse_collect_policy(
      "# caf\xC3\xA9 \xE3\x80\x80\n[collect]\ndeny_paths = [\"/home/jos\xC3\xA9\", '/tmp/\xC3\xBC', "
      "\"\"\"/a/\\\n"
      "   \xC3\xA9\xF0\x9F\x98\x80\"\"\"]\n",
      "/cfg/config.toml", env);
  CHECK(policy.deny_paths ==
        std::vector<std::string>{"/home/jos\xC3\xA9", "/tmp/\xC3\xBC", "/a/\xC3\xA9\xF0\x9F\x98\x80"});
}

TEST_CASE("triage state db: digest, mark, a second digest before the mark, refusals") {
  TriageTempDir t;
  const std::string path = (t.dir / "sub" / "state.db").string();
  csift::StateDb db(path);
  const csift::Watermark w1{100, "h", 1, ""};
  auto rec = db.record_digests({{"codex:a", "codex", "/p/a", w1}}, "2026-12-01T00:00:00.000Z");
  CHECK(rec.at(0).generation == 1);
  CHECK(rec.at(0).replaced_unmarked_at.empty());
  // A second process digests it again before the first marks: reported, the latest watermark kept.
  csift::StateDb other(path);
  rec = other.record_digests({{"codex:a", "codex", "/p/a", {150, "h", 2, ""}}}, "2026-12-01T00:01:00.000Z");
  CHECK(rec.at(0).generation == 2);
  CHECK(rec.at(0).replaced_unmarked_at == "2026-12-01T00:00:00.000Z");
  // All refs or none: one never digested refuses the whole mark.
  CHECK_THROWS_AS(db.mark({"codex:a", "codex:b"}, "nothing", {}, "t"), csift::ToolError);
  CHECK_FALSE(db.row("codex:a")->marked.has_value());
  const auto marked = db.mark({"codex:a"}, "filed", {"0190c3a2-7b1e-7c4d-9a2f-3e5d6c7b8a90"}, "t2");
  CHECK(marked.at(0).digests_followed == 2);
  CHECK(marked.at(0).watermark.size == 150);
  const auto row = db.row("codex:a");
  CHECK(row->marked->size == 150);
  CHECK(row->outcome == "filed");
  CHECK(row->uids.size() == 1);
  CHECK_FALSE(row->unmarked_digest());
  db.save_selection({{"codex"}, "7d", 5, "now"});
  CHECK(other.selection()->since == "7d");
  CHECK(other.selection()->limit == 5);
}

}  // namespace triage_state_unit
