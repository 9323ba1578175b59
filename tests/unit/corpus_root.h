// Where the real session logs of ../shared/corpus are, for the unit tests that read them in place: beside the
// source tree (CI lays shared/ next to the clone), else /work/shared/corpus — the same two places
// tests/cli/corpus_store.py looks. A missing corpus fails the test that needs it (never a silent pass).
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/harness/claude_code/record_parser.h"
#include "core/store/store.h"

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

// The Claude Code logs the unit tests read whole: the fixture stores and the corpus's Claude Code folders.
inline std::vector<std::filesystem::path> claude_code_logs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  for (const char* dir : {"home", "home-compacted", "agents-home", "records-home"})
    roots.push_back(fs::path(CSIFT_SOURCE_DIR) / "fixtures" / dir);
  for (const char* dir : {"claude-backups", "spotter", "cli", "scripts-and-tools", "devtoolbox"})
    roots.push_back(corpus_root() / dir);
  std::vector<fs::path> files;
  for (const fs::path& root : roots) {
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  return files;
}

// Every .jsonl file of the corpus smaller than `below_bytes`, sorted (the tests that read each line of many
// logs leave the few huge sessions out).
inline std::vector<std::filesystem::path> small_corpus_logs(uintmax_t below_bytes = uintmax_t{1} << 20) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(corpus_root())) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl" && e.file_size() < below_bytes)
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A file's bytes, whole.
inline std::string file_bytes_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lines of `bytes` with line n cut to half its length whenever n % every == at (a real log with damage
// to count: a cut line is malformed).
inline std::string with_cut_lines(const std::string& bytes, size_t every, size_t at) {
  std::string out;
  std::istringstream in(bytes);
  std::string line;
  for (size_t n = 0; std::getline(in, line); ++n)
    out += (n % every == at ? line.substr(0, line.size() / 2) : line) + "\n";
  return out;
}

// Calls fn(line, record) for every line of small_corpus_logs(), record the line's parse (null when it does
// not parse). Returns how many files were read.
template <class Fn>
size_t for_each_small_corpus_line(Fn fn) {
  const std::vector<std::filesystem::path> files = small_corpus_logs();
  csift::RecordParser parser;
  for (const auto& path : files) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      csift::Record r;
      const bool parsed = parser.parse(line, r) == csift::ParseStatus::ok;
      fn(std::string_view(line), parsed ? &r : nullptr);
    }
  }
  return files.size();
}

// One of those logs as a Transcript: its path, its file name's id, a subagent when under subagents/.
inline csift::Transcript transcript_of(const std::filesystem::path& path) {
  csift::Transcript t;
  t.path = path.string();
  t.id = path.stem().string();
  t.is_subagent = t.path.find("/subagents/") != std::string::npos;
  return t;
}

}  // namespace csift_test
