#include "core/triage/state_db.h"

#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/cache/sqlite_wal.h"

namespace csift {
namespace {

constexpr int kStateBusyTimeoutMs = 10000;

constexpr const char* kStateSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions(
  ref TEXT PRIMARY KEY,
  harness TEXT NOT NULL,
  path TEXT NOT NULL,
  digest_size INTEGER, digest_sha256 TEXT, digest_mtime_ns INTEGER, digest_at TEXT,
  digest_generation INTEGER NOT NULL DEFAULT 0,
  marked_size INTEGER, marked_sha256 TEXT, marked_mtime_ns INTEGER, marked_at TEXT,
  marked_generation INTEGER NOT NULL DEFAULT 0,
  outcome TEXT, uids TEXT, mark_time TEXT);
CREATE TABLE IF NOT EXISTS selection(
  id INTEGER PRIMARY KEY CHECK (id = 1), harness TEXT NOT NULL, since TEXT NOT NULL, limit_n INTEGER NOT NULL,
  saved_at TEXT NOT NULL);
)sql";

class StateStmt {
 public:
  StateStmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      failure_error(std::string("state database: ") + sqlite3_errmsg(db));
  }
  ~StateStmt() { sqlite3_finalize(stmt_); }
  StateStmt& text(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  StateStmt& integer(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    failure_error(std::string("state database: ") + sqlite3_errmsg(db_));
  }
  std::string col_text(int i) const {
    const auto* p = sqlite3_column_text(stmt_, i);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  int64_t col_int(int i) const { return sqlite3_column_int64(stmt_, i); }
  bool col_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

constexpr const char* kRowColumns =
    "SELECT ref, harness, path, digest_size, digest_sha256, digest_mtime_ns, digest_at, digest_generation, "
    "marked_size, marked_sha256, marked_mtime_ns, marked_at, marked_generation, outcome, uids, mark_time "
    "FROM sessions";

std::optional<Watermark> state_watermark_at(const StateStmt& s, int first) {
  if (s.col_null(first)) return std::nullopt;
  return Watermark{static_cast<uint64_t>(s.col_int(first)), s.col_text(first + 1), s.col_int(first + 2),
                   s.col_text(first + 3)};
}

SessionRow state_row_from(const StateStmt& s) {
  SessionRow r;
  r.ref = s.col_text(0);
  r.harness = s.col_text(1);
  r.path = s.col_text(2);
  r.digested = state_watermark_at(s, 3);
  r.digest_generation = static_cast<uint64_t>(s.col_int(7));
  r.marked = state_watermark_at(s, 8);
  r.marked_generation = static_cast<uint64_t>(s.col_int(12));
  r.outcome = s.col_text(13);
  if (!s.col_null(14)) r.uids = nlohmann::json::parse(s.col_text(14)).get<std::vector<std::string>>();
  r.marked_at = s.col_text(15);
  return r;
}

// BEGIN IMMEDIATE takes the write lock first, so two processes' read-then-write never interleave.
class StateTransaction {
 public:
  explicit StateTransaction(sqlite3* db) : db_(db) { run("BEGIN IMMEDIATE"); }
  ~StateTransaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    run("COMMIT");
    done_ = true;
  }

 private:
  void run(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string m = err ? err : "unknown error";
      sqlite3_free(err);
      failure_error(std::string("state database: ") + sql + ": " + m);
    }
  }
  sqlite3* db_;
  bool done_ = false;
};

}  // namespace

std::string state_db_path(const Environment& env) {
  if (auto v = env.get("CSIFT_STATE_DB")) {
    if ((*v)[0] != '/')
      usage_error("CSIFT_STATE_DB is " + *v + ": it must be an absolute path to the state database file");
    return *v;
  }
  if (auto v = env.get("XDG_DATA_HOME"); v && (*v)[0] == '/') return *v + "/csift-mcp/state.db";
  return home_dir(env) + "/.local/share/csift-mcp/state.db";
}

StateDb::StateDb(const std::string& path) : path_(path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    failure_error("cannot open the state database " + path + ": " + why);
  }
  sqlite3_busy_timeout(db_, kStateBusyTimeoutMs);
  if (const int rc = sqlite_enter_wal(db_, kStateBusyTimeoutMs); rc != SQLITE_OK) {
    const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
    failure_error("state database " + path_ + ": cannot switch it to WAL journaling: " + sqlite3_errstr(rc) +
                  (busy ? "; another process held its lock for " +
                              std::to_string(kStateBusyTimeoutMs / 1000) + " s: retry once it is done"
                        : std::string()));
  }
  StateTransaction tx(db_);
  exec(kStateSchema);
  StateStmt version(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
  if (version.step()) {
    if (version.col_text(0) != std::to_string(kStateSchemaVersion))
      failure_error("the state database " + path + " has schema version " + version.col_text(0) +
                    "; this csift-mcp reads version " + std::to_string(kStateSchemaVersion));
  } else {
    StateStmt(db_, "INSERT INTO meta(key, value) VALUES('schema_version', ?1)")
        .text(1, std::to_string(kStateSchemaVersion))
        .step();
  }
  tx.commit();
}

