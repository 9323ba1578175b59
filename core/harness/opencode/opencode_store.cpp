#include "core/harness/opencode/opencode_store.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

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

// The bytes of each session's stored rows (their `data`), by session id: a session's size, where a
// file-backed transcript has its file's.
std::unordered_map<std::string, uint64_t> opencode_row_bytes(ReadOnlyDb& db, OpenCodeSchema schema) {
  std::unordered_map<std::string, uint64_t> out;
  const auto add = [&](const char* sql) {
    db.query(sql, {}, [&](const SqlRow& r) {
      out[r.text(0)] += static_cast<uint64_t>(r.integer(1).value_or(0));
      return true;
    });
  };
  if (schema == OpenCodeSchema::v2) {
    add("SELECT session_id, sum(length(CAST(data AS BLOB))) FROM session_message GROUP BY session_id");
  } else {
    add("SELECT session_id, sum(length(CAST(data AS BLOB))) FROM message GROUP BY session_id");
    add("SELECT session_id, sum(length(CAST(data AS BLOB))) FROM part GROUP BY session_id");
  }
  return out;
}

bool opencode_wants(OpenCodeSchema only, OpenCodeSchema s) {
  return only == OpenCodeSchema::none || only == s;
}

std::vector<std::string> opencode_dir_databases(const std::string& dir, std::vector<StoreProblem>& problems) {
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
  const auto is_default = [](const std::string& p) {
    return p.size() >= 12 && p.compare(p.size() - 12, 12, "/opencode.db") == 0;
  };
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    return is_default(a) != is_default(b) ? is_default(a) : a < b;
  });
  return out;
}

DbSession opencode_session_row(const SqlRow& row, std::string_view harness, const std::string& db_path,
                               uint64_t size) {
  DbSession s;
  s.session_id = row.text(0);
  s.transcript.harness = *harness_id_named(harness);
  s.transcript.path = db_path;
  s.transcript.id = std::string(harness) + ":" + s.session_id;
  s.transcript.session_id = s.transcript.id;
  s.transcript.size = size;
  const std::string dir = row.text(1);
  if (opencode_is_absolute(dir)) s.cwd = dir;
  s.title = row.text(2);
  s.created_ms = row.integer(3).value_or(0);
  s.updated_ms = row.integer(4).value_or(0);
  s.transcript.mtime_ns = s.updated_ms * 1000000;
  return s;
}

}  // namespace

OpenCodeLocation locate_opencode_store(const Environment& env) {
  const auto xdg = env.get("XDG_DATA_HOME");
  OpenCodeLocation where;
  if (xdg && opencode_is_absolute(*xdg)) {
    where = {*xdg + "/opencode", "$XDG_DATA_HOME"};
  } else {
    where = {home_dir(env) + "/.local/share/opencode", "default ~/.local/share"};
  }
  if (const auto named = env.get("OPENCODE_DB"))
    where = {opencode_is_absolute(*named) ? *named : where.path + "/" + *named, "$OPENCODE_DB"};
  return where;
}

std::vector<std::string> opencode_database_paths(const OpenCodeLocation& where,
                                                 std::vector<StoreProblem>& problems) {
  struct stat st {};
  const bool exists = ::stat(where.path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return opencode_dir_databases(where.path, problems);
  if (!exists && where.source != "$OPENCODE_DB") return {};  // no data directory: no store
  if (!exists) {
    problems.push_back({where.path, "OPENCODE_DB names a database that cannot be read: " +
                                        std::string(std::strerror(errno))});
    return {};
  }
  if (auto why = irregular_entry_reason(where.path)) {
    problems.push_back({where.path, *why});
    return {};
  }
  return {where.path};
}

void list_opencode_database(const std::string& db_path, OpenCodeStore& out, OpenCodeSchema only) {
  out.databases.push_back(db_path);
  ReadOnlyDb db;
  const bool report_db = opencode_wants(only, OpenCodeSchema::v1);
  if (!db.open(db_path)) {
    if (report_db) out.problems.push_back({db_path, "cannot open as an SQLite database: " + db.error()});
    return;
  }
  const SchemaCheck check = check_opencode_schema(db);
  if (check.schema == OpenCodeSchema::none) {
    if (opencode_wants(only, check.v2_tables ? OpenCodeSchema::v2 : OpenCodeSchema::v1))
      out.problems.push_back({db_path, check.problem});
    return;
  }
  if (!opencode_wants(only, check.schema)) return;
  const bool v2 = check.schema == OpenCodeSchema::v2;
  if (v2 && db.tables().count("session_part"))
    out.problems.push_back({db_path,
                            "table `session_part` is not read: its layout is unknown (no public OpenCode "
                            "source or release we could read defines it), so whatever its rows hold is "
                            "missing from every session of this database"});
  const auto bytes = opencode_row_bytes(db, check.schema);
  std::unordered_set<std::string> listed;
  for (const DbSession& s : out.sessions)
    listed.insert(s.session_id);
  const bool ok = db.query(opencode_session_sql(check.schema), {}, [&](const SqlRow& row) {
    if (row[5] && !row[5]->empty()) {
      ++out.child_sessions;
      return true;
    }
    if (!listed.insert(row.text(0)).second) {
      out.problems.push_back(
          {db_path,
           "session " + row.text(0) + " is listed already from an earlier database; this copy is not read"});
      return true;
    }
    const auto size = bytes.find(row.text(0));
    out.sessions.push_back(opencode_session_row(row, v2 ? kOpenCodeV2Harness : kOpenCodeV1Harness, db_path,
                                                size == bytes.end() ? 0 : size->second));
    return true;
  });
  if (!ok) out.problems.push_back({db_path, "cannot list its sessions: " + db.error()});
}

OpenCodeStore list_opencode_location(const OpenCodeLocation& where, OpenCodeSchema only) {
  OpenCodeStore out;
  std::vector<StoreProblem> problems;
  const std::vector<std::string> paths = opencode_database_paths(where, problems);
  // Location problems are reported once: by OpenCode 1's listing when each harness lists on its own.
  if (opencode_wants(only, OpenCodeSchema::v1)) out.problems = std::move(problems);
  for (const std::string& path : paths)
    list_opencode_database(path, out, only);
  return out;
}

OpenCodeStore list_opencode_sessions(const Environment& env) {
  return list_opencode_location(locate_opencode_store(env));
}

namespace {

void opencode_list_into(const std::string& root, OpenCodeSchema only, std::vector<Transcript>& transcripts,
                        std::vector<StoreProblem>& problems) {
  OpenCodeStore store = list_opencode_location({root, ""}, only);
  for (DbSession& s : store.sessions)
    transcripts.push_back(std::move(s.transcript));
  for (StoreProblem& p : store.problems)
    problems.push_back(std::move(p));
}

}  // namespace

void list_opencode_v1_store(const std::string& root, std::vector<Transcript>& transcripts,
                            std::vector<StoreProblem>& problems) {
  opencode_list_into(root, OpenCodeSchema::v1, transcripts, problems);
}

void list_opencode_v2_store(const std::string& root, std::vector<Transcript>& transcripts,
                            std::vector<StoreProblem>& problems) {
  opencode_list_into(root, OpenCodeSchema::v2, transcripts, problems);
}

std::string opencode_session_id(const Transcript& t) {
  for (std::string_view prefix : {harness_name(t.harness), kOpenCodeAlias}) {
    if (t.id.size() > prefix.size() && t.id.compare(0, prefix.size(), prefix) == 0 &&
        t.id[prefix.size()] == ':')
      return t.id.substr(prefix.size() + 1);
  }
  return t.id;
}

}  // namespace csift
