// The harness task list of a session (the seed's §6.13 tasks section): Claude Code keeps one JSON file per
// task (TaskCreate / TaskUpdate) under `<claude-home>/tasks/<session-uuid>/` or, in other builds,
// `tasks/session-<first 8 of the uuid>/`; both forms are read and merged. Reported, never part of the
// verdict.
#pragma once
#include <string>
#include <vector>

#include "core/base/envelope.h"

namespace csift {

struct HarnessTasks {
  bool dir_found = false;     // neither directory exists -> the row's `tasks` is null
  json open = json::array();  // not completed: in_progress first, then by id
  size_t completed = 0;
  size_t unreadable = 0;          // *.json files that did not parse to an object (skipped)
  std::vector<std::string> dirs;  // the directories read
};

HarnessTasks read_harness_tasks(const std::string& claude_home, const std::string& session_id);

}  // namespace csift