StateDb::~StateDb() {
  sqlite3_close(db_);
}

void StateDb::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string m = err ? err : "unknown error";
    sqlite3_free(err);
    failure_error("state database " + path_ + ": " + m);
  }
}

std::optional<SessionRow> StateDb::row(const std::string& ref) const {
  StateStmt s(db_, (std::string(kRowColumns) + " WHERE ref = ?1").c_str());
  s.text(1, ref);
  if (!s.step()) return std::nullopt;
  return state_row_from(s);
}

std::vector<SessionRow> StateDb::rows() const {
  StateStmt s(db_, (std::string(kRowColumns) + " ORDER BY ref").c_str());
  std::vector<SessionRow> out;
  while (s.step())
    out.push_back(state_row_from(s));
  return out;
}

std::vector<DigestRecorded> StateDb::record_digests(const std::vector<DigestWrite>& writes,
                                                    const std::string& now) {
  std::vector<DigestRecorded> out;
  StateTransaction tx(db_);
  for (const DigestWrite& w : writes) {
    DigestRecorded rec{w.ref, 1, ""};
    StateStmt prior(db_,
                    "SELECT digest_generation, marked_generation, digest_at FROM sessions WHERE ref = ?1");
    prior.text(1, w.ref);
    if (prior.step()) {
      rec.generation = static_cast<uint64_t>(prior.col_int(0)) + 1;
      if (prior.col_int(0) > prior.col_int(1)) rec.replaced_unmarked_at = prior.col_text(2);
    }
    StateStmt(
        db_,
        "INSERT INTO sessions(ref, harness, path, digest_size, digest_sha256, digest_mtime_ns, digest_at, "
        "digest_generation) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(ref) DO UPDATE SET "
        "harness = ?2, path = ?3, digest_size = ?4, digest_sha256 = ?5, digest_mtime_ns = ?6, "
        "digest_at = ?7, digest_generation = ?8")
        .text(1, w.ref)
        .text(2, w.harness)
        .text(3, w.path)
        .integer(4, static_cast<int64_t>(w.watermark.size))
        .text(5, w.watermark.first_line_sha256)
        .integer(6, w.watermark.mtime_ns)
        .text(7, now)
        .integer(8, static_cast<int64_t>(rec.generation))
        .step();
    out.push_back(rec);
  }
  tx.commit();
  return out;
}

std::vector<MarkRecorded> StateDb::mark(const std::vector<std::string>& refs, const std::string& outcome,
                                        const std::vector<std::string>& uids, const std::string& now) {
  std::vector<MarkRecorded> out;
  std::string refused;
  StateTransaction tx(db_);
  for (const std::string& ref : refs) {
    const std::optional<SessionRow> r = row(ref);
    if (!r || !r->digested) {
      refused += (refused.empty() ? "" : ", ") + ref;
      continue;
    }
    out.push_back(MarkRecorded{ref, r->digest_generation - r->marked_generation, *r->digested});
    StateStmt(
        db_,
        "UPDATE sessions SET marked_size = digest_size, marked_sha256 = digest_sha256, "
        "marked_mtime_ns = digest_mtime_ns, marked_at = digest_at, marked_generation = digest_generation, "
        "outcome = ?2, uids = ?3, mark_time = ?4 WHERE ref = ?1")
        .text(1, ref)
        .text(2, outcome)
        .text(3, nlohmann::json(uids).dump())
        .text(4, now)
        .step();
  }
  if (!refused.empty()) {
    usage_error("not digested yet, so there is no watermark to mark: " + refused +
                "; digest them first (sessions_digest), then mark; nothing was marked");
  }
  tx.commit();
  return out;
}

std::optional<SavedSelection> StateDb::selection() const {
  StateStmt s(db_, "SELECT harness, since, limit_n, saved_at FROM selection WHERE id = 1");
  if (!s.step()) return std::nullopt;
  SavedSelection out;
  out.harness = nlohmann::json::parse(s.col_text(0)).get<std::vector<std::string>>();
  out.since = s.col_text(1);
  out.limit = static_cast<uint64_t>(s.col_int(2));
  out.saved_at = s.col_text(3);
  return out;
}

void StateDb::save_selection(const SavedSelection& sel) {
  StateTransaction tx(db_);
  StateStmt(db_,
            "INSERT INTO selection(id, harness, since, limit_n, saved_at) VALUES(1, ?1, ?2, ?3, ?4) "
            "ON CONFLICT(id) DO UPDATE SET harness = ?1, since = ?2, limit_n = ?3, saved_at = ?4")
      .text(1, nlohmann::json(sel.harness).dump())
      .text(2, sel.since)
      .integer(3, static_cast<int64_t>(sel.limit))
      .text(4, sel.saved_at)
      .step();
  tx.commit();
}

}  // namespace csift
