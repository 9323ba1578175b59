#include "core/cache/disk_cache.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <vector>

#include "core/cache/sqlite_wal.h"
#include "core/cache/zstd_frame.h"

namespace csift {
namespace {

// The layout of the tables and of a blob's framing. Bump on any change: a database of another format is
// dropped whole.
// 2: a blob's first byte says how it is stored ('r' as is, 'z' zstd-compressed).
// 3: an entry's key holds a hash of the caller's key, not the key itself (disk_key).
constexpr const char* kDiskFormat = "4";
// Every kind this build reads and writes, with its version.
constexpr DiskCacheKind kDiskKinds[] = {kDiskProbeKind,      kDiskTallyKind,      kDiskCensusKind,
                                        kDiskScreenKind,     kDiskStatsScopeKind, kDiskLegacySessionKind,
                                        kDiskDirEntriesKind, kDiskAgentMetaKind,  kDiskLogFactsKind};
// Blobs at least this long are stored compressed when that is smaller (a tally's strings and counts, a
// sketch's mostly empty wide-character tables shrink severalfold; a short probe is not worth a frame).
constexpr size_t kDiskCompressFrom = 256;
// A compressed blob claiming more than this is refused undecoded: no entry is this large, and a corrupt
// frame header must not make a process allocate gigabytes.
constexpr uint64_t kDiskMaxBlobBytes = uint64_t{256} << 20;

// The stored form of a blob: tagged, compressed when that pays.
std::string disk_pack(std::string blob) {
  if (blob.size() >= kDiskCompressFrom) {
    std::string z(1, 'z');
    if (append_zstd_frame(z, blob, /*checksum=*/false) && z.size() < blob.size()) return z;
  }
  blob.insert(blob.begin(), 'r');
  return blob;
}

// The blob a stored form holds, or nullopt when it is not one (an unknown tag, a frame that does not
// decompress to exactly the size it declares, or declares too much).
std::optional<std::string> disk_unpack(std::string held) {
  if (held.empty()) return std::nullopt;
  const char tag = held.front();
  if (tag == 'r') {
    held.erase(0, 1);  // in place: no second copy of the blob
    return held;
  }
  if (tag != 'z') return std::nullopt;
  std::string out;
  if (!unpack_zstd_frame(std::string_view(held).substr(1), kDiskMaxBlobBytes, out)) return std::nullopt;
  return out;
}

// A write waits this long for another process's write transaction, then is skipped: an answer never waits
// on the cache.
constexpr int kDiskBusyMs = 50;
// A use time older than this is written back (lazily, at a flush); recency finer than an hour buys nothing
// for a cache a session at a time fills.
constexpr int64_t kDiskTouchMinutes = 60;
// Eviction brings the file to this share of the budget, so it does not run at every flush.
constexpr uint64_t kDiskEvictToPercent = 90;

int64_t disk_now_minutes() {
  return std::chrono::duration_cast<std::chrono::minutes>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// An entry's key: the kind's name, a NUL, then 16 bytes hashing the caller's key (a path, or a path and a
// variant). The paths were most of the keys' bytes, and a key is stored twice (in the table and in its
// primary-key index): on the generated store, 7.6 MiB of keys took ~15 MiB of a 59 MiB database. A collision
// cannot hand a file another file's result: an entry answers only for its stamp, whose device and inode name
// one file.
Hash128 stable_hash128(std::string_view bytes) {
  return Hash128{stable_hash64(bytes, 0x6373696674206b31ull), stable_hash64(bytes, 0x6373696674206b32ull)};
}

std::string disk_key(const DiskCacheKind& kind, std::string_view key) {
  const Hash128 h = stable_hash128(key);
  const uint64_t halves[2] = {h.a, h.b};
  std::string k;
  k.reserve(kind.name.size() + 1 + sizeof halves);
  k.append(kind.name).push_back('\0');
  k.append(reinterpret_cast<const char*>(halves), sizeof halves);
  return k;
}

// The checksum of one entry: its key, stamp and blob, so an entry whose bytes or stamp columns were
// overwritten fails it.
uint64_t disk_entry_sum(std::string_view key, const FileStamp& s, std::string_view blob) {
  char head[32];
  std::memcpy(head, &s.device, 8);
  std::memcpy(head + 8, &s.inode, 8);
  std::memcpy(head + 16, &s.size, 8);
  std::memcpy(head + 24, &s.mtime_ns, 8);
  uint64_t h = stable_hash64(key, 0x63736966);
  h = stable_hash64(std::string_view(head, sizeof head), h);
  return stable_hash64(blob, h);
}

namespace {

bool disk_corrupt(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
}

// The directory made (0700) when missing and checked: a real directory (not a symlink), ours, writable by
// no one else, and not inside a transcript store. Permissions broader than 0700 on our own directory are
// narrowed. Returns "" when usable, else why not.
std::string disk_prepare_dir(const std::string& dir, const std::vector<std::string>& store_roots) {
  if (dir.empty()) return "no cache directory (neither XDG_CACHE_HOME nor HOME is set)";
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  // Checked before anything is made: nothing of the cache is ever created under a store.
  const std::filesystem::path canon = std::filesystem::weakly_canonical(p, ec);
  for (const std::string& root : store_roots) {
    if (root.empty()) continue;
    const std::filesystem::path r = std::filesystem::weakly_canonical(root, ec);
    if (ec) continue;
    const auto rel = canon.lexically_relative(r);
    if (!rel.empty() && *rel.begin() != "..") return dir + " lies inside the transcript store " + r.native();
  }
  std::filesystem::path prefix;
  for (const auto& part : p) {
    prefix /= part;
    if (prefix.native() == "/") continue;
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
      return "cannot create " + prefix.native() + ": " + std::strerror(errno);
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return "cannot stat " + dir + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return dir + " is not a directory (a symlink is not followed)";
  if (st.st_uid != ::geteuid()) return dir + " is owned by another user";
  if ((st.st_mode & 022) != 0) return dir + " is writable by its group or by others";
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0)
    return "cannot make " + dir + " private: " + std::strerror(errno);
  return "";
}

// The database file made (0600) when missing, and checked to be a regular file of ours; SQLite creates the
// -wal and -shm files with the database's mode.
std::string disk_prepare_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    why = path + " is not a regular file";
  else if (st.st_uid != ::geteuid())
    why = path + " is owned by another user";
  else if ((st.st_mode & 077) != 0 && ::fchmod(fd, 0600) != 0)
    why = "cannot make " + path + " private";
  ::close(fd);
  for (const char* side : {"-wal", "-shm"}) {  // left by a writer before: narrowed too
    const std::string f = path + side;
    struct stat s2 {};
    if (::lstat(f.c_str(), &s2) == 0 && S_ISREG(s2.st_mode) && (s2.st_mode & 077) != 0)
      ::chmod(f.c_str(), 0600);
  }
  return why;
}

std::unique_ptr<DiskCache>& disk_slot() {
  static std::unique_ptr<DiskCache> cache;
  return cache;
}
bool& disk_reported_flag() {
  static bool reported = false;
  return reported;
}

}  // namespace

// One queued write.
struct DiskPending {
  std::string key;
  FileStamp stamp;
  std::string blob;
};

struct DiskCache::State {
  std::string dir, path;
  uint64_t budget;
  std::string build;
  std::vector<std::string> store_roots;

