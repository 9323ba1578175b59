// One `list` row (SPEC.md §9.1): the identity tuple of a transcript as JSON, from its head/tail probe.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "core/base/envelope.h"
#include "core/harness/claude_code/session_probe.h"
#include "core/store/store.h"
#include "tools/list/list_sidecar.h"

namespace csift {

struct ListEntry {
  const Transcript* transcript = nullptr;
  std::shared_ptr<const SessionProbe> probe;  // shared with a server's result memo, never modified
  SidecarStatus sidecar;
  std::optional<std::string> clone_of;  // the origin session id of a clone, when joined
};

json list_row(const ListEntry& entry);

// `<name>_utc` / `<name>_local` for an on-disk ISO timestamp (both null when absent or unparsable).
void put_instant(json& row, const std::string& name, const std::string& iso);

}  // namespace csift
