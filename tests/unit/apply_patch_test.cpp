// apply_patch: Codex's patch grammar read into the shared edit model (core/harness/apply_patch.h), each
// harness's edit tools read into it (core/harness/*/…_edits.cpp), and the replay's placing of an update's
// chunks on a known file (tools/recover/replay.h), against what codex-rs/apply-patch does.
#include <doctest/doctest.h>

#include "core/harness/apply_patch.h"
#include "core/harness/codex/codex_edits.h"
#include "core/harness/copilot/copilot_edits.h"
#include "core/harness/gemini_cli/gemini_cli_edits.h"
#include "core/harness/opencode/opencode_edits.h"
#include "tools/recover/replay.h"

namespace apply_patch_unit {

using namespace csift;

namespace {

ToolEdits parsed(const std::string& text) {
  ToolEdits out;
  parse_apply_patch(text, out);
  return out;
}

std::string applied(const std::string& file, const std::string& patch) {
  const ToolEdits e = parsed(patch);
  REQUIRE(e.error.empty());
  REQUIRE(e.files.size() == 1);
  const auto lines = apply_patch_chunks(split_file_lines(file), e.files[0].chunks);
  if (!lines) return "<not placed>";
  std::string out;
  for (size_t i = 0; i < lines->size(); ++i)
    out += (i ? "\n" : "") + (*lines)[i];
  return out;
}

}  // namespace

TEST_CASE("apply_patch: add, delete, update with a move, context lines and the end-of-file anchor") {
  const ToolEdits e = parsed(
      "*** Begin Patch\n"
      "*** Add File: a/new.txt\n+one\n+two\n"
      "*** Delete File: old.txt\n"
      "*** Update File: src/x.py\n*** Move to: src/y.py\n"
      "@@ def f():\n-    return 1\n+    return 2\n"
      "@@\n tail\n+more\n*** End of File\n"
      "*** End Patch\n");
  REQUIRE(e.error.empty());
  REQUIRE(e.files.size() == 3);
  CHECK(e.files[0].kind == ToolEditKind::write);
  CHECK(e.files[0].create);
  CHECK(e.files[0].path == "a/new.txt");
  CHECK(e.files[0].content == "one\ntwo\n");
  CHECK(e.files[1].kind == ToolEditKind::remove);
  CHECK(e.files[1].path == "old.txt");
  CHECK(e.files[2].kind == ToolEditKind::patch);
  CHECK(e.files[2].move_to == "src/y.py");
  REQUIRE(e.files[2].chunks.size() == 2);
  CHECK(e.files[2].chunks[0].context == "def f():");
  CHECK(e.files[2].chunks[0].old_lines == std::vector<std::string>{"    return 1"});
  CHECK(e.files[2].chunks[0].new_lines == std::vector<std::string>{"    return 2"});
  CHECK(e.files[2].chunks[1].context.empty());
  CHECK(e.files[2].chunks[1].end_of_file);
  CHECK(e.files[2].chunks[1].new_lines == std::vector<std::string>{"tail", "more"});
}

TEST_CASE("apply_patch: the lenient forms Codex accepts, and what it refuses") {
  // a heredoc wrapper, surrounding whitespace, a first chunk without its @@ line
  const ToolEdits e = parsed("  <<'EOF'\n*** Begin Patch\n*** Update File: f\n-a\n+b\n*** End Patch\nEOF\n");
  REQUIRE(e.error.empty());
  REQUIRE(e.files.size() == 1);
  CHECK(e.files[0].chunks[0].old_lines == std::vector<std::string>{"a"});
  CHECK_FALSE(parsed("*** Update File: f\n-a\n*** End Patch").error.empty());
  CHECK_FALSE(parsed("*** Begin Patch\n*** Update File: f\n-a\n").error.empty());
  CHECK_FALSE(parsed("*** Begin Patch\n*** Frobnicate File: f\n*** End Patch").error.empty());
  CHECK_FALSE(parsed("*** Begin Patch\n*** Update File: f\n*** End Patch").error.empty());  // empty update
  CHECK(parsed("[REDACTED_INPUT len=6285 sha=a6f17956]").files.empty());
  // a shell script running apply_patch
  CHECK(apply_patch_in_command("apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\n") ==
        "*** Begin Patch\n*** End Patch\n");
  CHECK(apply_patch_in_command("cat <<'EOF'\nx\nEOF").empty());
}

TEST_CASE("apply_patch chunks are placed as Codex places them") {
  // exact, in order, after the context line; the result ends in a newline
  CHECK(applied("a\nb\nc\nb\n", "*** Begin Patch\n*** Update File: f\n@@ c\n-b\n+B\n*** End Patch") ==
        "a\nb\nc\nB\n");
  // a file without a final newline gains one (Codex writes every updated file so)
  CHECK(applied("x\ny", "*** Begin Patch\n*** Update File: f\n@@\n-x\n+X\n*** End Patch") == "X\ny\n");
  // trailing whitespace is forgiven, the file's line replaced by the patch's
  CHECK(applied("x  \ny\n", "*** Begin Patch\n*** Update File: f\n@@\n-x\n+z\n*** End Patch") == "z\ny\n");
  // a pure addition goes at the end
  CHECK(applied("x\n", "*** Begin Patch\n*** Update File: f\n@@\n+y\n*** End Patch") == "x\ny\n");
  // the end-of-file anchor picks the last occurrence
  CHECK(applied("k\nv\nk\n",
                "*** Begin Patch\n*** Update File: f\n@@\n-k\n+K\n*** End of File\n*** End Patch") ==
        "k\nv\nK\n");
  // old lines that are not there: not placed (the replay then names the disagreement)
  CHECK(applied("x\n", "*** Begin Patch\n*** Update File: f\n@@\n-absent\n+y\n*** End Patch") ==
        "<not placed>");
  CHECK(applied("x\n", "*** Begin Patch\n*** Update File: f\n@@ nowhere\n-x\n+y\n*** End Patch") ==
        "<not placed>");
}

TEST_CASE("each harness's edit tools read into the shared model") {
  ToolEdits e;
  REQUIRE(gemini_cli_tool_edits().edits(
      "replace", R"({"file_path":"a.md","old_string":"r","new_string":"c","expected_replacements":2})", e));
  REQUIRE(e.files.size() == 1);
  CHECK(e.files[0].kind == ToolEditKind::string_edits);
  CHECK(e.files[0].edits[0].expected == 2);
  e = {};
  REQUIRE(gemini_cli_tool_edits().edits("replace", R"({"file_path":"n.md","old_string":"","new_string":"x"})",
                                        e));
  CHECK(e.files[0].kind == ToolEditKind::write);
  CHECK(e.files[0].content == "x");
  CHECK(*gemini_cli_tool_edits().shell_command("run_shell_command", R"({"command":"rm a"})") == "rm a");
  e = {};
  REQUIRE(copilot_tool_edits().edits("create", R"({"path":"/w/a","file_text":"t"})", e));
  CHECK((e.files[0].kind == ToolEditKind::write && e.files[0].create && e.files[0].path == "/w/a"));
  e = {};
  REQUIRE(copilot_tool_edits().edits("edit", R"({"path":"/w/a","old_str":"t","new_str":"u"})", e));
  CHECK(e.files[0].edits[0].old_string == "t");
  e = {};
  CHECK_FALSE(copilot_tool_edits().edits("view", R"({"path":"/w/a"})", e));
  e = {};
  REQUIRE(opencode_tool_edits().edits(
      "multiedit",
      R"({"filePath":"/w/a","edits":[{"oldString":"a","newString":"b","replaceAll":true},)"
      R"({"oldString":"c","newString":"d"}]})",
      e));
  REQUIRE(e.files[0].edits.size() == 2);
  CHECK(e.files[0].edits[0].replace_all);
  e = {};
  REQUIRE(codex_tool_edits().edits("apply_patch",
                                   R"({"input":"*** Begin Patch\n*** Delete File: x\n*** End Patch\n"})", e));
  CHECK(e.files[0].kind == ToolEditKind::remove);
  e = {};
  REQUIRE(codex_tool_edits().edits(
      "shell", R"({"command":["apply_patch","*** Begin Patch\n*** Delete File: y\n*** End Patch\n"]})", e));
  CHECK(e.files[0].path == "y");
  e = {};
  CHECK_FALSE(codex_tool_edits().edits("exec_command", R"({"cmd":"ls"})", e));
  // a shell call that is no patch hands back its command from the same parse
  REQUIRE(e.command.has_value());
  CHECK(*e.command == "ls");
  CHECK(*codex_tool_edits().shell_command("exec_command", R"({"cmd":"rm -f a.log"})") == "rm -f a.log");
  CHECK(*codex_tool_edits().shell_command("shell", R"({"command":["rm","-f","a b"]})") == "rm -f 'a b'");
}

TEST_CASE("Gemini CLI's read_file and Copilot CLI's view read as windows of the file") {
  const ToolEditReading& gemini = gemini_cli_tool_edits();
  CHECK(*gemini.read_path("read_file", R"({"file_path":"/w/a.md"})") == "/w/a.md");
  CHECK(*gemini.read_path("read_file", R"({"absolute_path":"/w/b.md"})") == "/w/b.md");  // v0.10
  CHECK_FALSE(gemini.read_path("write_file", R"({"file_path":"/w/a.md"})"));
  ToolReadWindow w;
  // the whole file: every line, its length not stated
  REQUIRE(gemini.read_window("read_file", "a\nb\n", w));
  CHECK((w.start_line == 1 && w.num_lines == 3 && w.total_lines == 0 && w.content == "a\nb\n"));
  // a range: the header's lines and total, the lines up to a cut one
  const std::string range =
      "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 4-6 of 9 total "
      "lines.\nAction: "
      "x\n\n--- FILE CONTENT (truncated) ---\nfour\nfive\n" +
      std::string(2000, 'x') + "... [truncated]";
  REQUIRE(gemini.read_window("read_file", range, w));
  CHECK((w.start_line == 4 && w.num_lines == 2 && w.total_lines == 9 && w.content == "four\nfive"));
  // context gemini-cli appended is not the file's
  REQUIRE(gemini.read_window(
      "read_file", "x\n\n\n--- Newly Discovered Project Context ---\nctx\n--- End Project Context ---", w));
  CHECK(w.content == "x\n");
  CHECK_FALSE(gemini.read_window("read_file", "Cannot display content of binary file: a.bin", w));
  CHECK_FALSE(gemini.read_window("read_file", "", w));

  const ToolEditReading& copilot = copilot_tool_edits();
  CHECK(*copilot.read_path("view", R"({"path":"/w/a","view_range":[3,4]})") == "/w/a");
  CHECK(*copilot.read_path("str_replace_editor", R"({"command":"view","path":"/w/a"})") == "/w/a");
  CHECK_FALSE(copilot.read_path("str_replace_editor", R"({"command":"create","path":"/w/a"})"));
  REQUIRE(copilot.read_window("view", "3. three\n4. \n5. five", w));
  CHECK((w.start_line == 3 && w.num_lines == 3 && w.total_lines == 0 && w.content == "three\n\nfive"));
  // a view cut short: the line at the cut is not trusted
  REQUIRE(copilot.read_window("view", "1. a\n2. b\n\n[Output truncated. Use view_range=[3, ...]]", w));
  CHECK((w.num_lines == 1 && w.content == "a"));
  // a CRLF file: the last line lost its \r
  REQUIRE(copilot.read_window("view", "1. a\r\n2. b\r\n3. c", w));
  CHECK(w.content == "a\r\nb\r");
  CHECK_FALSE(copilot.read_window("view", "src/\nREADME.md", w));  // a directory listing
  CHECK_FALSE(copilot.read_window("view", "1. a\n3. c", w));       // not consecutive: the line before is cut
}

}  // namespace apply_patch_unit