  enum class Mode { closed, open, down, refused };
  std::mutex mu;
  Mode mode = Mode::closed;
  sqlite3* db = nullptr;
  sqlite3_stmt* ins = nullptr;
  sqlite3_stmt* touch = nullptr;
  sqlite3_stmt* del = nullptr;
  std::vector<DiskPending> pending;
  uint64_t pending_bytes = 0;
  std::vector<std::string> touches, deletes;
  // Lookups run on reader connections of their own, one per thread looking up at once, not on `db` under
  // `mu`: one connection serialized a fresh call's lookups (a first `list` of the generated 10,000-transcript
  // store makes ~23,000, and its two workers waited on the lock longer than they looked up). A reader's
  // lookups share one read transaction, begun by its first and ended by flush(): a transaction per lookup
  // took two fcntl locks each, 4,066 of them in one `list` over 1,520 transcripts.
  struct Reader {
    sqlite3* db = nullptr;
    sqlite3_stmt* sel = nullptr;
    bool reading = false;
    uint64_t epoch = 0;  // the main connection's opening it was made under
    ~Reader() {
      sqlite3_finalize(sel);
      if (db) sqlite3_close_v2(db);
    }
  };
  std::mutex readers_mu;  // taken inside `mu`, never the other way round
  std::vector<std::unique_ptr<Reader>> idle_readers;
  std::atomic<bool> ready{false};  // `db` is open and set up: a lookup need not take `mu`
  std::atomic<uint64_t> epoch{0};  // bumped when `db` closes: an older reader is closed, not reused

