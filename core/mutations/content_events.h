// What one transcript shows of the CONTENT of chosen files (SPEC.md §9.13): every Read, Write, Edit and
// MultiEdit of them joined to its result by tool_use_id, with the bodies a replay needs (read windows,
// written text, structured patches), and the signals that the file changed outside that stream (integrity
// errors, Claude Code's staleReadFileStateHint and staleRecovered, edited_text_file attachments, Bash
// commands that name the file) plus the transcript's opaque mutating commands. Where file_mutations.h keeps
// only small strings for every file, this keeps bodies for the few files asked about, and a transcript whose
// bytes never name any of their basenames is screened out whole, never parsed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/harness/tool_edits.h"
#include "core/record/transcript.h"

namespace csift {

struct PatchHunk {
  int64_t old_start = 0, old_lines = 0, new_start = 0, new_lines = 0;
  std::vector<std::string> lines;  // " ctx", "-old", "+new", "\\ No newline at end of file"
};

struct StringEdit {
  std::string old_string, new_string;
  bool replace_all = false;
  int64_t expected = 0;  // > 0: exactly that many occurrences, each replaced (Gemini CLI's replace)
};

enum class ContentEventKind {
  read,        // a Read (or a deterministic Bash read) that landed: a window of the file
  write,       // a Write (or a deterministic Bash write) that landed: the whole file
  edit,        // an Edit / MultiEdit (or another harness's edit or apply_patch update) that landed
  boundary,    // the file changed (or may have) outside the stream
  annotation,  // an integrity error that changed nothing (string not found, file does not exist)
};

struct ContentEvent {
  ContentEventKind kind = ContentEventKind::read;
  size_t target = 0;   // index into the files asked about
  std::string tool;    // Read, Write, Edit, MultiEdit, Bash, attachment
  std::string source;  // read: read, read-gutter; write: write, bash-heredoc, bash-write, bash-append;
                       // edit: harness-edit (another harness's string edits or apply_patch update),
                       // harness-diff (an update known only by the unified diff Codex recorded as applied)
  // read: the window; write: content is the whole file
  int64_t start_line = 1, num_lines = 0, total_lines = 0;
  std::string content;
  // edit
  std::vector<PatchHunk> patch;
  std::vector<StringEdit> edits;
  std::vector<PatchChunk> chunks;  // an apply_patch update: chunks placed by their context lines
  std::optional<std::string> original_file;
  // Another harness's write whose logged result (Codex's patch_apply_end) recorded other content than its
  // call asked for: why the content is the logged one (the replay names it).
  std::string applied_note;
  // boundary / annotation: modified-since-read, hint-modified, original-file-disagreement (made by the
  // replay), external-edit, stale-recovered, bash-mutation, deleted, moved-away, moved-in, unreadable-diff
  // (an update Codex recorded as a diff with no placeable hunk); annotations:
  // string-not-found, file-not-exist, not-read-yet, failed-edit (another harness's edit whose result failed)
  std::string cause;
  std::string detail;
  uint64_t line = 0;  // the line that carries the evidence (the result, or the call for a Bash row)
  std::string timestamp;
  int turn = -1;
};

// A command that may change files it never names (a formatter, an interpreter, a package manager, an archive
// extraction, a worktree-rewriting git command, any PowerShell call): never an event, only counted.
struct OpaqueCommand {
  std::string marker;  // fmt:prettier, interp:python, git:checkout, powershell
  std::string command;
  uint64_t line = 0;
  std::string timestamp;
  int turn = -1;
};

struct TranscriptContent {
  std::vector<ContentEvent> events;  // file order
  std::vector<OpaqueCommand> opaque;
  bool screened_out = false;  // no target basename in the file's bytes: not parsed
  int turns = 0;
  uint64_t skipped_lines = 0;
  std::string error;
};

// `files` are absolute, normalised paths. A tool call names a file by its absolute path, or by a relative one
// joined to the call record's cwd.
TranscriptContent scan_content_events(const Transcript& t, const std::vector<std::string>& files,
                                      const CancelToken* cancel);

// The basename of a path (what the byte screen looks for).
std::string path_basename(const std::string& path);

}  // namespace csift
