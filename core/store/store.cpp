// Transcript discovery (SPEC.md §2): top-level sessions, the three subagent shapes under a session's
// sidecar dir, and legacy flat agent files. Directory listings only; meta.json is the one file read.
#include "core/store/store.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/base/atomic_lower.h"
#include "core/cache/result_memo.h"
#include "core/json/stored_json.h"
#include "core/record/transcript_reader.h"
#include "core/store/discovery_memo.h"
#include "core/store/watched_stamps.h"

namespace csift {

namespace fs = std::filesystem;

std::string absolute_path(const std::string& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? fs::path(p) : abs).lexically_normal().string();
}

namespace {

constexpr std::string_view kJsonl = ".jsonl";
constexpr std::string_view kAgentPrefix = "agent-";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void set_stamp(Transcript& t, const std::optional<FileStamp>& s) {
  if (s) set_discovered_stamp(t, *s);
}

void fill_size_mtime(Transcript& t) {
  set_stamp(t, stamp_file(t.path));
}

bool is_regular(const std::string& dir, const ListedEntry& e) {
  return entry_is(dir, e, fs::file_type::regular);  // follows symlinks (test stores link to corpus files)
}

// A top-level session file of a project dir: any `*.jsonl` (Claude Code names them <uuid>.jsonl, but a
// renamed or hand-made copy is still a transcript) except a legacy flat agent and the two non-transcripts.
bool is_session_file_name(std::string_view name) {
  if (!ends_with(name, kJsonl) || name.size() == kJsonl.size()) return false;
  if (name == "journal.jsonl" || name == "elicitations.jsonl") return false;
  return agent_id_from_filename(name).empty() && name.substr(0, kAgentPrefix.size()) != kAgentPrefix;
}

// A project dir is one with a session-named entry (an irregular one included: list_sessions reports it).
bool holds_session_file(const DirEntries& entries) {
  return std::any_of(entries.begin(), entries.end(),
                     [](const ListedEntry& e) { return is_session_file_name(e.name); });
}

// A transcript-named entry: regular files are taken, anything else is reported (when asked) and skipped.
bool take_entry(const std::string& dir, const ListedEntry& e, std::vector<StoreProblem>* problems) {
  if (is_regular(dir, e)) return true;
  if (problems) {
    const std::string path = entry_path(dir, e);
    if (auto reason = irregular_entry_reason(path)) problems->push_back({path, *reason});
  }
  return false;
}

// A directory's entries (a server remembers them while the directory is unchanged: discovery_memo.h).
std::shared_ptr<const DirEntries> entries_of(const fs::path& dir) {
  return remembered_dir_entries(dir);
}

// A directory listed for its transcripts, with the stamp the listing took of it (a server's only).
struct ListedDir {
  std::string dir;
  std::shared_ptr<const DirEntries> entries;
  std::optional<FileStamp> stamp;
};

// A server first applies the change notices queued so far (watched_stamps.h), once per discovery walk, so
// the stamps of the files listed here are as of the walk's start at least, whoever lists: a scope, a status
// poll, a wait.
ListedDir list_dir(const std::string& dir) {
  if (WatchedStamps* watched = process_watched_stamps()) watched->catch_up_for_walk(DiscoveryWalk::current());
  ListedDir out{dir, nullptr, std::nullopt};
  out.entries = remembered_dir_entries(dir, &out.stamp);
  return out;
}

// The stamp of a file listed in `listed` (at `path`): kept by a server's watch while nothing changed it, else
// one stat.
std::optional<FileStamp> listed_file_stamp(const ListedDir& listed, const ListedEntry& e,
                                           const std::string& path) {
  WatchedStamps* watched = process_watched_stamps();
  if (watched == nullptr || !listed.stamp) return stamp_file(path);
  return watched->stamp(listed.dir, *listed.stamp, e.name, path, entry_is_symlink(listed.dir, e));
}

void fill_listed_stamp(Transcript& t, const ListedDir& listed, const ListedEntry& e) {
  set_stamp(t, listed_file_stamp(listed, e, t.path));
}

// The companion agent-<id>.meta.json; a missing or malformed meta leaves the fields empty.
AgentMeta read_agent_meta(const std::string& meta_path) {
  AgentMeta out;
  const nlohmann::json meta = read_json_file(meta_path);
  if (meta.is_null()) {
    std::error_code ec;
    if (!fs::exists(meta_path, ec)) return out;
  }
  out.present = true;
  if (!meta.is_object()) return out;
  out.agent_type = json_string_at(meta, "agentType");
  out.description = json_string_at(meta, "description");
  out.spawn_tool_use_id = json_string_at(meta, "toolUseId");
  out.parent_agent_id = json_string_at(meta, "parentAgentId");
  out.agent_name = json_string_at(meta, "name");
  out.team_name = json_string_at(meta, "teamName");
  out.task_kind = json_string_at(meta, "taskKind");
  return out;
}

// The agent's meta.json, listed in `listed` as `meta`.
void read_meta(Transcript& t, const ListedDir& listed, const ListedEntry& meta_entry) {
  const std::string meta_path = entry_path(listed.dir, meta_entry);
  // Without a memo (the CLI) the file is read, never stat'ed.
  const std::optional<FileStamp> stamp =
      process_discovery_memo() ? listed_file_stamp(listed, meta_entry, meta_path) : std::nullopt;
  std::shared_ptr<const AgentMeta> meta =
      remembered_agent_meta(meta_path, stamp, [&meta_path] { return read_agent_meta(meta_path); });
  if (meta->present) t.meta = std::move(meta);
}

// `meta`: the agent's meta.json in the listing (nullptr: none, and none is opened).
Transcript agent_transcript(const ListedEntry& e, const ListedDir& listed, const Transcript& session,
                            TranscriptShape shape, const ListedEntry* meta) {
  Transcript t;
  t.path = entry_path(listed.dir, e);
  t.project_dir = session.project_dir;
  t.id = agent_id_from_filename(e.name);
  t.session_id = session.id;
  t.session_dir = session.session_dir;
  t.is_subagent = true;
  t.shape = shape;
  if (meta) read_meta(t, listed, *meta);
  if (shape == TranscriptShape::builtin_task &&
      (t.task_kind() == "in_process_teammate" || is_teammate_agent_id(t.id))) {
    t.shape = TranscriptShape::teammate;
  }
  fill_listed_stamp(t, listed, e);
  return t;
}

void collect_agents(const ListedDir& listed, const Transcript& session, TranscriptShape shape,
                    const std::string& workflow_id, std::vector<Transcript>& out,
                    std::vector<StoreProblem>* problems) {
  const DirEntries& entries = *listed.entries;
  for (const ListedEntry& e : entries) {
    const std::string& name = e.name;
    if (agent_id_from_filename(name).empty() || !take_entry(listed.dir, e, problems)) continue;
    const std::string meta_name = name.substr(0, name.size() - kJsonl.size()) + ".meta.json";
    Transcript t = agent_transcript(e, listed, session, shape, find_entry(entries, meta_name));
    t.workflow_id = workflow_id;
    out.push_back(std::move(t));
  }
}

}  // namespace