  std::atomic<uint64_t> hits{0}, misses{0}, writes{0}, skipped{0}, evictions{0}, errors{0}, bytes{0};

  void close_db() {
    ready = false;
    ++epoch;
    {
      std::lock_guard<std::mutex> lock(readers_mu);
      idle_readers.clear();
    }
    for (sqlite3_stmt** st : {&ins, &touch, &del}) {
      sqlite3_finalize(*st);
      *st = nullptr;
    }
    if (db) sqlite3_close_v2(db);
    db = nullptr;
  }

  // A corrupt database: deleted (it is a cache), and this call goes on uncached; the next call starts a
  // fresh one.
  void quarantine() {
    close_db();
    ++errors;
    for (const char* side : {"", "-wal", "-shm"})
      ::unlink((path + side).c_str());
    pending.clear();
    pending_bytes = 0;
    touches.clear();
    deletes.clear();
    mode = Mode::down;
  }

  // A failed statement: corruption quarantines, anything else is counted. Returns false either way.
  bool failed(int rc) {
    if (disk_corrupt(rc)) {
      quarantine();
    } else {
      ++errors;
    }
    return false;
  }

  bool exec(const char* sql) {
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    return rc == SQLITE_OK || failed(rc);
  }

  bool enter_wal() {
    const int rc = sqlite_enter_wal(db, kDiskBusyMs);
    return rc == SQLITE_OK || failed(rc);
  }

  bool prepare(const char* sql, sqlite3_stmt** st) {
    const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, nullptr);
    return rc == SQLITE_OK || failed(rc);
  }

  // The meta rows, or nullopt on failure (a missing table reads as none).
  std::optional<std::map<std::string, std::string>> read_meta() {
    std::map<std::string, std::string> meta;
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT name, value FROM meta", -1, &st, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(st);
      if (disk_corrupt(rc)) {
        failed(rc);
        return std::nullopt;
      }
      return meta;  // no table yet
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      const auto* n = sqlite3_column_text(st, 0);
      const auto* v = sqlite3_column_text(st, 1);
      if (n && v) meta[reinterpret_cast<const char*>(n)] = reinterpret_cast<const char*>(v);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
      failed(rc);
      return std::nullopt;
    }
    return meta;
  }

  bool meta_current(const std::map<std::string, std::string>& meta) const {
    auto is = [&](const std::string& k, const std::string& v) {
      auto it = meta.find(k);
      return it != meta.end() && it->second == v;
    };
    if (!is("format", kDiskFormat) || !is("build", build)) return false;
    for (const DiskCacheKind& k : kDiskKinds)
      if (!is("kind." + std::string(k.name), std::to_string(k.version))) return false;
    return true;
  }

