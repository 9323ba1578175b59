// OpenCode's store (SPEC.md "OpenCode"): the SQLite databases OpenCode 1 and OpenCode 2 keep under
// `<data home>/opencode`, found the way OpenCode finds them, and the sessions each lists. OpenCode 2 migrates
// a 1.x database in place and keeps the old tables, so a database with a `session_v2` table is read only as
// OpenCode 2: a session is never listed under both harness names.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/environment.h"
#include "core/base/timefmt.h"
#include "core/harness/opencode/opencode_schema.h"
#include "core/record/transcript.h"

namespace csift {

inline constexpr std::string_view kOpenCodeV1Harness = harness_name(HarnessId::opencode_v1);
inline constexpr std::string_view kOpenCodeV2Harness = harness_name(HarnessId::opencode_v2);
// The input alias OpenCode 1's sessions are also named by (`opencode:<id>`).
inline constexpr std::string_view kOpenCodeAlias = "opencode";

// One session a harness's database lists, before anything of its log is read.
struct DbSession {
  // harness, path = the database file, id = session_id = the ref `<harness>:<session id>`, size = the bytes
  // of the session's stored rows (their `data`; the database file is shared), mtime_ns = its time_updated.
  Transcript transcript;
  std::string session_id;  // OpenCode's own id (`ses_…`)
  std::string cwd;         // the session row's directory ("" when absent or not an absolute path)
  EpochMs created_ms = 0;
  EpochMs updated_ms = 0;
  std::string title;
};

struct OpenCodeStore {
  std::vector<std::string> databases;  // every database file read, in reading order
  std::vector<DbSession> sessions;     // top-level sessions, in database order then creation order
  uint64_t child_sessions = 0;         // sub-agent sessions (parent_id set): counted, not listed
  std::vector<StoreProblem> problems;  // per database / per session: what could not be read, and why
};

// Where OpenCode's databases are, and what put them there: the file `$OPENCODE_DB` names (a relative value is
// under the data dir), else the data dir — `$XDG_DATA_HOME/opencode` when that variable is an absolute path,
// else `$HOME/.local/share/opencode`.
struct OpenCodeLocation {
  std::string path;    // a database file ($OPENCODE_DB) or the data directory
  std::string source;  // "$OPENCODE_DB", "$XDG_DATA_HOME", "default ~/.local/share"
};
OpenCodeLocation locate_opencode_store(const Environment& env);

// The databases at a location: `opencode.db` then `opencode-*.db` when it is a directory, else the file
// itself. An unlistable directory and an entry that is not a regular file are problems; a missing location
// lists nothing, except a $OPENCODE_DB that does not exist, which is a problem.
std::vector<std::string> opencode_database_paths(const OpenCodeLocation& where,
                                                 std::vector<StoreProblem>& problems);

// Lists every database at the location. `only` = v1 or v2 lists one harness's sessions and problems (a
// database neither schema reads is OpenCode 1's problem to report, a V2 database's shortfall OpenCode 2's);
// `none` lists both. A session id already listed from an earlier database is a problem, not a second entry.
OpenCodeStore list_opencode_location(const OpenCodeLocation& where,
                                     OpenCodeSchema only = OpenCodeSchema::none);
// Both harnesses' sessions where the environment puts them.
OpenCodeStore list_opencode_sessions(const Environment& env);
// One database's sessions appended to `out` (same rules as above).
void list_opencode_database(const std::string& db_path, OpenCodeStore& out,
                            OpenCodeSchema only = OpenCodeSchema::none);

// One harness's transcripts and problems at a root (a data directory or a database file), for a registry that
// lists each harness from its root alone.
void list_opencode_v1_store(const std::string& root, std::vector<Transcript>& transcripts,
                            std::vector<StoreProblem>& problems);
void list_opencode_v2_store(const std::string& root, std::vector<Transcript>& transcripts,
                            std::vector<StoreProblem>& problems);

// The OpenCode session id a transcript names: its id with a leading `<harness>:` (or `opencode:`) removed.
std::string opencode_session_id(const Transcript& t);

}  // namespace csift
