// paths: the one rule by which a path a tool recorded names a file, on POSIX and on Windows (drive letters,
// UNC, Git-Bash spellings), and what the Bash reading and the content scan make of it.
#include <doctest/doctest.h>

#include "core/mutations/bash_content.h"
#include "core/mutations/bash_mutations.h"
#include "core/mutations/paths.h"

namespace paths_unit {

using namespace csift;

namespace {

std::string resolved(const std::string& path, const std::string& cwd) {
  return resolve_path(path, cwd).value_or("<unresolved>");
}

}  // namespace

TEST_CASE("POSIX paths fold . and .. and resolve relative ones against the record's cwd") {
  CHECK(resolved("/a/./b//c/../d", "") == "/a/b/d");
  CHECK(resolved("src/x.go", "/w/app") == "/w/app/src/x.go");
  CHECK(resolved("../x", "/w/app") == "/w/x");
  CHECK(resolved("x", "") == "<unresolved>");  // no cwd: never guessed
  CHECK(path_key("/W/App") == "/W/App");       // POSIX compares bytes
  CHECK(path_parent("/a/b") == "/a");
  CHECK(path_parent("/a") == "/");
  CHECK_FALSE(path_parent("a/b"));
}

TEST_CASE("a drive letter or UNC is absolute whatever the cwd, in Windows' normal form") {
  CHECK(resolved("D:\\oh-my-posh\\src\\shell\\bash.go", "/home/x") == "D:\\oh-my-posh\\src\\shell\\bash.go");
  CHECK(resolved("d:/oh-my-posh/src/./shell/../shell/bash.go", "") == "D:\\oh-my-posh\\src\\shell\\bash.go");
  CHECK(resolved("\\\\server\\share\\x\\..\\y.txt", "") == "\\\\server\\share\\y.txt");
  CHECK(resolved("D:\\..\\x", "") == "D:\\x");  // never above the root
  CHECK(normalize_path("C:/Users/a") == "C:\\Users\\a");
  CHECK(absolute_target_path("D:\\oh-my-posh\\x.go") == "D:\\oh-my-posh\\x.go");
  CHECK(absolute_target_path("/d/oh-my-posh/x.go") == "/d/oh-my-posh/x.go");
}

TEST_CASE("relative paths join a Windows cwd; Git-Bash drives are absolute under it") {
  const std::string cwd = "D:\\oh-my-posh";
  CHECK(resolved("src\\x.go", cwd) == "D:\\oh-my-posh\\src\\x.go");
  CHECK(resolved("src/x.go", cwd) == "D:\\oh-my-posh\\src\\x.go");
  CHECK(resolved("..\\other\\y", cwd + "\\src") == "D:\\oh-my-posh\\other\\y");
  CHECK(resolved("/c/Users/dev/a.js", cwd) == "C:\\Users\\dev\\a.js");
  CHECK(resolved("/d", cwd) == "D:\\");
  CHECK(resolved("\\top.txt", cwd) == "D:\\top.txt");  // rooted on the cwd's drive
  CHECK(resolved("D:x.txt", cwd) == "D:\\oh-my-posh\\x.txt");
  CHECK(resolved("C:x.txt", cwd) == "<unresolved>");                         // another drive's own cwd
  CHECK(resolved("/tmp/x", cwd) == "<unresolved>");                          // Git-Bash's own tree
  CHECK(resolved("/c/Users/dev/a.js", "/home/dev") == "/c/Users/dev/a.js");  // POSIX: a directory named c
  CHECK(is_absolute_path("/c/x", cwd));
  CHECK_FALSE(is_absolute_path("/tmp/x", cwd));
}

TEST_CASE("a Windows path compares case-insensitively; a Git-Bash target also names the Windows file") {
  CHECK(path_key("D:\\Oh-My-Posh\\SRC\\x.go") == path_key(*resolve_path("d:/oh-my-posh/src/X.GO", "")));
  CHECK(path_key("D:\\a") != path_key("/d/a"));
  CHECK(target_path_keys("/d/oh-my-posh/x.go") ==
        std::vector<std::string>{"/d/oh-my-posh/x.go", "d:\\oh-my-posh\\x.go"});
  CHECK(target_path_keys("/home/x") == std::vector<std::string>{"/home/x"});
  CHECK(path_parent("D:\\a\\b.go") == "D:\\a");
  CHECK(path_parent("D:\\b.go") == "D:\\");
  CHECK(path_parent("\\\\srv\\share\\b.go") == "\\\\srv\\share\\");
}

TEST_CASE("Bash operands under a Windows cwd resolve the Windows way, never mangled") {
  std::vector<std::string> got;
  for (const BashMutation& m : bash_mutations("rm plugins/segments/registry.json && cd src && touch a.go; "
                                              "rm /c/Users/dev/tmp.txt /tmp/x",
                                              "D:\\oh-my-posh"))
    got.push_back(m.path + " " + resolution_name(m.resolution));
  CHECK(got == std::vector<std::string>{"D:\\oh-my-posh\\plugins\\segments\\registry.json cwd-joined",
                                        "D:\\oh-my-posh\\src\\a.go cd-tracked",
                                        "C:\\Users\\dev\\tmp.txt absolute", "/tmp/x unresolved"});
  const auto w = bash_exact_write("echo hi > out.txt", "D:\\oh-my-posh");
  REQUIRE(w);
  CHECK(w->path == "D:\\oh-my-posh\\out.txt");
}

}  // namespace paths_unit
