#pragma once

#include <sqlite3.h>

namespace csift {

// Puts a database into WAL journaling, waiting out other processes up to timeout_ms. Answers SQLITE_OK once
// the database is in WAL mode, else the last SQLite code (SQLITE_BUSY when the wait ran out).
//
// Why not a plain PRAGMA under the busy handler: the switch needs the file's exclusive lock, and when two
// processes open the same new database at once each holds a shared lock while it asks. SQLite then answers
// SQLITE_BUSY at once, without calling the busy handler, since waiting could deadlock. (Two sessions_digest
// runs on a fresh state database failed so, "database is locked", about once in 200 on a loaded machine.)
int sqlite_enter_wal(sqlite3* db, int timeout_ms);

}  // namespace csift
