// The transcript store on disk (SPEC.md §2): where it is, how a cwd encodes to a project dir, and which
// files are transcripts. Nothing here parses records.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/file_stamp.h"
#include "core/record/harness_id.h"

namespace csift {

// How the tools were reached, which decides what can name the calling session (SPEC.md §9.5).
enum class CallerLink {
  command_line,      // run by the caller itself: its environment is the caller's
  spawning_process,  // a stdio server: the caller is an ancestor process (Claude Code's session registry)
  network,           // an HTTP server: no process relation to the caller at all
};

// Environment lookups go through this so tests and the MCP server can pass their own environment.
struct Environment {
  std::map<std::string, std::string> vars;
  std::string cwd;  // the caller's working directory (for `.` and relative paths)
  // The server's `--claude-home DIR`: the home of every call that names none ("" = not given).
  std::string claude_home;
  CallerLink caller = CallerLink::command_line;
  int caller_pid = 0;  // spawning_process: the parent process, where the registry walk starts
  static Environment from_process();
  std::optional<std::string> get(const std::string& name) const;  // empty values count as unset
};

// A call's claude_home > the server's --claude-home (env.claude_home) > $CLAUDE_CONFIG_DIR (non-empty) >
// $HOME/.claude.
std::string resolve_claude_home(const std::optional<std::string>& override_dir, const Environment& env);
std::string projects_root(const std::string& claude_home);
// Throws ToolError(not_found) naming `claude_home` and where it came from when it is not a directory: a
// home that does not exist is a mistake to report, never an empty store.
void require_claude_home(const std::string& claude_home, const std::optional<std::string>& override_dir,
                         const Environment& env);
// $HOME (non-empty), else the passwd entry's home dir.
std::string home_dir(const Environment& env);
// Expands a leading `~` / `$HOME` in a user-typed path.
std::string expand_home(const std::string& path, const Environment& env);

// SPEC.md §2: NFC, then every UTF-16 code unit outside [A-Za-z0-9] becomes '-'. No collapsing, case kept.
std::string encode_cwd(const std::string& cwd);
// Encoded names longer than this are stored as `<first-200>-<hash>`; lookups prefix-scan.
inline constexpr size_t kMaxEncodedLength = 200;

enum class TranscriptShape {
  session,       // top-level <uuid>.jsonl
  builtin_task,  // <uuid>/subagents/agent-<hex>.jsonl with isSidechain records
  workflow,      // <uuid>/subagents/workflows/wf_<id>/agent-<hex>.jsonl
  teammate,      // a teammate agent (name-embedded agent id) under subagents/
  legacy_flat,   // agent-<hex>.jsonl beside the sessions in the project dir (CC 1.x)
};
const char* shape_name(TranscriptShape s);

// The fields discovery takes from a subagent's agent-<hex>.meta.json.
struct AgentMeta {
  bool present = false;  // the file exists (possibly malformed: then every field is empty)
  std::string agent_type, description;
  std::string spawn_tool_use_id;  // toolUseId
  std::string parent_agent_id;    // parentAgentId
  std::string agent_name;         // name (teammates)
  std::string team_name;          // teamName (teammates)
  std::string task_kind;          // taskKind ("in_process_teammate" upgrades the shape)
};

struct Transcript {
  HarnessId harness = HarnessId::claude_code;  // which reader reads it (core/harness/readers.cpp)
  std::string path;                            // absolute path of the .jsonl
  std::string project_dir;                     // absolute path of the <ENCODED> dir
  std::string id;                              // session uuid, or agent id (the hex after `agent-`)
  std::string session_id;  // the owning top-level session uuid ("" when unknown, legacy flat)
  bool is_subagent = false;
  TranscriptShape shape = TranscriptShape::session;
  std::string workflow_id;  // wf_<id> for workflow agents
  // The agent-<hex>.meta.json beside a subagent (null: none was listed). Shared, not copied: a scope of
  // thousands of transcripts is built on every call, and the discovery memo already holds each meta.
  std::shared_ptr<const AgentMeta> meta;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t device = 0, inode = 0;  // from the same stat as size and mtime (0: not stat'ed)
  // This call's discovery listed the project dir and saw no <id>/ directory beside this session, so it looks
  // for no subagents or sidecar there (false: not known). A snapshot: a live session may create the dir
  // later, so a tool that polls lists again rather than trusting it.
  bool session_dir_absent = false;
  // parent_session_id for the id trio: the owning top-level session (session_id), or id for a session.
  const std::string& parent_session_id() const { return is_subagent ? session_id : id; }
  // The meta.json fields ("" without one).
  const std::string& agent_type() const { return meta_field(&AgentMeta::agent_type); }
  const std::string& description() const { return meta_field(&AgentMeta::description); }
  const std::string& spawn_tool_use_id() const { return meta_field(&AgentMeta::spawn_tool_use_id); }
  const std::string& parent_agent_id() const { return meta_field(&AgentMeta::parent_agent_id); }
  const std::string& agent_name() const { return meta_field(&AgentMeta::agent_name); }
  const std::string& team_name() const { return meta_field(&AgentMeta::team_name); }
  const std::string& task_kind() const { return meta_field(&AgentMeta::task_kind); }

