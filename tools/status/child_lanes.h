// Child lanes of a live session (the seed's §6.13 child liveness): each subagent transcript's own tail gives
// in-flight / generating / settled; a lane whose completion notice the main transcript already carries is
// settled whatever its tail says (the harness's word outranks the tail).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "core/base/envelope.h"
#include "core/store/store.h"
#include "tools/status/lane_tail.h"

namespace csift {

struct ChildLane {
  Transcript transcript;
  LaneTail tail;
  LaneState state = LaneState::settled;
  std::string settled_by;  // "notice" when the main transcript's completion notice settled it
};

struct ChildLanes {
  std::vector<ChildLane> live;  // in-flight or generating
  size_t settled = 0;
  uint64_t skipped_lines = 0;
};

ChildLanes read_child_lanes(const Transcript& session, const std::set<std::string>& notified_ids,
                            EpochMs now);

json child_lane_json(const ChildLane& lane, EpochMs now);

}  // namespace csift
