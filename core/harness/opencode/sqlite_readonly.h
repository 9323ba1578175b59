// A harness's SQLite database, opened the one way csift-mcp ever opens one: read-only and immutable through
// SQLite's URI interface (`file:<path>?mode=ro&immutable=1`). `mode=ro` alone still opens (and may create)
// the `-shm` file read-write; `immutable=1` takes no lock and opens no `-wal` or `-shm`, so the harness's
// store is never written. The price: rows still only in the write-ahead log are not seen until the harness
// checkpoints them into the database file.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace csift {

// One result column as text (NULL reads as nullopt; numbers as their text form).
struct SqlRow {
  std::vector<std::optional<std::string>> columns;
  const std::optional<std::string>& operator[](size_t i) const { return columns[i]; }
  std::string text(size_t i) const { return columns[i] ? *columns[i] : std::string(); }
  std::optional<int64_t> integer(size_t i) const;
};

class ReadOnlyDb {
 public:
  ReadOnlyDb() = default;
  ~ReadOnlyDb();
  ReadOnlyDb(const ReadOnlyDb&) = delete;
  ReadOnlyDb& operator=(const ReadOnlyDb&) = delete;

  // Opens `path` read-only and immutable; false with error() set when SQLite refuses it or the file is not a
  // database (the first query is what finds that out, so open() runs one).
  bool open(const std::string& path);
  // The names of the database's tables (sqlite_master), empty after a failed read (error() says why).
  std::set<std::string> tables();
  // The column names of one table ("" entries never).
  std::set<std::string> columns(const std::string& table);
  // Runs `sql` with text parameters bound in order, calling fn per row (false stops). False on an SQL error.
  bool query(const std::string& sql, const std::vector<std::string>& params,
             const std::function<bool(const SqlRow&)>& fn);
  const std::string& error() const { return error_; }

 private:
  sqlite3* db_ = nullptr;
  std::string error_;
};

// The URI SQLite is given for `path`: `file:` + the path with `%`, `?` and `#` escaped + the read-only,
// immutable query.
std::string readonly_immutable_uri(std::string_view path);

}  // namespace csift