 private:
  const std::string& meta_field(std::string AgentMeta::*field) const {
    static const std::string kNone;
    return meta ? (*meta).*field : kNone;
  }
};

// A transcript's FileStamp as discovery's stat(2) saw it, so a per-file memo need not stat it again; nullopt
// when discovery did not stat it (inode 0), and the memo then stats the file itself.
inline std::optional<FileStamp> discovered_stamp(const Transcript& t) {
  if (t.inode == 0) return std::nullopt;
  return FileStamp{t.device, t.inode, t.size, t.mtime_ns};
}

// The stamp a per-file memo keys a transcript by: discovery's, else one stat now (nullopt: it cannot be
// stat'ed).
inline std::optional<FileStamp> stamp_of(const Transcript& t) {
  const auto known = discovered_stamp(t);
  return known ? known : stamp_file(t.path);
}

// An entry named like a transcript that is not one csift-mcp can read: a directory, a FIFO, a device, a
// socket, a dangling symlink or a symlink loop. Discovery never opens it (a FIFO would block the read) and
// never drops it silently: the listings below hand it to the caller, which reports it.
struct StoreProblem {
  std::string path;
  std::string reason;
};
// Why the transcript-named entry at `path` cannot be read as a transcript, or nullopt when it is a regular
// file (a symlink to one included). Decided by stat/lstat alone: nothing is opened.
std::optional<std::string> irregular_entry_reason(const std::string& path);

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
// The directories directly under `root` (absolute paths, sorted): list_project_dirs' candidates.
std::vector<std::string> list_subdirs(const std::string& root);

// Classifies one .jsonl file by where it sits: a subagent (any shape, meta read) when it is agent-<id>.jsonl,
// else a top-level transcript. std::nullopt when the file does not exist.
std::optional<Transcript> transcript_for_file(const std::string& path);

// The elicitation sidecar of a top-level session (the seed's §6.10): <project>/<uuid>/elicitations.jsonl.
std::string sidecar_path(const Transcript& session);
bool is_sidecar_path(const std::string& path);

bool is_uuid(std::string_view s);
// A teammate's name-embedded agent id, `a<Name>-<16 hex>` (the name may carry dashes; never a uuid).
bool is_teammate_agent_id(std::string_view s);
// The agent id of an `agent-<id>.jsonl` file name, or "" when the name is not that shape.
std::string agent_id_from_filename(std::string_view filename);
// The sessionId of the first record carrying one, from a short head scan ("" when none).
std::string head_session_id(const Transcript& agent);

}  // namespace csift
