// Cursor as a registry entry (core/harness/harness_entry.h): its agent transcripts, storage-only.
#pragma once
#include "core/harness/harness_entry.h"

namespace csift {

HarnessEntry cursor_harness();

}  // namespace csift
