// OpenCode's store (SPEC.md "OpenCode"): the SQLite databases OpenCode 1 and OpenCode 2 keep under
// `<data home>/opencode`, found the way OpenCode finds them, and the sessions each lists. OpenCode 2 migrates
// a 1.x database in place and keeps the old tables, so a database with a `session_v2` table is read only as
// OpenCode 2: a session is never listed under both harness names.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/timefmt.h"
#include "core/store/store.h"

namespace csift {

inline constexpr std::string_view kOpenCodeV1Harness = "opencode-v1";
inline constexpr std::string_view kOpenCodeV2Harness = "opencode-v2";

// One session a harness's database (or file store) lists, before anything of its log is read.
struct DbSession {
  Transcript transcript;  // harness, path = the database file, id = session_id = the session id,
                          // mtime_ns = the session's time_updated
  std::string cwd;        // the session row's directory ("" when absent or not an absolute path)
  EpochMs created_ms = 0;
  EpochMs updated_ms = 0;
  std::string title;
};

struct OpenCodeStore {
  std::string data_dir;                // <data home>/opencode
  std::vector<std::string> databases;  // every database file found, in reading order
  std::vector<DbSession> sessions;     // top-level sessions, V1 and V2 together, in database order
  uint64_t child_sessions = 0;         // sub-agent sessions (parent_id set): counted, not listed
  std::vector<StoreProblem> problems;  // per database / per session: what could not be read, and why
};

// `$XDG_DATA_HOME/opencode` when that variable is an absolute path, else `$HOME/.local/share/opencode`.
std::string opencode_data_dir(const Environment& env);
// `$OPENCODE_DB` (a relative value under the data dir), else `opencode.db` and `opencode-*.db` in the data
// dir, sorted. A named database that does not exist, an unlistable directory and an entry that is not a
// regular file are problems; a missing data dir is simply no store.
std::vector<std::string> opencode_database_paths(const Environment& env, std::vector<StoreProblem>& problems);
// Every database's sessions. A database without the tables of either schema, or one SQLite cannot open, is a
// problem naming what is missing; a session id already listed from an earlier database is a problem too.
OpenCodeStore list_opencode_sessions(const Environment& env);
// One database's sessions appended to `out` (the same checks), for tests and single-file targets.
void list_opencode_database(const std::string& db_path, OpenCodeStore& out);

}  // namespace csift
