// The part of a scope that lies in the stores of harnesses other than Claude Code: refs
// `<harness>:<session id>` (also `@<harness>:<session id>`, the form follow-up calls print) and the
// `harness` argument, which names the stores an unscoped call reads ("all" = every store found).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/harness/harness_entry.h"
#include "core/store/harness_stores.h"

namespace csift {

struct HarnessRef {
  const HarnessEntry* harness = nullptr;
  std::string id;     // the session id part (a full id or a prefix of one)
  std::string shown;  // the target as written
};
// A target of the ref form, or nullopt. `claude-code:<id>` is a ref too (its harness is Claude Code).
std::optional<HarnessRef> parse_harness_ref(std::string_view target);

struct HarnessSelection {
  bool claude = true;                       // Claude Code's store is read when no target narrows the scope
  bool all = false;                         // "all": every store found, an absent one only reported
  std::vector<const HarnessEntry*> others;  // the other stores an unscoped call reads
};
// The `harness` argument (names, aliases, "all"); empty = Claude Code alone. Throws ToolError(usage) naming
// the valid values on an unknown one.
HarnessSelection select_harnesses(const std::vector<std::string>& names);

// Adds to `out` the transcripts of other harnesses: each ref's session, and every session of each store in
// `whole`. Store listings and their problems are reported once per store in `reports`, and what each harness
// in the scope does not record in `notes`. Throws
// ToolError(not_found / usage) when a ref names no session or is ambiguous.
void resolve_harness_scope(const Environment& env, const std::vector<HarnessRef>& refs,
                           const std::vector<const HarnessEntry*>& whole, std::vector<Transcript>& out,
                           std::vector<StoreProblem>& problems, std::vector<StoreReport>& reports,
                           std::vector<std::string>& notes);

// The names the `harness` argument takes, for messages: every registered harness and "all".
std::string harness_names_text();

}  // namespace csift
