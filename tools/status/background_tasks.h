// Background tasks of a session (the seed's §6.13 BACKGROUND TASKS): backgrounded shells, async agents and
// Monitor arms launched on the main lane or on any subagent lane, joined to their completion notices by task
// id. Open ones are listed; closed ones fold to counts. A task with no completion notice is NOT proof that it
// still runs (a UI stop or a teardown leaves no transcript marker); the report says so.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/base/cancel.h"
#include "core/base/envelope.h"
#include "core/base/timefmt.h"
#include "core/store/store.h"

namespace csift {

// Which open tasks count toward a verdict (every task is still listed).
struct BackgroundLens {
  std::optional<EpochMs> since;              // launches before this instant do not count
  std::string since_text;                    // as given
  std::vector<std::string> ignore_patterns;  // a task whose command/description matches one does not count
};

struct BackgroundTask {
  std::string kind;         // shell | agent | monitor
  std::string launch_id;    // the launching tool_use id
  std::string task_id;      // the id its result and notices use ("" until the result is seen)
  std::string tool;         // the launching tool's name
  std::string lane;         // the launching subagent's id; "" = the main lane
  std::string description;  // description, else the command
  std::string launched_ts;  // as on disk
  std::optional<EpochMs> launched_at;
  std::string state = "open";  // open | completed | failed | killed | stopped | timed_out
  std::string output_file;
  bool counted = true;
  std::string excluded_by;  // the lens rule that excluded it
};

struct BackgroundReport {
  std::vector<BackgroundTask> tasks;
  size_t open = 0;
  size_t open_counted = 0;
  std::map<std::string, size_t> closed;  // state -> count
  std::set<std::string> notified_ids;    // every task id a completion notice named (agents included)
  bool agents_stopped_notice = false;    // an "agents stopped" notice names no id
  uint64_t skipped_lines = 0;
  size_t lanes_scanned = 0;  // subagent lanes whose launches were read (the main lane not counted)
  std::string error;
};

// Scans each subagent lane's launches and the whole main transcript (launches, notices, kills) behind a
// byte prefilter (launch, result and notice markers only). Completions are read from the main lane only.
BackgroundReport scan_background(const Transcript& main, const std::vector<Transcript>& lanes,
                                 const BackgroundLens& lens, const CancelToken* cancel);

// The `background` object of a status / wait row.
json background_json(const BackgroundReport& r);
// One line per open task and a count line for the closed ones (text rendering).
std::vector<std::string> background_lines(const json& background, EpochMs now);

}  // namespace csift
