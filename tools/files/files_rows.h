// Inside `files`: the mutations that survived the filters, with the transcript each came from, and the rows
// each detail level makes of them.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/mutations/file_mutations.h"
#include "core/store/store.h"

namespace csift {

struct AttributedMutation {
  const Transcript* transcript = nullptr;
  FileMutation m;
};

struct AttributedBoundary {
  const Transcript* transcript = nullptr;
  EditBoundary b;
};

enum class FilesDetail { summary, dir, file, timeline };
const char* detail_name(FilesDetail d);

// Rows in owner-session order (a session's subagents roll up under it), paths sorted within a session.
std::vector<json> mutation_rows(const std::vector<AttributedMutation>& ms, FilesDetail detail);
json boundary_row(const AttributedBoundary& b);

// The bucket a path rolls up under: its directory; class markers under "(commands)", a path that stayed
// relative (unresolved) under "(unresolved)".
std::string bucket_of(const FileMutation& m);

}  // namespace csift
