// bash_mutations: the lexical reading of shell commands `files` builds its heuristic rows on (the seed's §4.9
// and §6.6) — operands, redirections, heredocs, cwd tracking with its resolution classes, class markers.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/mutations/bash_mutations.h"
#include "core/mutations/shell_words.h"

namespace bash_mutations_unit {

using namespace csift;

namespace {

// "op path class" per mutation, in order.
std::vector<std::string> read(const std::string& command, const std::string& cwd = "/w") {
  std::vector<std::string> out;
  for (const BashMutation& m : bash_mutations(command, cwd))
    out.push_back(m.op + " " + m.path + " " + resolution_name(m.resolution));
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("shell words undo quoting and mark what the shell would expand") {
  const auto t = shell_tokens(R"(echo 'a b' "c $HOME" d\ e *.py ~/x)");
  REQUIRE(t.size() == 6);
  CHECK(t[1].word.text == "a b");
  CHECK_FALSE(t[1].word.dynamic);
  CHECK(t[2].word.dynamic);
  CHECK(t[3].word.text == "d e");
  CHECK(t[4].word.dynamic);
  CHECK(t[5].word.dynamic);
}

TEST_CASE("a vertical tab or form feed is part of a word, as for the shell") {
  // Each made the lexer loop forever before (found by tests/fuzz).
  const auto t = shell_tokens("touch a\vb\fc && echo x\v> y");
  REQUIRE(t.size() == 7);
  CHECK(t[1].word.text == "a\vb\fc");
  CHECK(t[4].word.text == "x\v");
  CHECK(t[5].kind == ShellTokenKind::redirect_out);
}

TEST_CASE("file commands name their operands, options skipped") {
  CHECK(read("rm -rf build dist/out.txt") == V{"rm /w/build cwd-joined", "rm /w/dist/out.txt cwd-joined"});
  CHECK(read("mkdir -p /tmp/a/b && touch /tmp/a/b/c") ==
        V{"mkdir /tmp/a/b absolute", "touch /tmp/a/b/c absolute"});
  CHECK(read("mv a.txt b.txt") == V{"mv-from /w/a.txt cwd-joined", "mv-to /w/b.txt cwd-joined"});
  CHECK(read("cp -r src /tmp/dst") == V{"cp-to /tmp/dst absolute"});
  CHECK(read("echo hi | tee -a log.txt") == V{"tee /w/log.txt cwd-joined"});
  CHECK(read("ls -la && cat x && grep -r foo .").empty());
}

TEST_CASE("redirections write their target; /dev/null and fd duplications do not") {
  CHECK(read("echo x > out.txt 2>&1") == V{"redirect /w/out.txt cwd-joined"});
  CHECK(read("make >> build.log 2> /dev/null") == V{"redirect /w/build.log cwd-joined"});
  CHECK(read("cmd &>/dev/null").empty());
  CHECK(read("wc -l < input.txt").empty());
}

TEST_CASE("a heredoc body is not read as commands; cat > file <<EOF writes the file") {
  CHECK(read("cat > notes.md <<'EOF'\nrm -rf /\n> not-a-file\nEOF\necho done") ==
        V{"redirect /w/notes.md cwd-joined"});
}

TEST_CASE("cd moves later operands (cd-tracked); a subshell's cd does not leak; $VAR stays unresolved") {
  CHECK(read("cd sub && rm a") == V{"rm /w/sub/a cd-tracked"});
  CHECK(read("cd /abs && rm a") == V{"rm /abs/a cd-tracked"});
  CHECK(read("(cd sub && rm a) && rm b") == V{"rm /w/sub/a cd-tracked", "rm /w/b cwd-joined"});
  CHECK(read("cd $DIR && rm a") == V{"rm a unresolved"});
  CHECK(read("rm $OUT/x") == V{"rm $OUT/x unresolved"});
  CHECK(read("rm *.o") == V{"rm *.o unresolved"});
  CHECK(read("rm x", "") == V{"rm x unresolved"});
  CHECK(read("rm ../up/./x") == V{"rm /up/x cwd-joined"});
}

TEST_CASE("sed -i and perl -i edit their file operands, not their scripts") {
  CHECK(read("sed -i 's/a/b/' f.txt g.txt") == V{"sed-i /w/f.txt cwd-joined", "sed-i /w/g.txt cwd-joined"});
  CHECK(read("sed -i.bak -e 's/a/b/' f.txt") == V{"sed-i /w/f.txt cwd-joined"});
  CHECK(read("sed 's/a/b/' f.txt").empty());
  CHECK(read("perl -pi -e 's/a/b/' f.txt") == V{"perl-i /w/f.txt cwd-joined"});
}

TEST_CASE("git: rm/mv/restore name files; other mutating subcommands are class markers; dry runs nothing") {
  CHECK(read("git rm old.c") == V{"git-rm /w/old.c cwd-joined"});
  CHECK(read("git rm --cached old.c").empty());
  CHECK(read("git checkout -- a.c") == V{"git-restore /w/a.c cwd-joined"});
  CHECK(read("git commit -m 'x'") == V{"marker git:commit marker"});
  CHECK(read("git status && git diff && git log").empty());
  CHECK(read("git apply --check p.diff").empty());
  CHECK(read("git clean -n").empty());
  CHECK(read("git -C /repo rm a") == V{"git-rm /repo/a cd-tracked"});
}

TEST_CASE("formatters, package managers and extractors are markers") {
  CHECK(read("npx prettier --write src") == V{});  // npx runs a tool we do not name: not guessed
  CHECK(read("prettier --write src") == V{"marker fmt:prettier marker"});
  CHECK(read("prettier --check src").empty());
  CHECK(read("npm install lodash") == V{"marker pkg:npm marker"});
  CHECK(read("npm test").empty());
  CHECK(read("tar xzf a.tgz") == V{"marker extract:tar marker"});
  CHECK(read("tar czf a.tgz dir").empty());
}

TEST_CASE("interpreter write idioms: a literal target is a row, anything else one marker") {
  CHECK(read("python3 -c \"open('out.json', 'w').write('{}')\"") == V{"interp-write /w/out.json cwd-joined"});
  CHECK(read("python3 -c \"print(open('in.txt').read())\"").empty());
  CHECK(read("python3 - <<'EOF'\nfrom pathlib import Path\nPath('/tmp/r.txt').write_text('x')\nEOF") ==
        V{"interp-write /tmp/r.txt absolute"});
  CHECK(read("node -e \"require('fs').writeFileSync(name, 'x')\"") == V{"marker interp:node marker"});
  CHECK(read("bash -c 'rm -f a && touch b'") == V{"rm /w/a cwd-joined", "touch /w/b cwd-joined"});
}

}  // namespace bash_mutations_unit
