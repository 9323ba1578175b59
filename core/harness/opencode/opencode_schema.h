// Which of OpenCode's two schemas a database holds, decided by its tables alone: `session_v2` means
// OpenCode 2 (which keeps a migrated 1.x database's tables beside its own), else `session`, `message` and
// `part` mean OpenCode 1. Anything else is named as a problem, never read as an empty store.
#pragma once
#include <string>

#include "core/harness/opencode/sqlite_readonly.h"

namespace csift {

enum class OpenCodeSchema { none, v1, v2 };

struct SchemaCheck {
  OpenCodeSchema schema = OpenCodeSchema::none;
  std::string problem;     // when none: which tables or columns are missing
  bool v2_tables = false;  // the database has `session_v2`: its shortfall is OpenCode 2's
};

SchemaCheck check_opencode_schema(ReadOnlyDb& db);

}  // namespace csift
