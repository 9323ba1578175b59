// The path filters of files (and agents with_files): glob semantics over full paths, regex anywhere, both
// ANDed, and a bad pattern named by its argument.
#include <doctest/doctest.h>

#include "core/base/error.h"
#include "tools/files/path_filter.h"

namespace path_filter_unit {

using namespace csift;

TEST_CASE("glob: * and ? stay in one component, ** crosses /, classes, whole-path match") {
  CHECK(glob_matches("/a/*.py", "/a/x.py"));
  CHECK_FALSE(glob_matches("/a/*.py", "/a/b/x.py"));
  CHECK(glob_matches("**/src/**", "/home/me/p/src/main.c"));
  CHECK(glob_matches("**/*.md", "/x/y/z.md"));
  CHECK(glob_matches("/x/**/z.md", "/x/z.md"));
  CHECK_FALSE(glob_matches("**/src/**", "/home/me/p/source/main.c"));
  CHECK(glob_matches("/t/file?.[ch]", "/t/file1.c"));
  CHECK_FALSE(glob_matches("/t/file?.[ch]", "/t/file1.o"));
  CHECK(glob_matches("/t/[!a-c]x", "/t/dx"));
  CHECK_FALSE(glob_matches("/t/[!a-c]x", "/t/bx"));
  CHECK_FALSE(glob_matches("*.py", "/a/x.py"));  // the whole path must match; a bare * never crosses /
}

TEST_CASE("regex and glob are ANDed; a bad pattern is a usage error naming its argument") {
  const PathFilter f = PathFilter::from_args(json{{"regex", "config"}, {"glob", "**/*.py"}});
  CHECK(f.active());
  CHECK(f.admits("/p/src/config.py"));
  CHECK_FALSE(f.admits("/p/src/config.toml"));
  CHECK_FALSE(f.admits("/p/src/main.py"));
  CHECK(f.admits("D:\\p\\src\\config.py"));  // a Windows path's backslashes separate components
  CHECK(PathFilter::from_args(json{{"glob", "**/src/*.go"}}).admits("D:\\oh-my-posh\\src\\x.go"));
  CHECK_FALSE(PathFilter::from_args(json{{"glob", "**/src/*.go"}}).admits("D:\\oh-my-posh\\src\\a\\x.go"));
  CHECK_FALSE(PathFilter::from_args(json::object()).active());
  try {
    PathFilter::from_args(json{{"regex", "("}});
    FAIL("no error");
  } catch (const ToolError& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("regex") != std::string::npos);
  }
  CHECK_THROWS_AS(PathFilter::from_args(json{{"glob", "/a/[bc"}}), ToolError);
}

}  // namespace path_filter_unit
