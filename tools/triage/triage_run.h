// What the four sessions_* tools share: the state database, the collection policy, the harness selection and
// the scrubber, opened once per call; the inventory of sessions; refs as the tools take them. It reads the
// tools' arguments and ToolContext, so it stays in tools/, in this family folder, not among what every tool
// shares (tools/common/).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/harness/harness_entry.h"
#include "core/triage/collection_policy.h"
#include "core/triage/session_inventory.h"
#include "core/triage/state_db.h"
#include "tools/common/tool.h"

namespace csift {

class Scrubber;

struct TriageRun {
  Environment env;  // with the call's claude_home in force
  CollectPolicy policy;
  std::unique_ptr<StateDb> db;
  const Scrubber* scrubber = nullptr;
  std::string now;  // RFC 3339 UTC with milliseconds, the time every write of this call records
  DiskCache* disk_cache = nullptr;                                        // the call's (ToolContext's)
  std::unique_ptr<DiskCacheUse> disk = std::make_unique<DiskCacheUse>();  // reported in the summary
};

// Opens the database and loads the policy (a bad config file is a usage error naming file and line).
TriageRun open_triage_run(const json& args, const ToolContext& ctx);
// Inventory options reaching the call's disk cache and counting this call's use of it (run.disk).
InventoryOptions triage_inventory_options(const TriageRun& run);
// The `harness` argument: names or aliases, "all" (also the default when absent): every harness.
std::vector<const HarnessEntry*> triage_harnesses(const json& args);
// `<harness>:<session id>` with the harness's canonical name (an alias such as `opencode:` is accepted);
// throws ToolError(usage) saying the expected form.
std::string canonical_triage_ref(const std::string& ref, std::string_view arg);
// The refs argument, canonical, each once.
std::vector<std::string> triage_refs(const json& args, std::string_view arg);
// The scrubbed text.
std::string triage_scrub(const TriageRun& run, const std::string& text);
json triage_scrub_list(const TriageRun& run, const std::vector<std::string>& texts);
// A store as the list and status tools report it (location and problems scrubbed).
json triage_store_json(const TriageRun& run, const TriageStore& store);

}  // namespace csift
