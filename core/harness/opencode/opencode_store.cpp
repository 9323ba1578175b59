#include "core/harness/opencode/opencode_store.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "core/harness/opencode/opencode_schema.h"
#include "core/harness/opencode/sqlite_readonly.h"

namespace csift {

namespace {

bool opencode_is_absolute(std::string_view p) {
  return !p.empty() && p.front() == '/';
}

bool opencode_db_name(std::string_view name) {
  if (name == "opencode.db") return true;
  return name.size() > 12 && name.substr(0, 9) == "opencode-" && name.substr(name.size() - 3) == ".db";
}

// One listing query per schema: the session row's id, directory, title, times and parent.
const char* opencode_session_sql(OpenCodeSchema schema) {
  return schema == OpenCodeSchema::v2
             ? "SELECT id, directory, title, time_created, time_updated, parent_id FROM session_v2 "
               "ORDER BY time_created, id"
             : "SELECT id, directory, title, time_created, time_updated, parent_id FROM session "
               "ORDER BY time_created, id";
}

}  // namespace

std::string opencode_data_dir(const Environment& env) {
  const auto xdg = env.get("XDG_DATA_HOME");
  if (xdg && opencode_is_absolute(*xdg)) return *xdg + "/opencode";
  return home_dir(env) + "/.local/share/opencode";
}

std::vector<std::string> opencode_database_paths(const Environment& env,
                                                 std::vector<StoreProblem>& problems) {
  const std::string dir = opencode_data_dir(env);
  if (const auto named = env.get("OPENCODE_DB")) {
    const std::string path = opencode_is_absolute(*named) ? *named : dir + "/" + *named;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      problems.push_back(
          {path, "OPENCODE_DB names a database that cannot be read: " + std::string(std::strerror(errno))});
      return {};
    }
    if (auto why = irregular_entry_reason(path)) {
      problems.push_back({path, *why});
      return {};
    }
    return {path};
  }
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) {
    if (errno != ENOENT && errno != ENOTDIR)
      problems.push_back(
          {dir, "cannot list the OpenCode data directory: " + std::string(std::strerror(errno))});
    return out;
  }
  while (const dirent* e = ::readdir(d)) {
    if (!opencode_db_name(e->d_name)) continue;
    const std::string path = dir + "/" + e->d_name;
    if (auto why = irregular_entry_reason(path)) {
      problems.push_back({path, *why});
      continue;
    }
    out.push_back(path);
  }
  ::closedir(d);
  // opencode.db first (the one OpenCode opens by default), then the channel databases by name.
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    const bool da = a.size() >= 12 && a.compare(a.size() - 12, 12, "/opencode.db") == 0;
    const bool db = b.size() >= 12 && b.compare(b.size() - 12, 12, "/opencode.db") == 0;
    return da != db ? da : a < b;
  });
  return out;
}

void list_opencode_database(const std::string& db_path, OpenCodeStore& out) {
  out.databases.push_back(db_path);
  ReadOnlyDb db;
  if (!db.open(db_path)) {
    out.problems.push_back({db_path, "cannot open as an SQLite database: " + db.error()});
    return;
  }
  const SchemaCheck check = check_opencode_schema(db);
  if (check.schema == OpenCodeSchema::none) {
    out.problems.push_back({db_path, check.problem});
    return;
  }
  const std::string_view harness =
      check.schema == OpenCodeSchema::v2 ? kOpenCodeV2Harness : kOpenCodeV1Harness;
  if (check.schema == OpenCodeSchema::v2 && db.tables().count("session_part"))
    out.problems.push_back({db_path,
                            "table `session_part` is not read: its rows are missing from every session "
                            "of this database"});
  struct stat st {};
  const uint64_t size = ::stat(db_path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  std::unordered_set<std::string> listed;
  for (const DbSession& s : out.sessions)
    listed.insert(s.transcript.id);
  const bool ok = db.query(opencode_session_sql(check.schema), {}, [&](const SqlRow& row) {
    if (row[5] && !row[5]->empty()) {
      ++out.child_sessions;
      return true;
    }
    const std::string id = row.text(0);
    if (!listed.insert(id).second) {
      out.problems.push_back({db_path, "session " + id +
                                           " is listed already from an earlier database; this copy "
                                           "is not read"});
      return true;
    }
    DbSession s;
    s.transcript.harness = std::string(harness);
    s.transcript.path = db_path;
    s.transcript.id = id;
    s.transcript.session_id = id;
    s.transcript.size = size;
    const std::string dir = row.text(1);
    if (opencode_is_absolute(dir)) s.cwd = dir;
    s.title = row.text(2);
    s.created_ms = row.integer(3).value_or(0);
    s.updated_ms = row.integer(4).value_or(0);
    s.transcript.mtime_ns = s.updated_ms * 1000000;
    out.sessions.push_back(std::move(s));
    return true;
  });
  if (!ok) out.problems.push_back({db_path, "cannot list its sessions: " + db.error()});
}

OpenCodeStore list_opencode_sessions(const Environment& env) {
  OpenCodeStore out;
  out.data_dir = opencode_data_dir(env);
  for (const std::string& path : opencode_database_paths(env, out.problems))
    list_opencode_database(path, out);
  return out;
}

}  // namespace csift
