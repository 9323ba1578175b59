#include "core/cache/sqlite_wal.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace csift {
namespace {

// The mode the pragma answers: "wal" once switched; the old mode when the switch did not take.
int wal_mode_answer(void* out, int columns, char** values, char**) {
  if (columns > 0 && values[0]) *static_cast<bool*>(out) = std::strcmp(values[0], "wal") == 0;
  return 0;
}

}  // namespace

int sqlite_enter_wal(sqlite3* db, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    bool wal = false;
    const int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", wal_mode_answer, &wal, nullptr);
    const int primary = rc & 0xff;
    if (rc == SQLITE_OK && wal) return SQLITE_OK;
    // Another process held the lock: either the exec said so, or the pragma answered the old mode.
    if (rc != SQLITE_OK && primary != SQLITE_BUSY && primary != SQLITE_LOCKED) return rc;
    if (std::chrono::steady_clock::now() + pause > deadline) return rc == SQLITE_OK ? SQLITE_BUSY : rc;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(25));
  }
}

}  // namespace csift
