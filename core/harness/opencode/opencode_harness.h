// OpenCode 1 and OpenCode 2 as registry entries (core/harness/harness_entry.h): both read the same databases,
// each lists the sessions its schema owns, so a migrated session is listed once (as OpenCode 2's).
#pragma once
#include "core/harness/harness_entry.h"

namespace csift {

HarnessEntry opencode_v1_harness();
HarnessEntry opencode_v2_harness();

}  // namespace csift