  // Makes the tables current: a database of another format or build is emptied, a kind of another version
  // loses its entries. In a write transaction, re-checked inside it (another process may have just done it).
  bool set_up() {
    auto meta = read_meta();
    if (!meta) return false;
    if (meta_current(*meta)) return true;
    const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return failed(rc);
    meta = read_meta();
    if (!meta) return false;
    bool ok = true;
    if (!meta_current(*meta)) {
      const bool same_format = meta->count("format") && meta->at("format") == kDiskFormat &&
                               meta->count("build") && meta->at("build") == build;
      if (!same_format) {
        ok =
            exec("DROP TABLE IF EXISTS entries") && exec("DROP TABLE IF EXISTS meta") &&
            exec("CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL)") &&
            exec(
                "CREATE TABLE entries(key BLOB PRIMARY KEY, dev INTEGER NOT NULL, ino INTEGER NOT NULL, "
                "size INTEGER NOT NULL, mtime INTEGER NOT NULL, used INTEGER NOT NULL, sum INTEGER NOT NULL, "
                "blob BLOB NOT NULL)") &&
            exec("CREATE INDEX entries_used ON entries(used)");
        meta->clear();
      }
      std::vector<std::pair<std::string, std::string>> rows = {{"format", kDiskFormat}, {"build", build}};
      for (const DiskCacheKind& k : kDiskKinds) {
        const std::string name = "kind." + std::string(k.name), version = std::to_string(k.version);
        if (ok && meta->count(name) && meta->at(name) != version) {
          // This kind's entries are [kind "\0", kind "\1").
          sqlite3_stmt* st = nullptr;
          const std::string lo = std::string(k.name) + '\0', hi = std::string(k.name) + '\1';
          ok = sqlite3_prepare_v2(db, "DELETE FROM entries WHERE key >= ?1 AND key < ?2", -1, &st, nullptr) ==
               SQLITE_OK;
          if (ok) {
            sqlite3_bind_blob(st, 1, lo.data(), static_cast<int>(lo.size()), SQLITE_TRANSIENT);
            sqlite3_bind_blob(st, 2, hi.data(), static_cast<int>(hi.size()), SQLITE_TRANSIENT);
            const int drc = sqlite3_step(st);
            ok = drc == SQLITE_DONE || failed(drc);
          }
          sqlite3_finalize(st);
        }
        rows.emplace_back(name, version);
      }
      for (const auto& [n, v] : rows) {
        if (!ok) break;
        sqlite3_stmt* st = nullptr;
        ok = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta(name, value) VALUES(?1, ?2)", -1, &st,
                                nullptr) == SQLITE_OK;
        if (ok) {
          sqlite3_bind_text(st, 1, n.data(), static_cast<int>(n.size()), SQLITE_TRANSIENT);
          sqlite3_bind_text(st, 2, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
          const int mrc = sqlite3_step(st);
          ok = mrc == SQLITE_DONE || failed(mrc);
        }
        sqlite3_finalize(st);
      }
    }
    if (mode == Mode::down) return false;  // quarantined inside
    if (!ok) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return false;
    }
    const int crc = sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    if (crc != SQLITE_OK) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return failed(crc);
    }
    return true;
  }

  // Opens the database on first use. False: refused (said once), or failing (retried at the next call).
  bool ensure_open() {
    if (mode == Mode::open) return true;
    if (mode != Mode::closed) return false;
    std::string why = disk_prepare_dir(dir, store_roots);
    if (why.empty()) why = disk_prepare_file(path);
    if (!why.empty()) {
      std::fprintf(stderr, "csift-mcp: not using the disk cache: %s\n", why.c_str());
      mode = Mode::refused;
      return false;
    }
    int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      close_db();
      ++errors;
      mode = Mode::down;
      return false;
    }
    mode = Mode::open;
    sqlite3_busy_timeout(db, kDiskBusyMs);
    // Set before the first table exists (else no effect): lets an eviction give pages back to the system.
    // 16 KiB pages, also set before the first table: a screen's blob is a few KiB, and 4 KiB pages held one
    // each with the rest mostly empty (the generated store's cache: 62.7 MB in 4 KiB pages, 52.0 MB in 16
    // KiB). Only on a database not set up so: setting auto_vacuum writes the header page even when it is
    // already INCREMENTAL, and that one write cost every process three fdatasyncs (~40 ms on the bench
    // machine) at its first lookup and a checkpoint at its exit.
    const bool fresh_db = pragma("PRAGMA auto_vacuum") != 2;  // 2: INCREMENTAL
    if ((fresh_db && (!exec("PRAGMA page_size=16384") || !exec("PRAGMA auto_vacuum=INCREMENTAL"))) ||
        !enter_wal() || !exec("PRAGMA synchronous=NORMAL") || !exec("PRAGMA journal_size_limit=8388608") ||
        // Reads of the database file are copies from a mapping instead of a pread per page (a fresh search
        // reads a sketch of every transcript).
        !exec("PRAGMA mmap_size=268435456") || !set_up() ||
        !prepare("INSERT OR REPLACE INTO entries(key, dev, ino, size, mtime, used, sum, blob) "
                 "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                 &ins) ||
        !prepare("UPDATE entries SET used = ?2 WHERE key = ?1", &touch) ||
        !prepare("DELETE FROM entries WHERE key = ?1", &del)) {
      if (mode == Mode::open) {
        close_db();
        mode = Mode::down;
      }
      return false;
    }
    return true;
  }

  // An idle reader of the current epoch, else a new connection (nullptr when it cannot be opened).
  std::unique_ptr<Reader> take_reader() {
    const uint64_t now = epoch;
    {
      std::lock_guard<std::mutex> lock(readers_mu);
      while (!idle_readers.empty()) {
        std::unique_ptr<Reader> r = std::move(idle_readers.back());
        idle_readers.pop_back();
        if (r->epoch == now) return r;
      }
    }
    auto r = std::make_unique<Reader>();
    r->epoch = now;
    if (sqlite3_open_v2(path.c_str(), &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK)
      return nullptr;
    sqlite3_busy_timeout(r->db, kDiskBusyMs);
    sqlite3_exec(r->db, "PRAGMA mmap_size=268435456", nullptr, nullptr, nullptr);
    if (sqlite3_prepare_v3(r->db, "SELECT dev, ino, size, mtime, used, sum, blob FROM entries WHERE key = ?1",
                           -1, SQLITE_PREPARE_PERSISTENT, &r->sel, nullptr) != SQLITE_OK)
      return nullptr;
    return r;
  }

  void give_back(std::unique_ptr<Reader> r) {
    if (r->epoch != epoch) return;  // the database was closed meanwhile (quarantined, failed): not reused
    std::lock_guard<std::mutex> lock(readers_mu);
    idle_readers.push_back(std::move(r));
  }

  // Ends the idle readers' read transactions, so the next call reads what this one wrote.
  void end_reads() {
    std::lock_guard<std::mutex> lock(readers_mu);
    for (const std::unique_ptr<Reader>& r : idle_readers) {
      if (r->reading) sqlite3_exec(r->db, "COMMIT", nullptr, nullptr, nullptr);
      r->reading = false;
    }
  }

  // One entry as a reader found it: the stored bytes when its stamp is the one asked for.
  struct Found {
    std::optional<std::string> blob;
    FileStamp was;
    uint64_t sum = 0;
    bool touch = false;  // its use time is old enough to be written back
  };

  // Looks `k` up on a reader connection (opening the database first when needed). A failing statement is
  // counted, and corruption quarantines the database (retiring every reader).
  Found look_up(const std::string& k, const FileStamp& stamp) {
    Found out;
    bool open = ready;
    if (!open) {
      std::lock_guard<std::mutex> lock(mu);
      open = ensure_open();
      if (open) ready = true;
    }
    if (!open) return out;
    std::unique_ptr<Reader> r = take_reader();
    if (!r) {
      ++errors;  // no reader connection could be opened: this lookup misses
      return out;
    }
    if (!r->reading) r->reading = sqlite3_exec(r->db, "BEGIN", nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_stmt* sel = r->sel;
    sqlite3_bind_blob(sel, 1, k.data(), static_cast<int>(k.size()), SQLITE_STATIC);
    const int rc = sqlite3_step(sel);
    if (rc == SQLITE_ROW) {
      out.was.device = static_cast<uint64_t>(sqlite3_column_int64(sel, 0));
      out.was.inode = static_cast<uint64_t>(sqlite3_column_int64(sel, 1));
      out.was.size = static_cast<uint64_t>(sqlite3_column_int64(sel, 2));
      out.was.mtime_ns = sqlite3_column_int64(sel, 3);
      const int64_t used = sqlite3_column_int64(sel, 4);
      out.sum = static_cast<uint64_t>(sqlite3_column_int64(sel, 5));
      const auto* b = static_cast<const char*>(sqlite3_column_blob(sel, 6));
      const std::string_view blob(b ? b : "", static_cast<size_t>(sqlite3_column_bytes(sel, 6)));
      if (out.was == stamp) {
        out.blob.emplace(blob);
        out.touch = disk_now_minutes() - used >= kDiskTouchMinutes;
      }
    }
    sqlite3_reset(sel);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
      give_back(std::move(r));
      return out;
    }
    r.reset();  // a failing connection is not reused
    std::lock_guard<std::mutex> lock(mu);
    failed(rc);
    return out;
  }

  // The integer a pragma query answers (0 when it fails).
  int64_t pragma(const char* sql) {
    sqlite3_stmt* st = nullptr;
    int64_t v = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
  }

  uint64_t db_bytes() {
    const int64_t pages = pragma("PRAGMA page_count") - pragma("PRAGMA freelist_count");
    return static_cast<uint64_t>(std::max<int64_t>(pages, 0) * pragma("PRAGMA page_size"));
  }

  // Deletes least recently used entries until the file is under kDiskEvictToPercent of the budget.
  void evict(uint64_t now_bytes) {
    const uint64_t target = budget / 100 * kDiskEvictToPercent;
    std::vector<std::string> victims;
    uint64_t freed = 0;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT key, length(key) + length(blob) + 64 FROM entries ORDER BY used", -1,
                           &st, nullptr) != SQLITE_OK) {
      sqlite3_finalize(st);
      ++errors;
      return;
    }
    int rc;
    while (now_bytes > target + freed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      const auto* k = static_cast<const char*>(sqlite3_column_blob(st, 0));
      victims.emplace_back(k ? k : "", static_cast<size_t>(sqlite3_column_bytes(st, 0)));
      freed += static_cast<uint64_t>(sqlite3_column_int64(st, 1));
    }
    sqlite3_finalize(st);
    if (victims.empty() || sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
      return;
    for (const std::string& k : victims) {
      sqlite3_bind_blob(del, 1, k.data(), static_cast<int>(k.size()), SQLITE_STATIC);
      const int drc = sqlite3_step(del);
      sqlite3_reset(del);
      if (drc != SQLITE_DONE) {
        failed(drc);
        if (mode != Mode::open) return;
      }
    }
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return;
    }
    evictions += victims.size();
    sqlite3_exec(db, "PRAGMA incremental_vacuum", nullptr, nullptr, nullptr);
  }
};

