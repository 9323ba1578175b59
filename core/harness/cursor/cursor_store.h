// Cursor's transcript store, storage-only (SPEC.md "Cursor"): the agent transcripts Cursor writes under
// `~/.cursor/projects/<workspace slug>/agent-transcripts/` — `<id>.jsonl`, or `<id>/<id>.jsonl` in the newer
// per-conversation folder. The slug is Cursor's lossy encoding of the workspace path and is never reversed,
// so a Cursor session has no recorded working directory; its time is the file's mtime. The plain-text `.txt`
// transcripts of older IDE releases, and Cursor's undocumented SQLite/protobuf stores (`chats/**/store.db`,
// `state.vscdb`), are not read: each is named in the store's problems as unsupported, never dropped silently.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/environment.h"
#include "core/base/timefmt.h"
#include "core/record/transcript.h"

namespace csift {

inline constexpr std::string_view kCursorHarness = harness_name(HarnessId::cursor);

struct CursorSession {
  // harness "cursor", path = the .jsonl, id = session_id = the ref `cursor:<conversation id>`
  Transcript transcript;
  std::string conversation_id;  // the file stem
  std::string project_slug;     // the projects/<slug> folder it sits under (not a path: never decoded)
  EpochMs mtime_ms = 0;         // the transcript's mtime: Cursor records no timestamps in it
};

struct CursorStore {
  std::string root;                     // <home>/.cursor
  std::vector<CursorSession> sessions;  // sorted by path
  uint64_t subagent_transcripts = 0;    // <id>/subagents/*.jsonl: counted, not listed
  std::vector<StoreProblem> problems;   // unreadable folders, unsupported files and stores
};

// `$HOME/.cursor` (Cursor names no variable that moves it), and what put it there.
struct CursorLocation {
  std::string path;
  std::string source;  // "default ~/.cursor"
};
CursorLocation locate_cursor_store(const Environment& env);
// Every transcript under <root>/projects/*/agent-transcripts, and what could not be read there.
CursorStore list_cursor_sessions(const Environment& env);
// The same for an explicit root.
CursorStore list_cursor_store(const std::string& root);
// The transcripts and problems at a root, for a registry that lists each harness from its root alone.
void list_cursor_transcripts(const std::string& root, std::vector<Transcript>& transcripts,
                             std::vector<StoreProblem>& problems);

}  // namespace csift
