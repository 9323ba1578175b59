#include "core/triage/session_inventory.h"

#include <sys/stat.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>

#include "core/harness/codex/codex_harness.h"
#include "core/harness/harness_listing.h"
#include "core/record/transcript_reader.h"
#include "core/store/harness_stores.h"
#include "core/triage/watermark.h"

namespace csift {
namespace {

bool inventory_absolute(const std::string& p) {
  return !p.empty() && p[0] == '/';
}

// The state database's rows by ref, pointing into the rows read once per inventory (a statement per session
// was 7 % of a status call).
using RowsByRef = std::unordered_map<std::string_view, const SessionRow*>;

RowsByRef rows_by_ref(const std::vector<SessionRow>& rows) {
  RowsByRef out;
  for (const SessionRow& r : rows)
    out.emplace(r.ref, &r);
  return out;
}

// The watermark the latest mark of `ref` copied (none without a row).
std::optional<Watermark> marked_of(const RowsByRef& rows, const std::string& ref) {
  const auto row = rows.find(ref);
  return row == rows.end() ? std::nullopt : row->second->marked;
}

// Reads the log: its recorded working directories, entry times and counts, over complete lines only.
LogFacts read_log_facts(const Transcript& t, uint64_t complete_size, std::string& error) {
  ReadOptions opts;
  opts.sequential = true;
  LogFactsTally tally(complete_size);
  const ReadStats stats = for_each_record(t, opts, [&](Record&& r) {
    tally.record(r);
    return true;
  });
  error = stats.error;
  return tally.finish(stats);
}

// The facts of a log that is a file, from the disk cache when its stamp is the one they were read under
// (keyed by path and the watermark's size, which the stamp also fixes); read and kept otherwise.
LogFacts remembered_log_facts(const Transcript& t, uint64_t complete_size, std::string& error,
                              DiskCache* disk, DiskCacheUse& use) {
  const std::optional<FileStamp> stamp =
      disk && !reader_for(t).laid_out_in_memory(t) ? stamp_file(t.path) : std::nullopt;
  if (!stamp) return read_log_facts(t, complete_size, error);
  const std::string key = t.path + '\n' + std::to_string(complete_size);
  if (auto facts = disk_recall(disk, kDiskLogFactsKind, key, *stamp, &use, decode_log_facts)) return *facts;
  LogFacts facts = read_log_facts(t, complete_size, error);
  if (error.empty())
    disk_keep(disk, kDiskLogFactsKind, key, t.path, *stamp, use,
              [&facts] { return encode_log_facts(facts); });
  return facts;
}

// Before the read: the policy on what the store's metadata says, then the watermark. Returns whether the log
// may be read; otherwise the session's state is decided.
bool assess_before_read(TriageSession& s, const CollectPolicy& policy, const RowsByRef& rows) {
  const Transcript& t = s.transcript;
  PolicyVerdict gate;
  if (t.harness == HarnessId::claude_code) {
    const std::string& dir = t.project_dir;
    gate = check_claude_encoded_dir(policy, dir.substr(dir.rfind('/') + 1));
  } else if (policy.disabled) {
    gate = {"disabled", "[collect] disabled is set in " + policy.file};
  } else {
    bool unreadable_meta = false;
    s.gate_dir = pre_open_directory(t, unreadable_meta);
    if (!inventory_absolute(s.gate_dir)) s.gate_dir.clear();
    if (!s.gate_dir.empty()) {
      gate = check_directory(policy, s.gate_dir);
    } else if (unreadable_meta && policy.restricts_paths()) {
      gate = {"denied", "the session metadata could not be read, so the policy could not be checked"};
    }
  }
  s.marked = marked_of(rows, s.ref);
  if (!gate.allowed()) {
    s.state = {gate.state, gate.reason, 0};
    return false;
  }
  const WatermarkRead wm = transcript_watermark(t);
  s.current = wm.mark;
  SessionFacts f;
  f.marked = s.marked;
  f.current = wm.mark;
  f.read_error = wm.error;
  s.state = decide_session_state(f);
  s.awaiting_read = wm.error.empty();
  return s.awaiting_read;
}

// One session's gate, watermark and (when `options` says now) read: on the workers, as each session's files
// are its own and `options.read` decides from the session alone.
void assess_and_read(TriageSession& s, const CollectPolicy& policy, const RowsByRef& rows,
                     const InventoryOptions& options) {
  if (!assess_before_read(s, policy, rows)) return;
  if ((options.read ? options.read(s) : LogRead::now) != LogRead::now) return;
  std::string error;
  DiskCacheUse unreported;
  const LogFacts facts = remembered_log_facts(s.transcript, s.current.size, error, options.disk_cache,
                                              options.disk ? *options.disk : unreported);
  settle_session(s, policy, facts, error);
}

void list_claude_store(const Environment& env, TriageStore& store, std::vector<Transcript>& out) {
  const std::string home = resolve_claude_home(std::nullopt, env);
  store.location = projects_root(home);
  store.source = env.get("CLAUDE_CONFIG_DIR") ? "$CLAUDE_CONFIG_DIR" : "default ~/.claude";
  struct stat st {};
  store.state = ::stat(store.location.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? "found" : "absent";
  if (store.state != "found") return;
  for (const std::string& dir : list_project_dirs(store.location)) {
    for (Transcript& t : list_sessions(dir, &store.problems))
      out.push_back(std::move(t));
  }
}

constexpr std::string_view kUnsupportedPrefix = "unsupported-format: ";

// The session id a file the reader does not read names, from its file name (its log cannot be read for the
// id it records): Codex's rollout rule for a compressed rollout, else the name up to its first dot.
std::string unsupported_session_id(HarnessId harness, std::string_view name) {
  if (name.ends_with(".zst")) name.remove_suffix(4);
  if (harness == HarnessId::codex) return codex_session_id_of(name);
  return std::string(name.substr(0, name.find('.')));
}

// A store problem that is one session's file in a format the reader does not read becomes that session's
// row in state `unsupported-format`, as the reference lists it (the problem stays named in the store). The
// policy still comes first: a session its store's metadata places in a refused directory is that state.
std::optional<TriageSession> unsupported_session(const HarnessEntry& h, const StoreProblem& p,
                                                 const CollectPolicy& policy) {
  if (!std::string_view(p.reason).starts_with(kUnsupportedPrefix) || p.path.ends_with(".db"))
    return std::nullopt;
  struct stat st {};
  if (::stat(p.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;  // a directory of stores
  const size_t slash = p.path.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : p.path.substr(0, slash);
  const std::string name = p.path.substr(slash + 1);
  TriageSession s;
  s.transcript = harness_transcript(h.name, p.path, unsupported_session_id(h.id(), name), dir);
  s.ref = s.transcript.id;
  PolicyVerdict gate;
  if (policy.disabled) {
    gate = {"disabled", "[collect] disabled is set in " + policy.file};
  } else {
    bool unreadable_meta = false;
    const std::string meta_dir = pre_open_directory(s.transcript, unreadable_meta);
    if (inventory_absolute(meta_dir)) gate = check_directory(policy, meta_dir);
  }
  if (!gate.allowed())
    s.state = {gate.state, gate.reason, 0};
  else
    s.state = {"unsupported-format", p.reason.substr(kUnsupportedPrefix.size()), 0};
  return s;
}

}  // namespace

std::string pre_open_directory(const Transcript& t, bool& unreadable_meta) {
  const HarnessEntry& h = harness_entry(t.harness);
  if (!h.session_meta) return "";
  SessionMeta meta = h.session_meta(t);
  if (meta.unreadable) unreadable_meta = true;
  return std::move(meta.cwd);
}

void settle_session(TriageSession& s, const CollectPolicy& policy, const LogFacts& facts,
                    const std::string& read_error) {
  s.awaiting_read = false;
  if (!read_error.empty()) {
    s.state = {"unreadable", read_error, 0};
    return;
  }
  const Transcript& t = s.transcript;
  s.cwds = facts.cwds;
  s.start = facts.start;
  s.end = facts.end;
  s.entries = facts.entries;
  s.unparsed = facts.unparsed;
  s.read = true;
  // The metadata the gate checked is read again: a different directory now means the log changed under the
  // check, and what was read may belong to a directory the policy refuses.
  if (!s.gate_dir.empty()) {
    bool unreadable_again = false;
    if (pre_open_directory(t, unreadable_again) != s.gate_dir) {
      s.read = false;
      s.state = {"unreadable", "the session changed since its policy was checked", 0};
      return;
    }
  }
  // After the read: the policy on every recorded working directory.
  std::vector<std::string> dirs = s.cwds;
  if (!s.gate_dir.empty() && std::find(dirs.begin(), dirs.end(), s.gate_dir) == dirs.end())
    dirs.insert(dirs.begin(), s.gate_dir);
  const PolicyVerdict after = check_directories(policy, dirs);
  if (!after.allowed()) {
    // Refused after the read: nothing read from the log is shown.
    s.read = false;
    s.project.clear();
    s.cwds.clear();
    s.start.clear();
    s.end.clear();
    s.entries = s.unparsed = 0;
    s.state = {after.state, after.reason, 0};
    return;
  }
  s.project = s.cwds.empty() ? s.gate_dir : s.cwds.front();
  if (s.cwds.empty() && !s.gate_dir.empty()) s.cwds.push_back(s.gate_dir);
  SessionFacts f;
  f.marked = s.marked;
  f.current = s.current;
  f.project_known = !s.project.empty();
  if (s.entries == 0 && s.unparsed > 0)
    f.unsupported =
        "no complete line parses as an entry of the " + std::string(harness_name(t.harness)) + " log format";
  s.state = decide_session_state(f);
}

TriageInventory take_inventory(const Environment& env, const CollectPolicy& policy, const StateDb& db,
                               const std::vector<const HarnessEntry*>& harnesses,
                               const InventoryOptions& options) {
  TriageInventory inv;
  const std::vector<SessionRow> all_rows = db.rows();
  const RowsByRef rows = rows_by_ref(all_rows);
  std::vector<const HarnessEntry*> selected = harnesses;
  if (selected.empty())
    for (const HarnessEntry& h : registered_harnesses())
      selected.push_back(&h);
  std::set<std::string> listed;
  for (const HarnessEntry* h : selected) {
    TriageStore store;
    store.harness = std::string(h->name);
    std::vector<Transcript> transcripts;
    if (h->id() == HarnessId::claude_code) {
      list_claude_store(env, store, transcripts);
    } else {
      StoreListing listing;
      const StoreReport report = list_harness_store(*h, env, listing);
      store.location = report.root;
      store.source = report.source;
      store.state = report.found ? "found" : "absent";
      store.problems = std::move(listing.problems);
      transcripts = std::move(listing.transcripts);
    }
    store.sessions = transcripts.size();
    std::vector<TriageSession> batch;
    for (Transcript& t : transcripts) {
      TriageSession s;
      // A Claude Code transcript's id is the session uuid; every other harness's is already its ref.
      s.ref = t.harness == HarnessId::claude_code ? harness_ref(harness_name(t.harness), t.id) : t.id;
      listed.insert(s.ref);
      if (options.only_refs && !options.only_refs->count(s.ref)) continue;
      s.transcript = std::move(t);
      batch.push_back(std::move(s));
    }
    // A status call over the generated 10,000-transcript store read its 2,763 logs one after another (~1 s).
    const std::thread::id caller = std::this_thread::get_id();
    tbb::parallel_for(size_t{0}, batch.size(), [&](size_t i) {
      const WorkerHashScope hashing(caller);
      assess_and_read(batch[i], policy, rows, options);
    });
    std::move(batch.begin(), batch.end(), std::back_inserter(inv.sessions));
    for (const StoreProblem& p : store.problems) {
      std::optional<TriageSession> s = unsupported_session(*h, p, policy);
      if (!s || !listed.insert(s->ref).second) continue;
      ++store.sessions;
      if (options.only_refs && !options.only_refs->count(s->ref)) continue;
      s->marked = marked_of(rows, s->ref);
      inv.sessions.push_back(std::move(*s));
    }
    inv.stores.push_back(std::move(store));
  }
  // Watermark rows whose log is gone. A row whose file a store problem hides is unreadable, not absent.
  std::map<std::string, const StoreProblem*> problem_paths;
  for (const TriageStore& st : inv.stores)
    for (const StoreProblem& p : st.problems)
      problem_paths[p.path] = &p;
  for (const SessionRow& row : all_rows) {
    if (listed.count(row.ref)) continue;
    if (options.only_refs && !options.only_refs->count(row.ref)) continue;
    // The state database spells the harness by name: parsed once, compared as a typed id.
    const std::optional<HarnessId> row_harness = harness_id_named(row.harness);
    const bool selected_harness =
        row_harness && std::any_of(selected.begin(), selected.end(),
                                   [&](const HarnessEntry* h) { return h->id() == *row_harness; });
    if (!selected_harness) continue;
    TriageSession s;
    s.ref = row.ref;
    s.transcript.harness = *row_harness;
    s.transcript.path = row.path;
    s.transcript.id =
        *row_harness == HarnessId::claude_code ? row.ref.substr(row.ref.find(':') + 1) : row.ref;
    SessionFacts f;
    f.marked = row.marked;
    const auto hidden = problem_paths.find(row.path);
    if (hidden != problem_paths.end()) {
      f.read_error = hidden->second->reason;
    } else {
      f.exists = false;
    }
    s.state = decide_session_state(f);
    inv.sessions.push_back(std::move(s));
  }
  return inv;
}

}  // namespace csift