DiskCache::DiskCache(std::string dir, uint64_t budget_bytes, std::string build,
                     std::vector<std::string> store_roots)
    : s_(std::make_unique<State>()) {
  s_->store_roots = std::move(store_roots);
  s_->dir = std::move(dir);
  s_->path = s_->dir + "/cache.sqlite3";
  s_->budget = budget_bytes;
  s_->build = std::move(build);
}

DiskCache::~DiskCache() {
  flush();
  std::lock_guard<std::mutex> lock(s_->mu);
  s_->close_db();
}

const std::string& DiskCache::path() const {
  return s_->path;
}

std::optional<std::string> DiskCache::get(const DiskCacheKind& kind, std::string_view key,
                                          const FileStamp& stamp, DiskCacheUse* use) {
  const std::string k = disk_key(kind, key);
  State& s = *s_;
  State::Found row = s.look_up(k, stamp);
  std::optional<std::string>& stored = row.blob;
  // The checksum is verified after the reader is given back, on the copy: the workers of one call look up in
  // parallel, and hashing every blob while holding a connection kept it from the others.
  if (stored) {
    const bool sound = disk_entry_sum(k, row.was, *stored) == row.sum;
    if (!sound || row.touch) {
      std::lock_guard<std::mutex> lock(s.mu);
      if (!sound) {
        ++s.errors;
        s.deletes.push_back(k);
      } else {
        s.touches.push_back(k);
      }
    }
    if (!sound) stored.reset();
  }
  // Unpacked outside the lock: the workers of one call look up in parallel.
  const bool had = stored.has_value();
  std::optional<std::string> found = had ? disk_unpack(std::move(*stored)) : std::nullopt;
  if (had && !found) discard(kind, key);
  if (!found) {
    ++s.misses;
    if (use) ++use->misses;
    return std::nullopt;
  }
  ++s.hits;
  if (use) ++use->hits;
  return found;
}