namespace {

// The entries of the session's <id>/ directory that decide where later steps look (Transcript::session_dir).
void note_session_dir(Transcript& session) {
  const ListedDir listed = list_dir(session.project_dir + "/" + session.id);
  if (!listed.stamp && process_discovery_memo() != nullptr) return;  // gone since the project was listed
  const DirEntries& entries = *listed.entries;
  session.session_dir.listed = true;
  session.session_dir.subagents = holds_entry(entries, "subagents");
  session.session_dir.sidecar = holds_entry(entries, "elicitations.jsonl");
  session.session_dir.tool_results = holds_entry(entries, "tool-results");
}

std::vector<Transcript> sessions_in(const ListedDir& listed, std::vector<StoreProblem>* problems) {
  const std::string& dir = listed.dir;
  const DirEntries& entries = *listed.entries;
  std::vector<Transcript> out;
  // The session dirs (subagents, sidecar) present: a session without one is never looked into (most have
  // none, and each look was two failed opens and a failed stat per call).
  std::vector<std::string> session_dirs;
  for (const ListedEntry& e : entries) {
    if (entry_is(dir, e, fs::file_type::directory)) session_dirs.push_back(e.name);
  }
  std::sort(session_dirs.begin(), session_dirs.end());
  for (const ListedEntry& e : entries) {
    const std::string& name = e.name;
    if (!is_session_file_name(name)) continue;
    if (!take_entry(dir, e, problems)) continue;
    Transcript t;
    t.path = dir + "/" + name;
    t.project_dir = dir;
    t.id = name.substr(0, name.size() - kJsonl.size());
    t.session_id = t.id;
    t.session_dir_absent = !std::binary_search(session_dirs.begin(), session_dirs.end(), t.id);
    if (!t.session_dir_absent) note_session_dir(t);
    fill_listed_stamp(t, listed, e);
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const Transcript& a, const Transcript& b) { return a.path < b.path; });
  return out;
}

}  // namespace

