// What a harness's store says of a session outside its records: each listed transcript's stamp (size and
// mtime exactly as stat(2) gives them, so a policy-refused session's `since` is right), and the one reader
// of each harness's store metadata (HarnessEntry::session_meta) over every form the reader and the triage
// gate accepted before they were one: Codex's session_meta line, Copilot CLI's workspace.yaml, Gemini CLI's
// .project_root.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "core/harness/harness_entry.h"
#include "core/store/harness_stores.h"
#include "core/triage/session_inventory.h"
#include "tests/unit/temp_store.h"

namespace harness_session_meta_unit {

using namespace csift;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(CSIFT_SOURCE_DIR) / "fixtures" / "harnesses";

// A throwaway directory holding the metadata files each case writes.
struct MetaDir : csift_test::TempDir {
  MetaDir() : TempDir("csift-smeta") {}
};

SessionMeta meta_of(std::string_view harness, const std::string& path) {
  const HarnessEntry* h = harness_named(harness);
  REQUIRE(h != nullptr);
  const bool has_reader = h->session_meta != nullptr;
  REQUIRE(has_reader);
  Transcript t;
  t.harness = *harness_id_named(harness);
  t.path = path;
  const SessionMeta meta = h->session_meta(t);
  // Triage's gate takes the same reader.
  bool unreadable = false;
  CHECK(pre_open_directory(t, unreadable) == meta.cwd);
  CHECK(unreadable == meta.unreadable);
  return meta;
}

std::string codex_cwd(const std::string& first_line, bool* unreadable = nullptr) {
  MetaDir d;
  const SessionMeta m = meta_of("codex", d.write("rollout.jsonl", first_line));
  if (unreadable) *unreadable = m.unreadable;
  return m.cwd;
}

std::string copilot_cwd(const std::string& yaml) {
  MetaDir d;
  d.write("s/workspace.yaml", yaml);
  const SessionMeta m = meta_of("copilot", d.write("s/events.jsonl", "{}\n"));
  CHECK_FALSE(m.unreadable);
  return m.cwd;
}

std::string gemini_root(const std::string& text) {
  MetaDir d;
  d.write("p/.project_root", text);
  const SessionMeta m = meta_of("gemini-cli", d.write("p/chats/session-x.jsonl", "{}\n"));
  CHECK_FALSE(m.unreadable);
  return m.cwd;
}

}  // namespace

TEST_CASE("a Codex, Gemini CLI and Copilot CLI transcript's listed stamp is stat(2)'s") {
  Environment env;
  env.vars = {{"HOME", "/nonexistent"},
              {"CODEX_HOME", (kFixtures / "codex").string()},
              {"GEMINI_CLI_HOME", (kFixtures / "gemini").string()},
              {"COPILOT_HOME", (kFixtures / "copilot").string()}};
  env.cwd = "/";
  std::map<std::string, size_t> listed;
  for (std::string_view name : {"codex", "gemini-cli", "copilot"}) {
    StoreListing listing;
    list_harness_store(*harness_named(name), env, listing);
    for (const Transcript& t : listing.transcripts) {
      struct stat st {};
      REQUIRE(::stat(t.path.c_str(), &st) == 0);
      CAPTURE(t.path);
      CHECK(t.mtime_ns == static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec);
      CHECK(t.size == static_cast<uint64_t>(st.st_size));
      ++listed[std::string(harness_name(t.harness))];
    }
  }
  // The Gemini store's legacy `.json` document is a session of its own (read as the log it migrates to).
  CHECK(listed == std::map<std::string, size_t>{{"codex", 1}, {"copilot", 1}, {"gemini-cli", 2}});
}

TEST_CASE("session metadata: every registered harness with store metadata has its one reader") {
  for (std::string_view name : {"codex", "copilot", "gemini-cli"})
    CHECK_MESSAGE(bool(harness_named(name)->session_meta), name);
  for (std::string_view name : {"claude-code", "cursor"})
    CHECK_MESSAGE(!harness_named(name)->session_meta, name);
}