void DiskCache::put(const DiskCacheKind& kind, std::string_view key, const FileStamp& stamp, std::string blob,
                    DiskCacheUse* use) {
  State& s = *s_;
  blob = disk_pack(std::move(blob));  // outside the lock
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode != State::Mode::open && s.mode != State::Mode::closed) return;
  // A call's queue is held in memory until its end: never more than a quarter of the budget.
  if (s.pending_bytes + blob.size() > s.budget / 4) {
    ++s.skipped;
    return;
  }
  s.pending_bytes += blob.size() + key.size();
  s.pending.push_back(DiskPending{disk_key(kind, key), stamp, std::move(blob)});
  ++s.writes;
  if (use) ++use->writes;
}

void DiskCache::discard(const DiskCacheKind& kind, std::string_view key) {
  std::lock_guard<std::mutex> lock(s_->mu);
  ++s_->errors;
  s_->deletes.push_back(disk_key(kind, key));
}

void DiskCache::flush() {
  State& s = *s_;
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.mode == State::Mode::down) {  // failed during this call: the next one starts afresh
    s.mode = State::Mode::closed;
    return;
  }
  s.end_reads();
  if (s.pending.empty() && s.touches.empty() && s.deletes.empty()) return;
  std::vector<DiskPending> pending = std::move(s.pending);
  std::vector<std::string> touches = std::move(s.touches), deletes = std::move(s.deletes);
  s.pending.clear();
  s.touches.clear();
  s.deletes.clear();
  s.pending_bytes = 0;
  if (!s.ensure_open()) return;
  const int brc = sqlite3_exec(s.db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  if (brc != SQLITE_OK) {
    if ((brc & 0xff) == SQLITE_BUSY || (brc & 0xff) == SQLITE_LOCKED)
      s.skipped += pending.size();
    else
      s.failed(brc);
    return;
  }
  const int64_t now = disk_now_minutes();
  bool ok = true;
  auto step = [&](sqlite3_stmt* st) {
    const int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) ok = s.failed(rc);
    return ok;
  };
  // Deletions first: an entry found corrupt and recomputed in the same call is deleted, then written anew.
  for (const std::string& k : deletes) {
    if (!ok) break;
    sqlite3_bind_blob(s.del, 1, k.data(), static_cast<int>(k.size()), SQLITE_STATIC);
    step(s.del);
  }
  for (const DiskPending& p : pending) {
    if (!ok) break;
    sqlite3_bind_blob(s.ins, 1, p.key.data(), static_cast<int>(p.key.size()), SQLITE_STATIC);
    sqlite3_bind_int64(s.ins, 2, static_cast<int64_t>(p.stamp.device));
    sqlite3_bind_int64(s.ins, 3, static_cast<int64_t>(p.stamp.inode));
    sqlite3_bind_int64(s.ins, 4, static_cast<int64_t>(p.stamp.size));
    sqlite3_bind_int64(s.ins, 5, p.stamp.mtime_ns);
    sqlite3_bind_int64(s.ins, 6, now);
    sqlite3_bind_int64(s.ins, 7, static_cast<int64_t>(disk_entry_sum(p.key, p.stamp, p.blob)));
    sqlite3_bind_blob(s.ins, 8, p.blob.data(), static_cast<int>(p.blob.size()), SQLITE_STATIC);
    step(s.ins);
  }
  for (const std::string& k : touches) {
    if (!ok) break;
    sqlite3_bind_blob(s.touch, 1, k.data(), static_cast<int>(k.size()), SQLITE_STATIC);
    sqlite3_bind_int64(s.touch, 2, now);
    step(s.touch);
  }
  if (s.mode != State::Mode::open) return;  // quarantined: the transaction went with the file
  const int crc = ok ? sqlite3_exec(s.db, "COMMIT", nullptr, nullptr, nullptr) : SQLITE_ERROR;
  if (crc != SQLITE_OK) {
    sqlite3_exec(s.db, "ROLLBACK", nullptr, nullptr, nullptr);
    if ((crc & 0xff) == SQLITE_BUSY) s.skipped += pending.size();
    return;
  }
  const uint64_t bytes = s.db_bytes();
  s.bytes = bytes;
  if (bytes > s.budget) {
    s.evict(bytes);
    if (s.mode == State::Mode::open) s.bytes = s.db_bytes();
  }
}

