// The triage state: csift-mcp's one database, SQLite at `$CSIFT_STATE_DB` (absolute) else
// `${XDG_DATA_HOME:-~/.local/share}/csift-mcp/state.db`. Never under a harness's store. WAL mode and a busy
// timeout let two processes use it at once; a digest and a mark are one transaction each.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/store/store.h"
#include "core/triage/watermark.h"

struct sqlite3;

namespace csift {

inline constexpr int kStateSchemaVersion = 1;

// One session's row.
struct SessionRow {
  std::string ref;
  std::string harness;
  std::string path;
  std::optional<Watermark> digested;  // the latest digest's watermark
  uint64_t digest_generation = 0;     // digests recorded so far
  std::optional<Watermark> marked;    // the watermark the latest mark copied
  uint64_t marked_generation = 0;     // the digest generation that mark recorded
  std::string outcome;                // filed | nothing | skipped ("" before any mark)
  std::vector<std::string> uids;
  std::string marked_at;
  // A digest is waiting for its mark: digested after the last mark.
  bool unmarked_digest() const { return digest_generation > marked_generation; }
};

struct SavedSelection {
  std::vector<std::string> harness;
  std::string since;  // as written
  uint64_t limit = 0;
  std::string saved_at;
};

// What recording one digest found.
struct DigestRecorded {
  std::string ref;
  uint64_t generation = 0;
  // Another digest was recorded after the last mark and not marked yet (a second triage run, or a crash
  // between digest and mark): its time; this digest's watermark replaces it.
  std::string replaced_unmarked_at;
};

// What one mark recorded.
struct MarkRecorded {
  std::string ref;
  uint64_t digests_followed = 0;  // digests recorded since the previous mark (1 in a lone run)
  Watermark watermark;            // the watermark now marked
};

class StateDb {
 public:
  // Opens (creating the file and its directory when missing) the database at `path`.
  explicit StateDb(const std::string& path);
  ~StateDb();
  StateDb(const StateDb&) = delete;
  StateDb& operator=(const StateDb&) = delete;

  const std::string& path() const { return path_; }
  std::optional<SessionRow> row(const std::string& ref) const;
  std::vector<SessionRow> rows() const;

  struct DigestWrite {
    std::string ref, harness, path;
    Watermark watermark;
  };
  // Records every digest watermark in one transaction.
  std::vector<DigestRecorded> record_digests(const std::vector<DigestWrite>& writes, const std::string& now);
  // Copies each ref's digest watermark into its marked one, in one transaction: all refs or none. Throws
  // ToolError(usage) naming each ref never digested.
  std::vector<MarkRecorded> mark(const std::vector<std::string>& refs, const std::string& outcome,
                                 const std::vector<std::string>& uids, const std::string& now);

  std::optional<SavedSelection> selection() const;
  void save_selection(const SavedSelection& s);

 private:
  void exec(const char* sql) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

// `$CSIFT_STATE_DB` when absolute, else under `$XDG_DATA_HOME` (absolute) or `~/.local/share`. Throws
// ToolError(usage) when CSIFT_STATE_DB is set but not absolute.
std::string state_db_path(const Environment& env);

}  // namespace csift
