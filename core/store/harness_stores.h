// The stores of harnesses other than Claude Code (core/harness/harness_entry.h) as a scope reads them: each
// listed where its environment puts it, and reported. What their listings share is the harness area's
// (core/harness/harness_listing.h). Claude Code's store stays the target grammar's (core/store/targets.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/harness/harness_listing.h"

namespace csift {

// What one store contributed to a scope, for the header.
struct StoreReport {
  std::string harness;
  std::string root;    // "" when no location applies
  std::string source;  // what put the root there
  bool found = false;  // the root is a directory
  size_t sessions = 0;
  size_t problems = 0;
};

// Lists harness h's store as the environment locates it. A store that does not exist lists nothing and is
// reported with found = false (reading every store found never fails on an absent one).
StoreReport list_harness_store(const HarnessEntry& h, const Environment& env, StoreListing& out);

}  // namespace csift