std::vector<Transcript> list_sessions(const std::string& project_dir, std::vector<StoreProblem>* problems) {
  return sessions_in(list_dir(absolute_path(project_dir)), problems);
}

static std::vector<Transcript> subagents_by_path(std::vector<Transcript> out) {
  std::sort(out.begin(), out.end(), [](const Transcript& a, const Transcript& b) { return a.path < b.path; });
  return out;
}

namespace {

// The folders that hold a session's subagents, listed: its `subagents` folder itself (workflow id ""), then,
// when that holds a workflows entry (most hold none), each `workflows/wf_*` folder with its workflow id.
std::vector<std::pair<ListedDir, std::string>> subagent_folders(const std::string& subagents) {
  std::vector<std::pair<ListedDir, std::string>> out;
  out.emplace_back(list_dir(subagents), "");
  if (!holds_entry(*out.front().first.entries, "workflows")) return out;
  const std::string workflows_dir = subagents + "/workflows";
  // Held here: a range-for over *entries_of(...) would outlive the temporary pointer and read freed entries.
  const std::shared_ptr<const DirEntries> workflows = entries_of(workflows_dir);
  for (const ListedEntry& wf : *workflows) {
    if (wf.name.rfind("wf_", 0) != 0 || !entry_is(workflows_dir, wf, fs::file_type::directory)) continue;
    out.emplace_back(list_dir(entry_path(workflows_dir, wf)), wf.name);
  }
  return out;
}

}  // namespace

std::vector<Transcript> list_subagents(const Transcript& session, std::vector<StoreProblem>* problems) {
  std::vector<Transcript> out;
  if (!session.session_dir_may_hold_subagents()) return out;
  const fs::path subagents = fs::path(session.project_dir) / session.id / "subagents";
  for (const auto& [listed, workflow] : subagent_folders(subagents.native())) {
    const TranscriptShape shape =
        workflow.empty() ? TranscriptShape::builtin_task : TranscriptShape::workflow;
    collect_agents(listed, session, shape, workflow, out, problems);
  }
  return subagents_by_path(std::move(out));
}

// The session a legacy flat agent belongs to: the first record within its head that names one.
std::string head_session_id(const Transcript& agent) {
  std::string found;
  ReadOptions opts;
  opts.sequential = true;
  opts.max_lines = 64;
  opts.want = [](std::string_view line) { return line.find("\"sessionId\"") != std::string_view::npos; };
  for_each_record(agent, opts, [&](Record&& r) {
    found = std::move(r.session_id);
    return found.empty();
  });
  return found;
}

// head_session_id through a server's result memo: a legacy flat agent's head is a function of its bytes, and
// every call that resolves a scope with subagents reads each one's head otherwise (361 heads in the 1.1 GiB
// bench store). Only a found id is remembered; discovery's use of the memo is not reported per call.
static std::string remembered_head_session_id(const Transcript& agent) {
  static constexpr ResultKind<std::string> kind{"legacy-agent-session"};
  ResultMemoUse unreported;
  const std::optional<FileStamp> stamp = discovered_stamp(agent);
  // Behind the memo, the disk: a fresh process's discovery read the head of every legacy agent file (1,083
  // on the corpus replica, a tenth of a fresh stats once its figures came from the disk).
  const auto from_disk = [&agent, &stamp, &unreported]() -> Vouched<std::string> {
    DiskCache* disk = process_disk_cache();
    if (disk == nullptr || !stamp) return {head_session_id(agent), {}};
    const auto decode = [](std::string_view blob) -> std::optional<std::string> {
      if (blob.empty()) return std::nullopt;
      return std::string(blob);
    };
    if (auto id = disk_recall(disk, kDiskLegacySessionKind, agent.path, *stamp, &unreported.disk, decode))
      return {std::move(*id), stamp};
    std::string id = head_session_id(agent);
    if (!id.empty())
      disk_keep(disk, kDiskLegacySessionKind, agent.path, agent.path, *stamp, unreported.disk,
                [&id] { return id; });
    return {std::move(id), {}};
  };
  return *recall_or_compute(
      process_result_memo(), unreported, kind, agent.path, "", stamp, from_disk,
      [](const std::string& id) { return !id.empty(); },
      [](const std::string& id) { return held_bytes(id); });
}

