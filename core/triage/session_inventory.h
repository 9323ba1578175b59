// Every session of the selected harnesses with its triage state: the stores are listed, the collection policy
// is applied before a log is opened where the store's metadata names its working directory, the log's
// watermark is compared with the marked one, and a session's recorded facts (working directories, first and
// last entry time, counts) are read from its log when the policy lets it be read — by the inventory, or by
// the caller's own read of it (the digest's), so that a log is read once.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/cache/disk_cache.h"
#include "core/harness/harness_entry.h"
#include "core/triage/collection_policy.h"
#include "core/triage/log_facts.h"
#include "core/triage/session_state.h"
#include "core/triage/state_db.h"

namespace csift {

struct TriageStore {
  std::string harness;
  std::string location;  // the store's directory or database ("" when no location applies)
  std::string source;    // what put it there
  std::string state;     // found, absent
  std::vector<StoreProblem> problems;
  size_t sessions = 0;
};

struct TriageSession {
  Transcript transcript;  // as its store lists it
  std::string ref;
  SessionState state;
  Watermark current;
  std::string gate_dir;  // the working directory the store's metadata names before the open ("" = none)
  bool read = false;     // the log was read (its facts below are known)
  std::string project;   // first recorded working directory
  std::vector<std::string> cwds;
  std::string start, end;  // first and last entry time as recorded
  uint64_t entries = 0, unparsed = 0;
  // The log is still to be read (LogRead::by_caller or never): `state` is what the watermark alone decides
  // (new, changed or processed), which the read can only turn into a refusal.
  bool awaiting_read = false;
  std::optional<Watermark> marked;  // the marked watermark, when awaiting_read
};

// What take_inventory does with the log of a session its policy gate let through and whose watermark it
// took: read it now, leave the read to the caller (who hands the facts to settle_session), or leave it unread
// (a tool that shows nothing of the session whatever its log says).
enum class LogRead { now, by_caller, never };

struct InventoryOptions {
  // When set, only sessions (and absent rows) with these refs are assessed and returned.
  const std::set<std::string>* only_refs = nullptr;
  // Asked for each session awaiting its read (its state the watermark's); nullptr: LogRead::now. Asked on the
  // workers, several sessions at once: it must decide from the session alone.
  std::function<LogRead(const TriageSession&)> read;
  // The call's disk cache, where a log's facts are kept by stamp (nullptr: none), and where the call counts
  // its use of it (nullptr: not counted).
  DiskCache* disk_cache = nullptr;
  DiskCacheUse* disk = nullptr;
};

struct TriageInventory {
  std::vector<TriageStore> stores;
  std::vector<TriageSession> sessions;  // store order, then listing order; absent rows last
};

// `harnesses` empty: every registered harness. Rows of the state database whose log is no longer listed are
// sessions in state `absent` (only for the harnesses selected).
TriageInventory take_inventory(const Environment& env, const CollectPolicy& policy, const StateDb& db,
                               const std::vector<const HarnessEntry*>& harnesses,
                               const InventoryOptions& options = {});

// Settles a session left to the caller's read: the facts that read took, or the error it met (non-empty:
// the session is `unreadable`). Then the policy applies to every recorded directory, as after the
// inventory's own read.
void settle_session(TriageSession& s, const CollectPolicy& policy, const LogFacts& facts,
                    const std::string& read_error);

// The working directory a harness's store metadata names for a session before its log is opened, by the
// harness's own reader (HarnessEntry::session_meta: Codex's session_meta first line, Copilot CLI's
// workspace.yaml, Gemini CLI's .project_root; "" when none). `unreadable_meta` is set when the harness keeps
// such metadata and it could not be read.
std::string pre_open_directory(const Transcript& t, bool& unreadable_meta);

}  // namespace csift
