// The spawn join (SPEC.md §4 "Direction"): which child agent a Task/Agent/Workflow call started, so a spawn
// renders `self ⇨ <child>` and its return or `<result>` notification `<child> ⇨ self`. Two sources, the disk
// first: each subagent's meta.json `toolUseId`, then the `toolUseResult.agentId` a spawn's own result names
// (a sync return, or an async launch acknowledgement whose child may have no meta.json).
#include <unordered_set>

#include "core/harness/claude_code/classify.h"
#include "core/harness/claude_code/classify_detail.h"
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
  std::unordered_set<std::string> spawns;
  bool notification = false;
  for (const Record& r : records) {
    for (const Block& b : r.message.blocks)
      if (is_spawn_call(b) && !b.id.empty()) spawns.insert(b.id);
    if (!notification && r.type == "user" && !is_tool_result_carrier(r))
      notification = contains(user_text(r), "<tool-use-id>");
  }
  if (spawns.empty() && !notification) return;  // nothing to join: spare the directory listing
  for (auto& [spawn, child] : spawned_agents_by_tool_use(t))
    ctx.spawned_child.emplace(spawn, child);
  for (const Record& r : records) {
    for (const Block& b : r.message.blocks) {
      if (b.kind != BlockKind::tool_result || !spawns.count(b.tool_use_id)) continue;
      if (ctx.spawned_child.count(b.tool_use_id)) continue;
      std::string child = stored_string_field(cc(r).tool_use_result_json, "agentId");
      if (!child.empty()) ctx.spawned_child.emplace(b.tool_use_id, std::move(child));
    }
  }
}

}  // namespace csift