namespace {

std::vector<Transcript> legacy_agents_in(const ListedDir& listed, std::vector<StoreProblem>* problems) {
  const std::string& dir = listed.dir;
  std::vector<Transcript> out;
  const DirEntries& entries = *listed.entries;
  for (const ListedEntry& e : entries) {
    const std::string& name = e.name;
    std::string id = agent_id_from_filename(name);
    if (id.empty() || !take_entry(dir, e, problems)) continue;
    Transcript t;
    t.path = dir + "/" + name;
    t.project_dir = dir;
    t.id = id;
    t.is_subagent = true;
    t.shape = TranscriptShape::legacy_flat;
    fill_listed_stamp(t, listed, e);
    t.session_id = remembered_head_session_id(t);
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const Transcript& a, const Transcript& b) { return a.path < b.path; });
  return out;
}

}  // namespace

std::vector<Transcript> list_legacy_agents(const std::string& project_dir,
                                           std::vector<StoreProblem>* problems) {
  return legacy_agents_in(list_dir(absolute_path(project_dir)), problems);
}

std::optional<ProjectListing> list_project(const std::string& project_dir, bool with_legacy_agents,
                                           std::vector<StoreProblem>* problems) {
  const ListedDir listed = list_dir(absolute_path(project_dir));
  if (!holds_session_file(*listed.entries)) return std::nullopt;
  ProjectListing out;
  out.sessions = sessions_in(listed, problems);
  if (with_legacy_agents) out.legacy_agents = legacy_agents_in(listed, problems);
  return out;
}

