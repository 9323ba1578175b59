// Claude Code's transcript store on disk (SPEC.md §2): where it is, how a cwd encodes to a project dir, and
// which files are transcripts. Nothing here parses records. The values it lists and the lookups it shares
// with lower areas have their own headers, included here for its callers: the Transcript value
// (core/record/transcript.h), the environment (core/base/environment.h) and the id shapes
// (core/base/id_shapes.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/environment.h"
#include "core/base/id_shapes.h"
#include "core/record/transcript.h"

namespace csift {

// A call's claude_home > the server's --claude-home (env.claude_home) > $CLAUDE_CONFIG_DIR (non-empty) >
// $HOME/.claude.
std::string resolve_claude_home(const std::optional<std::string>& override_dir, const Environment& env);
std::string projects_root(const std::string& claude_home);
// Throws ToolError(not_found) naming `claude_home` and where it came from when it is not a directory: a
// home that does not exist is a mistake to report, never an empty store.
void require_claude_home(const std::string& claude_home, const std::optional<std::string>& override_dir,
                         const Environment& env);

// SPEC.md §2: NFC, then every UTF-16 code unit outside [A-Za-z0-9] becomes '-'. No collapsing, case kept.
std::string encode_cwd(const std::string& cwd);
// Encoded names longer than this are stored as `<first-200>-<hash>`; lookups prefix-scan.
inline constexpr size_t kMaxEncodedLength = 200;

// Non-recursive listing of top-level sessions in one project dir, sorted by file name. Transcript-named
// entries that are not regular files go to `problems` when given.
std::vector<Transcript> list_sessions(const std::string& project_dir,
                                      std::vector<StoreProblem>* problems = nullptr);
// The subagent transcripts of one session (all three shapes), sorted by path. journal.jsonl and the
// elicitation sidecar are never transcripts.
std::vector<Transcript> list_subagents(const Transcript& session,
                                       std::vector<StoreProblem>* problems = nullptr);
// Legacy flat agent-*.jsonl files in a project dir (CC 1.x layout), sorted by name.
std::vector<Transcript> list_legacy_agents(const std::string& project_dir,
                                           std::vector<StoreProblem>* problems = nullptr);
// Every project dir under the projects root that holds at least one session-named entry (a regular file or
// not: an unreadable one is reported by list_sessions, not hidden here), sorted.
std::vector<std::string> list_project_dirs(const std::string& projects_root);
// One project dir read once: its sessions and (when asked) its legacy flat agents, as list_sessions and
// list_legacy_agents give them; nullopt when it holds no session-named entry (not a project dir, as
// list_project_dirs decides).
struct ProjectListing {
  std::vector<Transcript> sessions;
  std::vector<Transcript> legacy_agents;
};
std::optional<ProjectListing> list_project(const std::string& project_dir, bool with_legacy_agents,
                                           std::vector<StoreProblem>* problems = nullptr);
// `p` made absolute (against the working directory) and lexically normal, as discovery keys directories.
std::string absolute_path(const std::string& p);
// The directories directly under `root` (absolute paths, sorted): list_project_dirs' candidates.
std::vector<std::string> list_subdirs(const std::string& root);
// The top-level session `<id>.jsonl` of the first project dir (in list_project_dirs' order) that holds it as
// list_sessions would list it, or nullopt: one look per project dir instead of listing every session of the
// store (an `@<uuid>` target on a 10,000-transcript store: 80 ms of a CLI call's CPU).
std::optional<Transcript> find_session(const std::string& projects_root, const std::string& id);
// The subagent whose id is `agent_id`, as the first of every session's subagents (sessions in listing order)
// and then of the legacy flat agents, or nullopt: the sessions and their subagents folders are looked at by
// name (a stat each), project dirs on the workers, and only a session that holds the agent's file, or a
// workflows folder, has its subagents listed and their meta.json read.
std::optional<Transcript> find_agent(const std::string& projects_root, const std::string& agent_id);

// A session uuid or subagent id as discovery names it from directory listings alone: what an `@<prefix>`
// target is matched against. No transcript is stat'ed and no meta.json or legacy head is read, so listing
// every id of a 10,000-transcript store costs its directory listings, not a stat per file (SPEC.md §3).
struct ListedId {
  enum class Kind : uint8_t { session, subagent, legacy_agent };
  Kind kind = Kind::session;
  std::string id;
  std::string project_dir;  // absolute, as list_project_dirs gives it
  std::string session_id;   // a subagent's owning session ("" for the other kinds)
};
// Every id list_sessions, list_subagents and list_legacy_agents would give over the store, in the order of a
// listing of every session (project dirs, then paths) followed by every session's subagents (sessions in
// that order, each's by path) and then the legacy flat agents (project dirs, then names). The same entries
// are taken (transcript-named regular files, following symlinks); project dirs are listed in parallel.
std::vector<ListedId> list_ids(const std::string& projects_root);
// The transcript a listed id names, as those listings build it; nullopt when it is gone since.
std::optional<Transcript> transcript_of(const ListedId& listed);

// Classifies one .jsonl file by where it sits: a subagent (any shape, meta read) when it is agent-<id>.jsonl,
// else a top-level transcript. std::nullopt when the file does not exist.
std::optional<Transcript> transcript_for_file(const std::string& path);

// The elicitation sidecar of a top-level session (the seed's §6.10): <project>/<uuid>/elicitations.jsonl.
std::string sidecar_path(const Transcript& session);
bool is_sidecar_path(const std::string& path);

// The sessionId of the first record carrying one, from a short head scan ("" when none).
std::string head_session_id(const Transcript& agent);

}  // namespace csift
