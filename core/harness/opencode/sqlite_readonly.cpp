#include "core/harness/opencode/sqlite_readonly.h"

#include <sqlite3.h>

#include <charconv>

namespace csift {

std::optional<int64_t> SqlRow::integer(size_t i) const {
  if (!columns[i]) return std::nullopt;
  const std::string& s = *columns[i];
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string readonly_immutable_uri(std::string_view path) {
  std::string uri = "file:";
  static const char* hex = "0123456789ABCDEF";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      uri += '%';
      uri += hex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      uri += hex[static_cast<unsigned char>(c) & 0xF];
    } else {
      uri += c;
    }
  }
  return uri + "?mode=ro&immutable=1";
}

ReadOnlyDb::~ReadOnlyDb() {
  if (db_) sqlite3_close(db_);
}

bool ReadOnlyDb::open(const std::string& path) {
  const std::string uri = readonly_immutable_uri(path);
  const int rc = sqlite3_open_v2(uri.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  if (rc != SQLITE_OK) {
    error_ = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (db_) sqlite3_close(db_);
    db_ = nullptr;
    return false;
  }
  // SQLite reads the header lazily: a file that is not a database fails here, not at open.
  return query("SELECT count(*) FROM sqlite_master", {}, [](const SqlRow&) { return true; });
}

bool ReadOnlyDb::query(const std::string& sql, const std::vector<std::string>& params,
                       const std::function<bool(const SqlRow&)>& fn) {
  if (!db_) {
    if (error_.empty()) error_ = "the database is not open";
    return false;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    error_ = sqlite3_errmsg(db_);
    return false;
  }
  for (size_t i = 0; i < params.size(); ++i)
    sqlite3_bind_text(stmt, static_cast<int>(i + 1), params[i].data(), static_cast<int>(params[i].size()),
                      SQLITE_TRANSIENT);
  bool ok = true;
  SqlRow row;
  for (;;) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      error_ = sqlite3_errmsg(db_);
      ok = false;
      break;
    }
    const int n = sqlite3_column_count(stmt);
    row.columns.assign(static_cast<size_t>(n), std::nullopt);
    for (int c = 0; c < n; ++c) {
      if (sqlite3_column_type(stmt, c) == SQLITE_NULL) continue;
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
      row.columns[static_cast<size_t>(c)] =
          std::string(text ? text : "", static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
    }
    if (!fn(row)) break;
  }
  sqlite3_finalize(stmt);
  return ok;
}

std::set<std::string> ReadOnlyDb::tables() {
  std::set<std::string> out;
  query("SELECT name FROM sqlite_master WHERE type = 'table'", {}, [&](const SqlRow& r) {
    out.insert(r.text(0));
    return true;
  });
  return out;
}

std::set<std::string> ReadOnlyDb::columns(const std::string& table) {
  std::set<std::string> out;
  query("SELECT name FROM pragma_table_info(?)", {table}, [&](const SqlRow& r) {
    out.insert(r.text(0));
    return true;
  });
  return out;
}

}  // namespace csift