std::vector<std::string> list_subdirs(const std::string& root) {
  std::vector<std::string> out;
  const std::string abs_root = absolute_path(root);
  const std::shared_ptr<const DirEntries> root_entries = entries_of(abs_root);
  for (const ListedEntry& e : *root_entries) {
    if (entry_is(abs_root, e, fs::file_type::directory)) out.push_back(abs_root + "/" + e.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

bool exists_here(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// The session `<dir>/<id>.jsonl` as list_sessions lists it (its session dir noted), without listing the rest
// of `dir`: a listing of the entries that matter to it, their types left for the listing's rules to ask.
// nullopt when the listing would not take it.
std::optional<Transcript> session_as_listed(const std::string& dir, const std::string& id) {
  const std::string name = id + std::string(kJsonl);
  if (!exists_here(dir + "/" + name)) return std::nullopt;
  auto entries = std::make_shared<DirEntries>();
  if (exists_here(dir + "/" + id)) entries->push_back({id, fs::file_type::none});
  entries->push_back({name, fs::file_type::none});
  std::sort(entries->begin(), entries->end(),
            [](const ListedEntry& a, const ListedEntry& b) { return a.name < b.name; });
  std::vector<Transcript> found = sessions_in(ListedDir{dir, entries, std::nullopt}, nullptr);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

// Whether `<dir>/<session>/subagents` may hold agent-<agent>.jsonl: the file itself, or a workflows folder
// (whose wf_* folders list_subagents looks into).
bool may_hold_agent(const std::string& session_dir, const std::string& file_name) {
  const std::string subagents = session_dir + "/subagents/";
  return exists_here(subagents + file_name) || exists_here(subagents + "workflows");
}

// The first of the project dir's sessions (in listing order) whose subagents hold `agent_id`: a session is
// looked into only when its folder holds the agent's file, or a workflows folder.
std::optional<Transcript> subagent_in_project(const std::string& dir, const DirEntries& entries,
                                              const std::string& agent_id, const std::string& file_name) {
  for (const ListedEntry& e : entries) {
    if (!is_session_file_name(e.name)) continue;
    const std::string id = e.name.substr(0, e.name.size() - kJsonl.size());
    if (!holds_entry(entries, id) || !may_hold_agent(dir + "/" + id, file_name)) continue;
    const auto session = session_as_listed(dir, id);
    if (!session) continue;
    for (Transcript& a : list_subagents(*session))
      if (a.id == agent_id) return std::move(a);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Transcript> find_session(const std::string& projects_root, const std::string& id) {
  if (!is_session_file_name(id + std::string(kJsonl)) || id.find('/') != std::string::npos)
    return std::nullopt;
  for (const std::string& dir : list_subdirs(projects_root)) {
    if (auto session = session_as_listed(dir, id)) return session;
  }
  return std::nullopt;
}

std::optional<Transcript> find_agent(const std::string& projects_root, const std::string& agent_id) {
  const std::string file_name = std::string(kAgentPrefix) + agent_id + std::string(kJsonl);
  if (agent_id_from_filename(file_name) != agent_id || agent_id.find('/') != std::string::npos)
    return std::nullopt;
  // Every session's subagents in session order (project dirs, then paths), then the legacy flat agents. The
  // project dirs (as list_project_dirs finds them, each listed once for both passes) are looked into on the
  // workers, and a dir after the first that holds the agent is not looked into: it cannot answer.
  const std::vector<std::string> dirs = list_subdirs(projects_root);
  std::vector<std::shared_ptr<const DirEntries>> entries(dirs.size());
  std::vector<std::optional<Transcript>> found(dirs.size());
  std::atomic<size_t> first{dirs.size()};
  on_walk_workers(dirs.size(), [&](size_t i) {
    if (i > first.load()) return;
    entries[i] = entries_of(dirs[i]);
    if (!holds_session_file(*entries[i])) return;
    found[i] = subagent_in_project(dirs[i], *entries[i], agent_id, file_name);
    if (found[i]) lower_to(first, i);
  });
  if (first.load() < dirs.size()) return std::move(found[first.load()]);
  for (size_t i = 0; i < dirs.size(); ++i) {  // every dir was listed: none held it as a subagent
    if (!holds_session_file(*entries[i]) || !holds_entry(*entries[i], file_name)) continue;
    for (Transcript& a : list_legacy_agents(dirs[i]))
      if (a.id == agent_id) return std::move(a);
  }
  return std::nullopt;
}

namespace {

// The ids of one project dir, by kind, each kind in list_ids' order.
struct ProjectIds {
  std::vector<ListedId> sessions, subagents, legacy_agents;
};

// The agent ids collect_agents would take from `listed`, each with its path below the session's subagents
// folder (`prefix` + name), the key list_subagents orders them by.
void agent_ids_in(const ListedDir& listed, const std::string& prefix,
                  std::vector<std::pair<std::string, std::string>>& out) {
  for (const ListedEntry& e : *listed.entries) {
    std::string id = agent_id_from_filename(e.name);
    if (!id.empty() && is_regular(listed.dir, e)) out.emplace_back(prefix + e.name, std::move(id));
  }
}

// A session's subagent ids, as list_subagents lists them (by path). Its `<id>/subagents` folder is listed
// directly: a session without one lists nothing either way.
void subagent_ids(const std::string& project_dir, const std::string& session_id, std::vector<ListedId>& out) {
  std::vector<std::pair<std::string, std::string>> found;  // (path below subagents/, id)
  for (const auto& [listed, workflow] : subagent_folders(project_dir + "/" + session_id + "/subagents"))
    agent_ids_in(listed, workflow.empty() ? "" : "workflows/" + workflow + "/", found);
  std::sort(found.begin(), found.end());
  for (auto& [path, id] : found)
    out.push_back({ListedId::Kind::subagent, std::move(id), project_dir, session_id});
}

ProjectIds ids_in_project(const std::string& dir) {
  ProjectIds out;
  const ListedDir listed = list_dir(dir);
  const DirEntries& entries = *listed.entries;
  if (!holds_session_file(entries)) return out;
  for (const ListedEntry& e : entries) {
    if (is_session_file_name(e.name)) {
      if (!is_regular(dir, e)) continue;
      std::string id = e.name.substr(0, e.name.size() - kJsonl.size());
      const ListedEntry* session_dir = find_entry(entries, id);
      if (session_dir && entry_is(dir, *session_dir, fs::file_type::directory))
        subagent_ids(dir, id, out.subagents);
      out.sessions.push_back({ListedId::Kind::session, std::move(id), dir, ""});
    } else if (std::string id = agent_id_from_filename(e.name); !id.empty() && is_regular(dir, e)) {
      out.legacy_agents.push_back({ListedId::Kind::legacy_agent, std::move(id), dir, ""});
    }
  }
  return out;
}

}  // namespace

std::vector<ListedId> list_ids(const std::string& projects_root) {
  const std::vector<std::string> dirs = list_subdirs(projects_root);
  std::vector<ProjectIds> found(dirs.size());
  on_walk_workers(dirs.size(), [&](size_t i) { found[i] = ids_in_project(dirs[i]); });
  std::vector<ListedId> out;
  for (auto kind : {&ProjectIds::sessions, &ProjectIds::subagents, &ProjectIds::legacy_agents}) {
    for (ProjectIds& p : found)
      std::move((p.*kind).begin(), (p.*kind).end(), std::back_inserter(out));
  }
  return out;
}

std::optional<Transcript> transcript_of(const ListedId& listed) {
  const auto with_id = [&listed](std::vector<Transcript> ts) -> std::optional<Transcript> {
    for (Transcript& t : ts)
      if (t.id == listed.id) return std::move(t);
    return std::nullopt;
  };
  switch (listed.kind) {
    case ListedId::Kind::session:
      return session_as_listed(listed.project_dir, listed.id);
    case ListedId::Kind::subagent: {
      const std::optional<Transcript> session = session_as_listed(listed.project_dir, listed.session_id);
      return session ? with_id(list_subagents(*session)) : std::nullopt;
    }
    case ListedId::Kind::legacy_agent:
      return with_id(list_legacy_agents(listed.project_dir));
  }
  return std::nullopt;
}

std::vector<std::string> list_project_dirs(const std::string& root) {
  std::vector<std::string> out;
  std::string abs_root = absolute_path(root);
  const std::shared_ptr<const DirEntries> root_entries = entries_of(abs_root);
  for (const ListedEntry& e : *root_entries) {
    if (!entry_is(abs_root, e, fs::file_type::directory)) continue;
    std::string dir = abs_root + "/" + e.name;
    if (holds_session_file(*entries_of(dir))) out.push_back(dir);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string sidecar_path(const Transcript& session) {
  return (fs::path(session.project_dir) / session.id / "elicitations.jsonl").string();
}

bool is_sidecar_path(const std::string& path) {
  if (fs::path(path).filename() == "elicitations.jsonl") return true;
  // Content sniff: every non-blank line is a csift-marked record (a renamed sidecar is still a sidecar).
  bool any = false;
  bool all_marked = true;
  Transcript file;
  file.path = path;
  const ScanStats stats = reader_for(file).read_raw_lines(
      file,
      [&](const RawLine& line) {
        // A line still being written is not judged (as when it had no newline it was never a line).
        if (line.torn || line.bytes.find_first_not_of(" \t") == std::string_view::npos) return true;
        any = true;
        all_marked = line.bytes.find("\"csift\":\"") != std::string_view::npos;
        return all_marked;
      },
      nullptr);
  return stats.error.empty() && any && all_marked;
}

}  // namespace csift

namespace csift {

namespace {

std::optional<Transcript> find_by_path(std::vector<Transcript> listing, const std::string& path) {
  for (Transcript& t : listing) {
    if (t.path == path) return std::move(t);
  }
  return std::nullopt;
}

// The owning session of a file under <project>/<uuid>/subagents/[workflows/wf_x/]; nullopt elsewhere.
std::optional<Transcript> owning_session_of(const fs::path& file) {
  fs::path dir = file.parent_path();
  if (dir.parent_path().filename() == "workflows" && dir.filename().string().rfind("wf_", 0) == 0) {
    dir = dir.parent_path().parent_path();
  }
  if (dir.filename() != "subagents") return std::nullopt;
  fs::path session_dir = dir.parent_path();
  Transcript session;
  session.id = session_dir.filename().string();
  session.session_id = session.id;
  session.project_dir = session_dir.parent_path().string();
  session.path = session.project_dir + "/" + session.id + ".jsonl";
  return session;
}

}  // namespace

std::optional<Transcript> transcript_for_file(const std::string& path) {
  std::error_code ec;
  std::string abs = absolute_path(path);
  if (!fs::is_regular_file(abs, ec)) return std::nullopt;
  fs::path file(abs);
  std::string name = file.filename().string();
  if (!agent_id_from_filename(name).empty()) {
    if (auto session = owning_session_of(file)) {
      if (auto hit = find_by_path(list_subagents(*session), abs)) return hit;
    }
    if (auto hit = find_by_path(list_legacy_agents(file.parent_path().string()), abs)) return hit;
  }
  Transcript t;
  t.path = abs;
  t.project_dir = file.parent_path().string();
  t.id = name.substr(0, name.size() - std::min(name.size(), kJsonl.size()));
  t.session_id = t.id;
  fill_size_mtime(t);
  return t;
}

}  // namespace csift
