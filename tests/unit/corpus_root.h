// Where the real session logs of ../shared/corpus are, for the unit tests that read them in place: beside the
// source tree (CI lays shared/ next to the clone), else /work/shared/corpus — the same two places
// tests/cli/corpus_store.py looks. A missing corpus fails the test that needs it (never a silent pass).
#pragma once
#include <doctest/doctest.h>

#include <filesystem>

namespace csift_test {

inline std::filesystem::path corpus_root() {
  for (const std::filesystem::path& candidate :
       {std::filesystem::path(CSIFT_SOURCE_DIR) / ".." / "shared" / "corpus",
        std::filesystem::path("/work/shared/corpus")}) {
    if (std::filesystem::is_regular_file(candidate / "README.md"))
      return std::filesystem::weakly_canonical(candidate);
  }
  FAIL(
      "../shared/corpus is not beside the source tree nor at /work/shared/corpus: the test reads its real "
      "logs");
  return {};
}

}  // namespace csift_test
