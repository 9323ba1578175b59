// The stores of harnesses other than Claude Code (core/harness/harness_entry.h): where each is by its
// environment, what it lists, and the directory walking their listings share. Claude Code's store stays the
// target grammar's (core/store/targets.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/harness/harness_entry.h"

namespace csift {

// `$var` when it is an absolute path (with `under` appended), else `$HOME/<home_default>`; nullopt when
// neither applies. A variable that is set but not absolute is ignored, as the harnesses do.
std::optional<StoreRoot> store_root_from(const Environment& env, const char* var, std::string_view under,
                                         std::string_view home_default);

// One entry of a directory listing.
struct DirEntry {
  std::string name;
  std::string path;
  bool is_dir = false;
  bool is_regular = false;  // a regular file, or a symlink to one
};
// The entries of `dir` sorted by name; a directory that cannot be listed is a problem naming it.
std::vector<DirEntry> list_store_dir(const std::string& dir, std::vector<StoreProblem>& problems);

// A transcript of harness `harness` at `path`, named by its ref. The listing adds what the harness knows.
Transcript harness_transcript(std::string_view harness, const std::string& path,
                              const std::string& session_id, const std::string& store_dir);
// `unsupported-format: <why>` problem for a file the reader does not read.
StoreProblem unsupported_format(const std::string& path, const std::string& why);

// What one store contributed to a scope, for the header.
struct StoreReport {
  std::string harness;
  std::string root;    // "" when no location applies
  std::string source;  // what put the root there
  bool found = false;  // the root is a directory
  size_t sessions = 0;
  size_t problems = 0;
};

// Lists harness h's store as the environment locates it. A store that does not exist lists nothing and is
// reported with found = false (reading every store found never fails on an absent one).
StoreReport list_harness_store(const HarnessEntry& h, const Environment& env, StoreListing& out);

}  // namespace csift
