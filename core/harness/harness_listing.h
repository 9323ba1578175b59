// What every harness's store listing shares (core/harness/harness_entry.h `locate` and `list`): the store
// root from a variable or a default under $HOME, a sorted directory listing, the Transcript of one session
// named by its ref, and the `unsupported-format` problem. The scope that calls the listings is the store
// area's (core/store/harness_stores.h).
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

}  // namespace csift
