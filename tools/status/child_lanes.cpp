#include "tools/status/child_lanes.h"

#include "core/store/agent_topology.h"

namespace csift {

ChildLanes read_child_lanes(const Transcript& session, const std::set<std::string>& notified_ids,
                            EpochMs now) {
  ChildLanes out;
  for (auto& agent : list_subagents(session)) {
    ChildLane lane;
    lane.tail = read_lane_tail(agent);
    out.skipped_lines += lane.tail.skipped_lines;
    lane.state = lane_state_of(lane.tail, now);
    if (lane.state != LaneState::settled && notified_ids.count(agent.id)) {
      lane.state = LaneState::settled;
      lane.settled_by = "notice";
    }
    lane.transcript = std::move(agent);
    if (lane.state == LaneState::settled) {
      ++out.settled;
    } else {
      lane.tail.window_records.clear();  // the row needs the state, not the records
      out.live.push_back(std::move(lane));
    }
  }
  return out;
}

json child_lane_json(const ChildLane& lane, EpochMs now) {
  json j{{"agent_id", lane.transcript.id},
         {"state", lane_state_name(lane.state)},
         {"agent_type", string_or_null(lane.transcript.agent_type())},
         {"description", string_or_null(lane.transcript.description())},
         {"path", lane.transcript.path}};
  if (!lane.tail.open_calls.empty()) j["in_call"] = lane.tail.open_calls.back().name;
  j["last_record_age_secs"] =
      lane.tail.last_record_at ? json((now - *lane.tail.last_record_at) / 1000) : json(nullptr);
  return j;
}

}  // namespace csift
