// One harness as csift-mcp knows it: its name in refs (`<name>:<session id>`) and in the `harness` argument,
// the reader of its transcripts, and how its store is found and listed. Every harness is one entry of
// registered_harnesses() (core/harness/readers.cpp), one line each.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/environment.h"
#include "core/harness/harness_agents.h"
#include "core/harness/tool_edits.h"
#include "core/record/transcript.h"
#include "core/record/transcript_reader.h"

namespace csift {

// Where a harness's store is, and what put it there ("$CODEX_HOME", "default ~/.codex").
struct StoreRoot {
  std::string path;  // the store's directory
  std::string source;
  // A single store file a variable named instead (OpenCode's $OPENCODE_DB): the store exists when it is a
  // regular file, and `list` reads it alone. Empty for a directory store.
  std::string file = {};
};

// What one listing of a store found: its transcripts, and everything it could not read (an unlistable
// directory, a file in a format the reader does not read: `unsupported-format: …`), each by path.
struct StoreListing {
  std::vector<Transcript> transcripts;
  std::vector<StoreProblem> problems;
};

// What a harness's store keeps about a session outside its records — a file beside the log, or the log's
// first line read alone — as far as it names the working directory before the log is read.
struct SessionMeta {
  std::string cwd;          // the absolute working directory named ("" when none is)
  bool unreadable = false;  // the harness keeps such metadata and it could not be read
};

struct HarnessEntry {
  std::string_view name;                  // "codex"; a ref is `<name>:<session id>`
  std::vector<std::string_view> aliases;  // other names a ref or the harness argument may use
  const TranscriptReader* reader = nullptr;
  // The store root by the environment's variables and defaults; nullopt when none applies (no HOME).
  // nullptr for Claude Code, whose store is the target grammar's (core/store/targets.h).
  std::optional<StoreRoot> (*locate)(const Environment& env) = nullptr;
  // Lists the store under an existing root. Each transcript's `id` is its ref and `harness` its name.
  void (*list)(const StoreRoot& root, StoreListing& out) = nullptr;
  // What the harness's log does not record that answers about Claude Code sessions carry (said in a note
  // whenever the scope holds its sessions, so an absent figure is not read as a zero).
  std::string_view not_recorded = {};
  // The typed harness its name names (a transcript's Transcript::harness).
  HarnessId id() const { return *harness_id_named(name); }
  // The one reader of a listed session's store metadata: what discovery's reader and triage's policy gate
  // both take the working directory from. nullptr when the store keeps none apart from the log (Claude
  // Code's encoded project directory is the target grammar's; OpenCode's and Cursor's listings carry none).
  SessionMeta (*session_meta)(const Transcript& t) = nullptr;
  // How the harness's tool calls read as file changes and shell commands (core/harness/tool_edits.h), for
  // `files`, `agents` and `recover`. nullptr for Claude Code, whose tools core/mutations reads itself, and
  // for a harness whose log records no edit (Cursor's transcripts hold no results).
  const ToolEditReading* tool_edits = nullptr;
  // The reader of the child sessions and sub-agents a session started, as the harness records them
  // (core/harness/harness_agents.h; `agents` calls it). nullptr when the harness records none, or (Claude
  // Code) when the store's own discovery finds them.
  HarnessAgentsFn agents = nullptr;
  // The child logs its listing leaves out, for a ref to one of them (core/harness/harness_agents.h).
  // nullptr when every child log is a listed session (Codex) or has none of its own (Copilot CLI).
  HarnessChildLogsFn child_logs = nullptr;
};

// Every harness, Claude Code first.
const std::vector<HarnessEntry>& registered_harnesses();
// The entry a name or alias names, or nullptr.
const HarnessEntry* harness_named(std::string_view name);
// The registered entry of a typed harness id (every id has one: a missing one is a programming error).
const HarnessEntry& harness_entry(HarnessId id);
// `<harness>:<session id>`: how a session of a harness other than Claude Code is named (its Transcript::id).
std::string harness_ref(std::string_view harness, std::string_view session_id);

}  // namespace csift