TEST_CASE("session metadata: Codex's session_meta first line") {
  bool unreadable = false;
  CHECK(codex_cwd(R"({"type":"session_meta","payload":{"id":"x","cwd":"/w/p"}})"
                  "\n{}\n",
                  &unreadable) == "/w/p");
  CHECK_FALSE(unreadable);
  // No cwd, or one that is not absolute: no directory named, yet the metadata was read.
  CHECK(codex_cwd("{\"type\":\"session_meta\",\"payload\":{\"id\":\"x\"}}\n", &unreadable).empty());
  CHECK_FALSE(unreadable);
  CHECK(codex_cwd("{\"type\":\"session_meta\",\"payload\":{\"cwd\":\"rel/p\"}}\n", &unreadable).empty());
  CHECK_FALSE(unreadable);
  CHECK(codex_cwd("{\"type\":\"session_meta\",\"payload\":{\"cwd\":7}}\n", &unreadable).empty());
  CHECK_FALSE(unreadable);
  // Unreadable: another first line, no payload object, bad JSON, no newline yet, a line over 1 MiB.
  CHECK(codex_cwd("{\"type\":\"turn_context\",\"payload\":{\"cwd\":\"/w/p\"}}\n", &unreadable).empty());
  CHECK(unreadable);
  CHECK(codex_cwd("{\"type\":\"session_meta\",\"payload\":\"/w/p\"}\n", &unreadable).empty());
  CHECK(unreadable);
  CHECK(codex_cwd("{not json\n", &unreadable).empty());
  CHECK(unreadable);
  CHECK(codex_cwd("{\"type\":\"session_meta\",\"payload\":{\"cwd\":\"/w/p\"}}", &unreadable).empty());
  CHECK(unreadable);
  const std::string big = "{\"type\":\"session_meta\",\"payload\":{\"cwd\":\"/w/p\",\"pad\":\"" +
                          std::string((1 << 20) + 1, 'x') + "\"}}\n";
  CHECK(codex_cwd(big, &unreadable).empty());
  CHECK(unreadable);
  MetaDir d;
  CHECK(meta_of("codex", (d.root / "missing.jsonl").string()).unreadable);
}

TEST_CASE("session metadata: Copilot CLI's workspace.yaml") {
  CHECK(copilot_cwd("id: x\ncwd: /w/p\nbranch: main\n") == "/w/p");
  CHECK(copilot_cwd("cwd: \"/w/with space\"\n") == "/w/with space");
  CHECK(copilot_cwd("cwd: '/w/p'\n") == "/w/p");
  CHECK(copilot_cwd("cwd:\t/w/p\t \r\n") == "/w/p");  // tab and CRLF (the gate's copy took these)
  CHECK(copilot_cwd("{\n  \"id\": \"x\",\n  \"cwd\": \"/w/p\",\n}\n") ==
        "/w/p");                                            // a JSON member (the reader's)
  CHECK(copilot_cwd("cwd: rel/p\ncwd: /w/q\n") == "/w/q");  // the first absolute one
  CHECK(copilot_cwd("  cwd: /w/p\n").empty());              // not top-level
  CHECK(copilot_cwd("id: x\n").empty());
  CHECK(copilot_cwd("cwd: /w/p\n" + std::string(64 * 1024, '#')).empty());  // over 64 KiB
  MetaDir d;
  CHECK(meta_of("copilot", d.write("s/events.jsonl", "{}\n")).cwd.empty());  // no workspace.yaml
  fs::create_directories(d.root / "t" / "workspace.yaml");
  CHECK(meta_of("copilot", d.write("t/events.jsonl", "{}\n")).cwd.empty());  // not a regular file
}

TEST_CASE("session metadata: Gemini CLI's .project_root") {
  CHECK(gemini_root("/w/p") == "/w/p");
  CHECK(gemini_root("/w/p\n") == "/w/p");
  CHECK(gemini_root("/w/p \r\n") == "/w/p");
  CHECK(gemini_root("  /w/p\t\n") == "/w/p");  // leading blanks (the gate's copy took these)
  CHECK(gemini_root("rel/p\n").empty());
  CHECK(gemini_root("").empty());
  CHECK(gemini_root("/w/p" + std::string(4096, ' ')).empty());  // over 4 KiB
  MetaDir d;
  CHECK(meta_of("gemini-cli", d.write("q/chats/session-y.jsonl", "{}\n")).cwd.empty());  // none
}

}  // namespace harness_session_meta_unit
