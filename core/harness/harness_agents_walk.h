// What the harnesses' readers of sub-agents (core/harness/<name>/<name>_agents.cpp) share: a walk over a
// log's raw JSON lines, and attaching each reader to its harness's entry.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/harness/harness_agents.h"
#include "core/harness/harness_entry.h"
#include "core/json/stored_json.h"

namespace csift {

// The entries with HarnessEntry::agents set for every harness that records sub-agents.
std::vector<HarnessEntry> attach_agent_readers(std::vector<HarnessEntry> entries);

// Calls fn(object, line number) for each line of `path` that is a JSON object, in file order (false stops);
// a line that is not one, or too large to hold, is counted in `skipped`. False when the file cannot be
// opened.
bool walk_log_lines(const std::string& path, const CancelToken* cancel, uint64_t& skipped,
                    const std::function<bool(const nlohmann::json&, uint64_t)>& fn);

// j[key] when it is a whole number ≥ 0.
std::optional<uint64_t> json_count_at(const nlohmann::json& j, const char* key);

}  // namespace csift
