// The spawn join (SPEC.md §4 "Direction"): which child agent a Task/Agent/Workflow call started, so a spawn
// renders `self ⇨ <child>` and its return or `<result>` notification `<child> ⇨ self`. Two sources, the disk
// first: each subagent's meta.json `toolUseId`, then the `toolUseResult.agentId` a spawn's own result names
// (a sync return, or an async launch acknowledgement whose child may have no meta.json).
#include "core/store/spawn_join.h"

#include <unordered_set>

#include "core/harness/claude_code/claude_fields.h"
#include "core/json/stored_json.h"
#include "core/store/agent_topology.h"

namespace csift {

namespace {

bool is_spawn_call(const Block& b) {
  return b.kind == BlockKind::tool_use && (b.name == "Task" || b.name == "Agent" || b.name == "Workflow");
}

}  // namespace

void join_spawned_children(const Transcript& t, const std::vector<Record>& records, ClassifyContext& ctx) {
  ClassifyContext::SpawnJoinSeen& seen = ctx.spawn_join;
  bool news = false;  // a spawn call or a notification the join had not seen
  for (const Record& r : records) {
    for (const Block& b : r.message.blocks)
      if (is_spawn_call(b) && !b.id.empty()) news = seen.spawn_calls.insert(b.id).second || news;
    if (!seen.notification && r.type == "user" && !is_tool_result_carrier(r) &&
        contains(user_text(r), "<tool-use-id>"))
      seen.notification = news = true;
  }
  // A result arrives after its call: the calls seen so far are every spawn a result here can answer.
  bool unnamed = false;  // a spawn's result whose child neither the disk nor the result names yet
  for (const Record& r : records) {
    for (const Block& b : r.message.blocks) {
      if (b.kind != BlockKind::tool_result || !seen.spawn_calls.count(b.tool_use_id)) continue;
      if (seen.result_agents.count(b.tool_use_id)) continue;
      std::string child = stored_string_field(cc(r).tool_use_result_json, "agentId");
      if (!child.empty()) {
        seen.result_agents.emplace(b.tool_use_id, std::move(child));
      } else if (!ctx.spawned_child.count(b.tool_use_id)) {
        unnamed = true;
      }
    }
  }
  const bool first = !seen.joined;
  seen.joined = true;
  if (seen.spawn_calls.empty() && !seen.notification) return;  // nothing to join: spare the directory listing
  if (first || news || unnamed) ctx.spawned_child = spawned_agents_by_tool_use(t);
  // The disk names a child first; a result's agentId only a spawn the disk does not know.
  for (const auto& [spawn, child] : seen.result_agents)
    ctx.spawned_child.emplace(spawn, child);
}

}  // namespace csift
