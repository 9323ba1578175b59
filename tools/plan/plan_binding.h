// Which plan file a transcript is bound to (SPEC.md §9.14), by Claude Code's two laws in order: the path its
// `plan_mode` attachment names, else `<plans dir>/<slug>.md` from the first record carrying a valid slug (the
// plans dir from the merged settings' plansDirectory, resolved against the project root, else
// `<claude home>/plans`). Never a guess from a path's shape: a session may edit other sessions' plans.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/base/cancel.h"
#include "core/store/store.h"

namespace csift {

struct PlanBinding {
  std::string plan_file;
  std::string source;                 // plan_mode | slug-only
  std::string slug;                   // "" when the attachment bound it and no record carried one
  uint64_t line = 0;                  // the binding record's line
  bool minted_at_compaction = false;  // the slug's first carrier is a compaction boundary (a fork's copy)
  std::string project_root;           // the transcript's first recorded cwd
};

std::optional<PlanBinding> plan_binding_of(const Transcript& t, const std::string& claude_home,
                                           const CancelToken* cancel);

// Claude Code's rule for a usable slug: a lowercase letter or digit, then letters, digits or dashes, at most
// 120 characters.
bool valid_plan_slug(const std::string& slug);

}  // namespace csift
