// The Transcript value: one transcript file as discovery found it (any harness's listing builds one), its
// shape, the subagent meta.json fields it carries, the stamp a per-file memo keys it by, and the StoreProblem
// a listing reports for an entry it cannot read. Everything that reads, lists or resolves transcripts passes
// this value; nothing here lists a directory or parses a record.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/cache/file_stamp.h"
#include "core/record/harness_id.h"

namespace csift {

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
  // What this call's discovery found in the <id>/ directory of the owning session (a subagent carries its
  // session's), from the directory's listing, which a server keeps while the directory's stamp is unchanged:
  // so a warm call stats the directory once instead of probing for each of these (two of the three are
  // absent in most sessions). Not listed (a transcript named by path, another harness): look as before.
  struct SessionDirHolds {
    bool listed = false;
    bool subagents = false, sidecar = false, tool_results = false;
  } session_dir;
  // Whether <session>/<name> may exist as far as this call's discovery knows (true when it did not list).
  bool session_dir_may_hold_subagents() const { return !session_dir.listed || session_dir.subagents; }
  bool session_dir_may_hold_sidecar() const { return !session_dir.listed || session_dir.sidecar; }
  bool session_dir_may_hold_tool_results() const { return !session_dir.listed || session_dir.tool_results; }
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

// Records `s` as the stamp discovery took of the transcript.
inline void set_discovered_stamp(Transcript& t, const FileStamp& s) {
  t.size = s.size;
  t.mtime_ns = s.mtime_ns;
  t.device = s.device;
  t.inode = s.inode;
}

// The stamp a per-file memo keys a transcript by: discovery's, else one stat now (nullopt: it cannot be
// stat'ed).
inline std::optional<FileStamp> stamp_of(const Transcript& t) {
  const auto known = discovered_stamp(t);
  return known ? known : stamp_file(t.path);
}

// An entry named like a transcript that is not one csift-mcp can read: a directory, a FIFO, a device, a
// socket, a dangling symlink or a symlink loop. Discovery never opens it (a FIFO would block the read) and
// never drops it silently: every store listing hands it to the caller, which reports it.
struct StoreProblem {
  std::string path;
  std::string reason;
};
// Why the transcript-named entry at `path` cannot be read as a transcript, or nullopt when it is a regular
// file (a symlink to one included). Decided by stat/lstat alone: nothing is opened.
std::optional<std::string> irregular_entry_reason(const std::string& path);

}  // namespace csift