DiskCacheTotals DiskCache::totals() const {
  State& s = *s_;
  DiskCacheTotals t;
  t.hits = s.hits;
  t.misses = s.misses;
  t.writes = s.writes;
  t.skipped = s.skipped;
  t.evictions = s.evictions;
  t.errors = s.errors;
  t.bytes = s.bytes;
  t.budget = s.budget;
  std::lock_guard<std::mutex> lock(s.mu);
  t.usable = s.mode == State::Mode::open || s.mode == State::Mode::closed;
  return t;
}

DiskCache* process_disk_cache() {
  return disk_slot().get();
}

bool disk_cache_reported() {
  return disk_reported_flag() && disk_slot() != nullptr;
}

std::string default_disk_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return std::string(x) + "/csift-mcp";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/csift-mcp";
  return "";
}

namespace {
// The identity of this binary (its file's device, inode, size and mtime): entries written by another build
// are dropped, since the code that computed them may differ.
std::string disk_build_identity() {
  struct stat st {};
  if (::stat("/proc/self/exe", &st) != 0) return "unknown";
  const FileStamp s = stamp_of_stat(st);
  return std::to_string(s.device) + ":" + std::to_string(s.inode) + ":" + std::to_string(s.size) + ":" +
         std::to_string(s.mtime_ns);
}
}  // namespace

