// What one transcript changed on disk, read in one forward pass (SPEC.md §9.7): the structured edits
// (Edit / Write / MultiEdit / NotebookEdit) joined to their results by tool_use_id — a result with is_error
// never landed and is left out, and an integrity error (the file changed since it was read) becomes an
// edit-before-read boundary — plus the heuristic mutations a Bash command's text names (bash_mutations.h).
// Only small strings survive a record: no tool input body or result body is kept. Shared by `files`,
// `agents with_files` and any later reconstruction tool.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/mutations/bash_mutations.h"
#include "core/record/transcript.h"

namespace csift {

struct FileMutation {
  std::string path;  // resolved against the record's cwd (paths.h), else verbatim; or a Bash class marker
  std::string op;    // write, edit, multi-edit, notebook-edit, or a bash op (bash_mutations.h)
  std::string tool;  // Edit, Write, MultiEdit, NotebookEdit, Bash
  bool heuristic = false;
  bool is_create = false;                                // structured: the result said the file was created
  PathResolution resolution = PathResolution::absolute;  // heuristic rows only
  std::string path_verbatim;                             // heuristic rows only
  bool command_errored = false;                          // Bash: the command's result was an error
  uint64_t line = 0;                                     // the tool call's line
  std::string timestamp;                                 // the tool call's timestamp ("" when none)
  int turn = -1;                                         // 0-based turn of the tool call (-1: before any)
  std::string tool_use_id;
};

// A structured edit the harness refused because the file changed outside the tool stream (or was not read).
struct EditBoundary {
  std::string path;
  std::string cause;  // modified-since-read, not-read-yet
  std::string tool;
  uint64_t line = 0;  // the error result's line
  std::string timestamp;
  int turn = -1;
  std::string tool_use_id;
};

struct TranscriptMutations {
  std::vector<FileMutation> mutations;  // file order of the tool calls
  std::vector<EditBoundary> boundaries;
  uint64_t failed = 0;       // structured calls whose result was an error (never landed)
  uint64_t unconfirmed = 0;  // structured calls with no result in the transcript (not counted as changes)
  int turns = 0;             // turns in the whole transcript (a `-k` turn window counts from its end)
  uint64_t skipped_lines = 0;
  std::string error;  // the file could not be read
};

TranscriptMutations scan_file_mutations(const Transcript& t, const CancelToken* cancel);

// Is `name` a tool whose successful call changes a file it names (Edit, Write, MultiEdit, NotebookEdit)?
bool is_structured_mutation_tool(std::string_view name);

}  // namespace csift
