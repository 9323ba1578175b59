// recover's replay model and the exact Bash writes (SPEC.md §9.13).
#include <doctest/doctest.h>

#include "core/mutations/bash_content.h"
#include "tools/recover/replay.h"

namespace csift {
namespace {

ContentEvent rr_write(const std::string& text) {
  ContentEvent e;
  e.kind = ContentEventKind::write;
  e.tool = "Write";
  e.source = "write";
  e.content = text;
  return e;
}

ContentEvent rr_edit(std::vector<PatchHunk> patch) {
  ContentEvent e;
  e.kind = ContentEventKind::edit;
  e.tool = "Edit";
  e.patch = std::move(patch);
  return e;
}

ReplayResult rr_run(const std::vector<ContentEvent>& events) {
  static const Transcript t;
  std::vector<OrderedEvent> ordered;
  for (const ContentEvent& e : events)
    ordered.push_back({&e, &t});
  return replay_events(ordered);
}

}  // namespace

ContentEvent rr_string_edit(std::vector<PatchHunk> patch, std::string old_s, std::string new_s,
                            bool all = false) {
  ContentEvent e = rr_edit(std::move(patch));
  e.edits.push_back({std::move(old_s), std::move(new_s), all});
  return e;
}

TEST_CASE("on a complete buffer an edit applies its own strings; a patch showing tabs as spaces is named") {
  // Claude Code 2.1.2xx: the structuredPatch writes each tab as two spaces
  const auto r = rr_run({rr_write("f() {\n\tx\n}\n"),
                         rr_string_edit({{1, 3, 1, 3, {" f() {", "-  x", "+  y", " }"}}}, "\tx", "\ty")});
  CHECK(r.buffer.text() == "f() {\n\ty\n}\n");
  CHECK(r.holes == 0);
  CHECK(r.boundaries.empty());
  CHECK(r.counts.at("patch-disagreement") == 1);
  REQUIRE(r.changes.size() == 2);
  CHECK(r.changes[1].diff.find("-\tx\n+\ty\n") != std::string::npos);  // the change as applied

  // replace_all, and a patch that agrees: no disagreement, the patch is the change's diff
  const auto all =
      rr_run({rr_write("a b a\n"), rr_string_edit({{1, 1, 1, 1, {"-a b a", "+c b c"}}}, "a", "c", true)});
  CHECK(all.buffer.text() == "c b c\n");
  CHECK(all.counts.count("patch-disagreement") == 0);
  CHECK(all.changes[1].diff == "@@ -1,1 +1,1 @@\n-a b a\n+c b c\n");
}

TEST_CASE("an old string found twice without replace_all, or not found, is left to the patch") {
  // the strings cannot place it, and the tab-as-spaces patch disagrees with the buffer: a hole, no guess
  const auto twice = rr_run(
      {rr_write("\ta\n\ta\n"), rr_string_edit({{1, 2, 1, 2, {"-  a", "+  b", "   a"}}}, "\ta", "\tb")});
  CHECK(twice.holes == 1);
  CHECK_FALSE(twice.buffer.complete());
  CHECK(twice.counts.count("patch-disagreement") == 0);
  // not found, with a patch that places: the patch decides, as before
  const auto missing = rr_run({rr_write("a\n"), rr_string_edit({{1, 1, 1, 1, {"-a", "+b"}}}, "zzz", "b")});
  CHECK(missing.buffer.text() == "b\n");
  CHECK(missing.holes == 0);
  // an edit without a patch and an ambiguous string drops the buffer (its place is unknown)
  const auto bare = rr_run({rr_write("a\na\n"), rr_string_edit({}, "a", "b")});
  CHECK(bare.holes == 1);
  CHECK(bare.buffer.lines.empty());
}

TEST_CASE("an edit's no-newline markers move the final newline exactly") {
  // "x" -> "x\n": the old side ends the file without a newline, the new side with one
  const auto r =
      rr_run({rr_write("x"), rr_edit({{1, 1, 1, 1, {"-x", "\\ No newline at end of file", "+x"}}})});
  CHECK(r.buffer.complete());
  CHECK(r.buffer.text() == "x\n");
  const auto back = rr_run(
      {rr_write("a\nb\n"), rr_edit({{1, 2, 1, 2, {" a", "-b", "+b", "\\ No newline at end of file"}}})});
  CHECK(back.buffer.text() == "a\nb");
}

TEST_CASE("a hunk on unknown lines is a hole; the lines after it shift") {
  ContentEvent window;
  window.kind = ContentEventKind::read;
  window.content = "one\ntwo";
  window.start_line = 1;
  window.num_lines = 2;
  window.total_lines = 6;
  const auto r = rr_run({window, rr_edit({{4, 2, 4, 3, {" four", "-five", "+FIVE", "+5b"}}})});
  CHECK(r.holes == 1);
  CHECK(r.buffer.lines.size() == 2);
  CHECK(*r.buffer.total == 7);
  CHECK_FALSE(r.buffer.complete());
}

TEST_CASE("a hunk that contradicts a known line is never applied over it") {
  const auto r = rr_run({rr_write("a\nb\nc\n"), rr_edit({{2, 1, 2, 1, {"-B", "+z"}}})});
  CHECK(r.holes == 1);
  CHECK(r.buffer.lines.count(2) == 0);
  CHECK(r.buffer.lines.at(1) == "a");
}

TEST_CASE("a write's change is one unified hunk that marks a missing final newline") {
  const auto r = rr_run({rr_write("a\nb\n"), rr_write("a\nc")});
  REQUIRE(r.changes.size() == 2);
  CHECK(r.changes[0].diff == "@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(r.changes[1].diff == "@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n");
}

TEST_CASE("an append lands on a known end, else it is an unplaced boundary") {
  ContentEvent app = rr_write("more\n");
  app.source = "bash-append";
  CHECK(rr_run({rr_write("a\n"), app}).buffer.text() == "a\nmore\n");
  ContentEvent tail;  // a window that shows the end: line 3 of 3 is the empty line after the final newline
  tail.kind = ContentEventKind::read;
  tail.content = "c\n";
  tail.start_line = 2;
  tail.num_lines = 2;
  tail.total_lines = 3;
  const auto placed = rr_run({tail, app});
  CHECK(placed.buffer.lines.at(3) == "more");
  CHECK(*placed.buffer.total == 4);
  CHECK(placed.boundaries.empty());
  ContentEvent head = tail;  // a window that does not show the end
  head.start_line = 1;
  head.num_lines = 1;
  head.content = "a";
  const auto unplaced = rr_run({head, app});
  REQUIRE(unplaced.boundaries.size() == 1);
  CHECK(unplaced.boundaries[0].cause == "bash-append-unplaced");
  CHECK_FALSE(unplaced.buffer.total);
  CHECK(unplaced.buffer.lines.at(1) == "a");
}

TEST_CASE("exact Bash writes: quoted heredocs, echo, printf; nothing else") {
  const auto h = bash_exact_write("cat > run.sh <<'EOF'\n#!/bin/sh\necho \"$HOME\"\nEOF", "/w");
  REQUIRE(h);
  CHECK(h->path == "/w/run.sh");
  CHECK(h->content == "#!/bin/sh\necho \"$HOME\"\n");
  CHECK(h->source == "bash-heredoc");
  CHECK_FALSE(bash_exact_write("cat > run.sh <<EOF\necho $HOME\nEOF", "/w"));  // unquoted and it expands
  CHECK(bash_exact_write("cat > a.txt <<EOF\nplain\nEOF", "/w")->content == "plain\n");
  CHECK(bash_exact_write("tee /abs/t.txt <<'X'\nq\nX", "")->path == "/abs/t.txt");
  CHECK(bash_exact_write("echo hello   world > g.txt", "/w")->content == "hello world\n");
  CHECK(bash_exact_write("printf 'no newline' > p.txt", "/w")->content == "no newline");
  CHECK_FALSE(bash_exact_write("printf '%s\\n' x > p.txt", "/w"));
  const auto appended = bash_exact_write("echo hi >> g.txt", "/w");
  REQUIRE(appended);
  CHECK(appended->append);
  CHECK_FALSE(bash_exact_write("echo hi > g.txt", "/w")->append);
  CHECK_FALSE(bash_exact_write("echo $X > g.txt", "/w"));            // an expansion
  CHECK_FALSE(bash_exact_write("cd sub && echo hi > g.txt", "/w"));  // compound
  CHECK_FALSE(bash_exact_write("echo -n hi > g.txt", "/w"));
  CHECK_FALSE(bash_exact_write("echo hi > g.txt", ""));  // a relative target with no cwd
}

}  // namespace csift
