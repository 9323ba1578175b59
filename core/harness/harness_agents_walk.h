// What the harnesses' readers of sub-agents (core/harness/<name>/<name>_agents.cpp) share: a walk over a
// log's raw JSON lines, the walk down a session's tree of child ids, the rows of children no spawn call
// placed, and attaching each reader to its harness's entry.
#pragma once
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/harness/harness_agents.h"
#include "core/harness/harness_entry.h"
#include "core/json/stored_json.h"

namespace csift {

// The entries with HarnessEntry::agents (and child_logs) set for every harness that records sub-agents.
std::vector<HarnessEntry> attach_agent_readers(std::vector<HarnessEntry> entries);

// Calls fn(object, line number) for each line of t that is a JSON object, in order (false stops), reading
// the lines the harness's reader reads (TranscriptReader::read_raw_lines: a compressed Codex rollout's
// decompressed stream, a legacy Gemini CLI document's migrated lines); a line that is not one, or too large
// to hold, is counted in `skipped`, and so is the rest of a compressed stream that stopped decoding, whose
// words (unreadable_rest, core/scan/zstd_lines.h) go to `unreadable` when given. False when the log cannot be
// read at all.
bool walk_log_lines(const Transcript& t, const CancelToken* cancel, uint64_t& skipped,
                    const std::function<bool(const nlohmann::json&, uint64_t)>& fn,
                    std::string* unreadable = nullptr);

// `root` and every id under it by `children_of`, breadth first, each once (a cycle ends where it closes).
std::vector<std::string> descendant_ids(const std::string& root,
                                        const std::map<std::string, std::vector<std::string>>& children_of);

// The row of a child a spawn call started: its id is the child's (`child`), or the call's when none started;
// the call (`tool`, `call_id`) is where it began, at `line` of the issuer's log and `timestamp`.
inline HarnessChildAgent spawned_child(const std::string& child, const std::string& tool,
                                       const std::string& call_id, uint64_t line,
                                       const std::string& timestamp) {
  HarnessChildAgent c;
  c.id = child.empty() ? call_id : child;
  c.spawn_tool = tool;
  c.spawn_call_id = call_id;
  c.spawn_line = line;
  c.trigger_timestamp = timestamp;
  return c;
}

// A child row for each of `ids` no spawn call placed (not in `placed`), in the order of `ids`: `fill` gives
// it what the harness knows of that id (its log, names), and `not_recorded` says that no call started it.
void add_unplaced_children(const std::vector<std::string>& ids, const std::set<std::string>& placed,
                           const std::function<void(HarnessChildAgent&, const std::string&)>& fill,
                           const std::string& not_recorded, HarnessAgents& out);

// j[key] when it is a whole number ≥ 0.
std::optional<uint64_t> json_count_at(const nlohmann::json& j, const char* key);

// j[key] when it is an object, else an empty object: read in place, never copied.
const nlohmann::json& json_object_at(const nlohmann::json& j, const char* key);

}  // namespace csift