void install_disk_cache(const std::string& dir, uint64_t budget_bytes, bool reported,
                        const std::vector<std::string>& store_roots) {
  if (budget_bytes == 0) {
    disk_slot() = nullptr;
    return;
  }
  disk_slot() = std::make_unique<DiskCache>(dir.empty() ? default_disk_cache_dir() : dir, budget_bytes,
                                            disk_build_identity(), store_roots);
  disk_reported_flag() = reported;
}

namespace {

// The finalizer of splitmix64: every input bit reaches every output bit.
inline uint64_t splitmix_mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t stable_hash64(std::string_view bytes, uint64_t seed) {
  // Each 8-byte word mixed by a multiply-xorshift, stable across builds and machines of one byte order. Four
  // independent lanes take 32 bytes a step: one lane's chain of two multiplies per word ran at ~0.7 bytes a
  // cycle, and verifying a fresh server's recalled sketches (35 MiB on the 3 GiB replica) was 7 % of its
  // first search; four lanes keep the multipliers busy instead.
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;
  uint64_t lane[4] = {seed ^ (bytes.size() * kMul), seed + kMul, seed - kMul, ~seed};
  const char* p = bytes.data();
  size_t left = bytes.size();
  for (; left >= 32; p += 32, left -= 32) {
    for (int j = 0; j < 4; ++j) {
      uint64_t w;
      std::memcpy(&w, p + 8 * j, 8);
      lane[j] = splitmix_mix(lane[j] ^ w) + kMul;
    }
  }
  uint64_t h = lane[0];
  for (int j = 1; j < 4; ++j)
    h = splitmix_mix(h ^ lane[j]) + kMul;
  for (; left >= 8; p += 8, left -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = splitmix_mix(h ^ w) + kMul;
  }
  uint64_t last = 0;
  if (left > 0) std::memcpy(&last, p, left);  // never memcpy from null
  return splitmix_mix(h ^ last ^ 0xff);
}

void BlobWriter::u64(uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void BlobWriter::str(std::string_view s) {
  u64(s.size());
  out_.append(s);
}

uint64_t BlobReader::u64() {
  uint64_t v = 0;
  for (int shift = 0; ok_; shift += 7) {
    if (in_.empty() || shift > 63) {
      ok_ = false;
      break;
    }
    const auto b = static_cast<unsigned char>(in_.front());
    in_.remove_prefix(1);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return v;
  }
  return 0;
}

std::string BlobReader::str() {
  const uint64_t n = u64();
  if (!ok_ || n > in_.size()) {
    ok_ = false;
    return {};
  }
  std::string s(in_.substr(0, static_cast<size_t>(n)));
  in_.remove_prefix(static_cast<size_t>(n));
  return s;
}

}  // namespace csift
