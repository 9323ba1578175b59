#include "core/harness/opencode/opencode_schema.h"

#include <initializer_list>

namespace csift {

namespace {

// The names in `wanted` that `have` lacks, as "`a`, `b`".
template <class Set>
std::string opencode_missing_names(const Set& have, std::initializer_list<const char*> wanted) {
  std::string out;
  for (const char* name : wanted) {
    if (have.count(name)) continue;
    out += (out.empty() ? "`" : ", `") + std::string(name) + "`";
  }
  return out;
}

// Every table's needed columns, or the first shortfall as a sentence.
std::string opencode_missing_columns(
    ReadOnlyDb& db,
    std::initializer_list<std::pair<const char*, std::initializer_list<const char*>>> tables) {
  for (const auto& [table, cols] : tables) {
    const std::string missing = opencode_missing_names(db.columns(table), cols);
    if (!missing.empty()) return "table `" + std::string(table) + "` lacks column(s) " + missing;
  }
  return "";
}

}  // namespace

SchemaCheck check_opencode_schema(ReadOnlyDb& db) {
  SchemaCheck out;
  const std::set<std::string> tables = db.tables();
  if (!db.error().empty()) {
    out.problem = "cannot read the table list: " + db.error();
    return out;
  }
  if (tables.count("session_v2")) {
    out.v2_tables = true;
    const std::string missing = opencode_missing_names(tables, {"session_message"});
    if (!missing.empty()) {
      out.problem = "an OpenCode 2 database (`session_v2`) without its " + missing + " table";
      return out;
    }
    out.problem = opencode_missing_columns(
        db, {{"session_v2", {"id", "directory", "parent_id", "time_created", "time_updated"}},
             {"session_message", {"id", "session_id", "type", "seq", "data"}}});
    if (out.problem.empty()) out.schema = OpenCodeSchema::v2;
    return out;
  }
  const std::string missing = opencode_missing_names(tables, {"session", "message", "part"});
  if (!missing.empty()) {
    out.problem = "not an OpenCode database: no " + missing +
                  " table (OpenCode 1 keeps `session`, `message` and `part`; OpenCode 2 adds `session_v2`)";
    return out;
  }
  out.problem = opencode_missing_columns(
      db, {{"session", {"id", "directory", "parent_id", "time_created", "time_updated"}},
           {"message", {"id", "session_id", "time_created", "data"}},
           {"part", {"id", "message_id", "session_id", "data"}}});
  if (out.problem.empty()) out.schema = OpenCodeSchema::v1;
  return out;
}

}  // namespace csift
